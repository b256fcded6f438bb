// The fabric's link faults: a switch-to-switch link going down and coming back up, and the
// switches' routing following each change after `switch.route_convergence` (sim/fabric.hpp).
// Events, not the per-frame path: the next-hop tables are rebuilt only on convergence.
// Partitioned, the two ends of a cable change in their own LPs at the same instant, and every
// LP switches to the table planned for each convergence at its time: the faults are known
// before the run, so the tables are too.
#include <algorithm>

#include "net/next_hops.hpp"
#include "sim/fabric.hpp"
#include "sim/fabric_port.hpp"

namespace rdmasim {

using namespace fabric_detail;

namespace {

/// The next-hop tables routing computes with the cables `down(c)` says are down taken out.
template <typename Down>
NextHopTable routes_without(const Topology& t, Down&& down) {
  Topology view = t;
  for (std::size_t c = 0; c < view.cables().size(); ++c)
    if (down(c)) view.set_transit(static_cast<int>(c), CableTransit::none);
  return NextHopTable(view);
}

}  // namespace

void Fabric::link_drop(Port& at, Packet& p, bool no_route) {
  if (!no_route) ++at.c.link_drops;
  ++tally(at).link_drops;
  hand_back(at, p);
}

void Fabric::link_change(int cable, bool up) {
  for (int side = 0; side < 2; ++side) link_side(ports_[static_cast<std::size_t>(cable * 2 + side)], up);
  sched_.schedule_in(opt_.sw.route_convergence, control_, static_cast<std::uint64_t>(kReroute) << 28);
}

void Fabric::link_side(Port& e, bool up) {
  if (!(e.id & 1)) ++tally(e).link_changes;  // counted once per cable, at its first end
  e.down = !up;
  e.paused = 0;  // PFC state does not survive the link: pauses in force or on the way are gone
  for (Port::Class& k : e.cls) ++k.wd_epoch;
  if (!up) {
    // The port loses what waits for it (the frame being sent is lost on arrival).
    for (unsigned tc = 0; tc < kClasses; ++tc)
      if (class_slot_[tc] != kNoClass) drain_queue(e, tc, [&](Packet& p) { link_drop(e, p); });
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

void Fabric::reroute() {
  ++tally_[0].reroutes;
  hops_ = routes_without(*topo_, [&](std::size_t c) { return ports_[c * 2].down; });  // the links as routing now sees them
}

void Fabric::plan_convergence() {
  const auto& cables = topo_->cables();
  std::vector<Time> at;  // each change's convergence, as the unpartitioned run schedules them
  for (const Cable& c : cables)
    for (Time t : {c.down_at, c.up_at})
      if (t != Time::max()) at.push_back(t + opt_.sw.route_convergence);
  std::sort(at.begin(), at.end());
  routing_.clear();
  routing_.push_back(hops_);
  for (Time t : at)  // the links down at t (the changes at t itself made already)
    routing_.push_back(routes_without(*topo_, [&](std::size_t c) { return cables[c].down_at <= t && t < cables[c].up_at; }));
  lp_routing_.assign(lp_sched_.size(), 0);
  std::vector<int> first_port(lp_sched_.size(), -1);  // an event of LP i names one of its ports
  for (const Port& p : ports_)
    if (first_port[p.lp] < 0) first_port[p.lp] = p.id;
  // Each end changes in its own LP; then (at the same instant, later) the LPs converge.
  for (std::size_t ci = 0; ci < cables.size(); ++ci)
    for (int side = 0; side < 2; ++side) {
      const Port& e = ports_[ci * 2 + static_cast<std::size_t>(side)];
      const auto arg = static_cast<std::uint64_t>(e.id) << 32 | kPlanned;
      if (cables[ci].down_at != Time::max()) lp_sched_[e.lp]->schedule_at(cables[ci].down_at, control_, arg | kLinkDown << 28);
      if (cables[ci].up_at != Time::max()) lp_sched_[e.lp]->schedule_at(cables[ci].up_at, control_, arg | kLinkUp << 28);
    }
  for (std::size_t i = 0; i < at.size(); ++i)
    for (std::size_t lp = 0; lp < lp_sched_.size(); ++lp)
      if (first_port[lp] >= 0)
        lp_sched_[lp]->schedule_at(at[i], control_, static_cast<std::uint64_t>(first_port[lp]) << 32 | kReroute << 28 | (i + 1));
}

}  // namespace rdmasim
