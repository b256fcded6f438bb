// Link: a point-to-point cable between two ports. The sending port serializes the frame at
// the link rate (a FIFO transmitter: one frame at a time, in order), then the signal
// propagates for length / velocity. Both are charged to the ledger: `transmit` and `propagate`.
#pragma once

#include "net/topology.hpp"
#include "path/path_spec.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

class Link {
 public:
  explicit Link(const LinkParams& p) : p_(p) {}
  /// length / velocity, rounded up to the picosecond.
  Time propagation() const;
  Time serialization(Bytes wire) const { return serialization_time(wire, p_.rate); }
  /// Appends the transmitter (on side `from`'s egress) and the propagation delay.
  void append(PathSpec& path, int from) const;

 private:
  LinkParams p_;
};

/// A fabric cable's propagation delay at `velocity_mps` (Link::propagation of its length).
Time cable_propagation(const Cable& c, std::int64_t velocity_mps);
/// The longest of the topology's cables' propagations (zero with no cable): no cut's lookahead
/// is longer, so a model-wide event due that long after its cause — a lost frame's notice, a
/// collective's barrier — never falls in a window already run.
Time longest_propagation(const Topology& t, std::int64_t velocity_mps);

}  // namespace rdmasim
