// FabricRoute: the network part of a message's path across switches, for one fixed route
// (one of the equal-cost paths). Per cable: the sending port's transmitter (a FIFO server per
// cable direction) and the propagation delay; per switch: the forwarding pipeline (`switch`).
// A cut-through switch starts forwarding once `switch.cut_through_bytes` have arrived — the
// upstream transmitter hands the packet on after those bytes while it stays busy for the whole
// frame — unless the egress cable is faster than the ingress one (then it stores and
// forwards). Unloaded, one packet: sum over cables of (cut-through ? header : frame)
// serialization + propagation, plus one pipeline per switch.
#pragma once

#include "path/path_spec.hpp"
#include "net/routing.hpp"
#include "net/topology.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

class FabricRoute {
 public:
  /// `route` runs from side 0's host to side 1's host; a message from side 1 uses it reversed.
  /// `infiniband`: its switches forward in switch.ib_pipeline (else switch.pipeline).
  FabricRoute(const Topology& t, FabricPath route, const Profile& p, bool infiniband)
      : t_(t), route_(std::move(route)), p_(p), pipeline_(p.sw.forwarding(infiniband)) {}
  void append(PathSpec& path, int from) const;
  /// Unloaded one-way time of one frame of `wire` bytes from the start of its transmission at
  /// the first node to its arrival at the last (the stages `append` adds, evaluated for it).
  Time unloaded(Bytes wire, int from) const;
  /// Cables the route crosses.
  int cables() const { return static_cast<int>(route_.cables.size()); }
  /// Transmitter instance id of cable `c` sending from node `from_node`.
  static int wire_instance(const Cable& c, int c_index, int from_node) { return c.port_at(c_index, from_node); }

 private:
  struct Hop {
    std::string from, to;  // node names
    bool into_switch = false;
    Cost serialize;        // the sending port's transmitter (cut-through: release_bytes)
    Time propagate{};
  };
  std::vector<Hop> hops(int from) const;

  const Topology& t_;
  FabricPath route_;
  Profile p_;
  Time pipeline_;  // per switch crossed
};

}  // namespace rdmasim
