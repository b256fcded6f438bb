// The fabric's link faults: a switch-to-switch link going down and coming back up, and the
// switches' routing following each change after `switch.route_convergence` (sim/fabric.hpp).
// Events, not the per-frame path: the next-hop tables are rebuilt only on convergence.
#include "net/next_hops.hpp"
#include "sim/fabric.hpp"
#include "sim/fabric_port.hpp"

namespace rdmasim {

using namespace fabric_detail;

void Fabric::link_drop(Port* at, Packet& p) {  // never partitioned: link faults are refused there
  if (at) ++at->c.link_drops;
  ++tally_[0].link_drops;
  hand_back(at ? *at : ports_[0], p);
}

void Fabric::link_change(int cable, bool up) {
  ++link_changes_;
  for (int side = 0; side < 2; ++side) {
    Port& e = ports_[static_cast<std::size_t>(cable * 2 + side)];
    e.down = !up;
    e.refresh_faulty();
    e.paused = 0;  // PFC state does not survive the link: pauses in force or on the way are gone
    for (unsigned tc = 0; tc < kClasses; ++tc) ++e.cls[tc].wd_epoch;
    if (!up) {
      // The port loses what waits for it (the frame being sent is lost on arrival).
      for (unsigned tc = 0; tc < kClasses; ++tc) drain_queue(e, tc, [&](Packet& p) { link_drop(&e, p); });
      if (tracer_) [[unlikely]] traced_depth(e);
      if (e.blocked) {
        e.c.paused += now_at(e) - e.blocked_since;
        e.blocked = false;
      }
    } else {
      if (opt_.layer == LinkLayer::ib && e.peer_switch) e.fill_credits(opt_.sw.ib_vl_buffer.count());  // retrained
      for (unsigned tc = 0; tc < kClasses; ++tc)  // an ingress still over XOFF pauses its peer again
        if (e.xoff_sent >> tc & 1) send_flow_control(e.id, kPause, static_cast<std::uint8_t>(tc), 0);
    }
  }
  sched_.schedule_in(opt_.sw.route_convergence, control_, static_cast<std::uint64_t>(kReroute) << 28);
}

void Fabric::reroute() {
  ++reroutes_;
  Topology view = *topo_;  // the links as routing now sees them
  for (std::size_t c = 0; c < view.cables().size(); ++c)
    if (ports_[c * 2].down) view.set_transit(static_cast<int>(c), CableTransit::none);
  hops_ = NextHopTable(view);
}

}  // namespace rdmasim
