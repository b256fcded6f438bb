// Link: a point-to-point cable between two ports. The sending port serializes the frame at
// the link rate (a FIFO transmitter: one frame at a time, in order), then the signal
// propagates for length / velocity. Both are charged to the ledger: `transmit` and `propagate`.
#pragma once

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

}  // namespace rdmasim
