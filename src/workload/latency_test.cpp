// run_latency: builds the two directions' paths and drives the ping-pong.
#include "model/budget.hpp"
#include "model/connection.hpp"
#include "model/lat_config.hpp"
#include "model/path.hpp"
#include "rdmasim/latency.hpp"
#include "workload/pingpong.hpp"

namespace rdmasim {

double LatResult::mean_ps(Category c) const {
  return static_cast<double>(kept_ledger_sum[c].count_ps()) / static_cast<double>(stats.kept) / rtt_factor;
}

namespace {
// The ping-pong's frames cross the fabric on plain network stages, with no transport to resend a
// lost one: a loss would end the exchange silently. Loss and faults that drop frames run in `bw`
// (RC go-back-N) and the verbs API; the closed form of their cost is `budget --loss`.
void refuse_lost_frames(const LatConfig& c) {
  if (c.topology != LatTopology::fabric) return;
  if (const char* what = frame_loss_option(c.fabric))
    throw std::invalid_argument("lat: " + std::string(what) + " loses frames and the ping-pong has no transport to "
                                "resend them; run it in `rdmasim bw` (RC go-back-N), or `rdmasim budget --loss` for "
                                "the closed form");
}
}  // namespace

LatResult run_latency(const LatConfig& c, Exports* exports) {
  refuse_lost_frames(c);
  const ExchangePaths e = build_exchange(c);
  LatResult r;
  r.config = c;
  r.toggles = e.toggles;
  r.rtt_factor = e.rtt_factor;
  r.routes = e.routes;
  const PathSpec& fwd = e.forward;
  // One uncontended exchange bounds how long the run is in simulated time.
  Time rtt = evaluate_path(fwd, c.size, true).total();
  if (e.reverse) rtt += evaluate_path(*e.reverse, c.size, true).total();
  if (static_cast<double>(rtt.count_ps()) * static_cast<double>(c.iters) > 1e18)
    throw std::invalid_argument("this run would simulate more than 11 days (" + std::to_string(c.iters) +
                                " iterations of " + format_time(rtt) + "): use fewer iterations");
  PingPong pp(c, fwd, e.reverse ? &*e.reverse : nullptr, exports);
  if (c.conn.reuse > 0 || c.conn.pool) {
    PathSpec setup = c.topology == LatTopology::fabric ? build_setup_path(c, FabricNetwork(c).appender())
                                                       : build_setup_path(c);
    r.setup = evaluate_path(setup, c.size, true).total();
    if (c.conn.reuse > 0) {
      setup.stages.insert(setup.stages.end(), fwd.stages.begin(), fwd.stages.end());
      pp.set_connection_setup(setup, c.conn.reuse);
    }
  }
  pp.run(c.iters - 1);
  r.connections = pp.connections();
  r.kept_ledger_sum = pp.kept_ledger_sum();
  r.invariant_violations = pp.invariant_violations();
  r.events = pp.events();
  r.iterations = std::move(pp.iterations());
  r.hosts[0] = pp.host(0).counters();
  r.hosts[1] = pp.host(1).counters();
  r.simulated = pp.now();
  {
    long double sum = 0;
    for (std::int64_t v : pp.samples()) sum += static_cast<long double>(v);
    if (!pp.samples().empty()) r.mean_all_rtt_ps = static_cast<double>(sum / static_cast<long double>(pp.samples().size()));
  }
  r.stats = compute_latency_stats(pp.samples(), r.rtt_factor);
  for (const StageSpec& s : fwd.stages)
    if (s.kind == StageKind::split && !s.split.header_only) {
      r.packets_per_message = packet_count(c.size, s.split.segment);
      r.wire_bytes_per_message = message_wire_bytes(s.split.frame, c.size, s.split.segment, s.split.layer);
    }
  return r;
}

}  // namespace rdmasim
