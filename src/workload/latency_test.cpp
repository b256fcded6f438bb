// run_latency: builds the two directions' paths and drives the ping-pong.
#include <memory>

#include "model/path.hpp"
#include "rdmasim/latency.hpp"
#include "workload/pingpong.hpp"

namespace rdmasim {

double LatResult::mean_ps(Category c) const {
  return static_cast<double>(kept_ledger_sum[c].count_ps()) / static_cast<double>(stats.kept) / rtt_factor;
}

LatResult run_latency(const LatConfig& c) {
  validate(c);
  LatResult r;
  r.config = c;
  r.toggles = resolve(c);
  const bool read = c.transport == Transport::rdma && c.test == TestKind::read;
  r.rtt_factor = read ? 1 : 2;
  const PathSpec fwd = build_path(c, r.toggles, 0);
  std::unique_ptr<PathSpec> rev;
  if (!read) rev = std::make_unique<PathSpec>(build_path(c, r.toggles, 1));
  PingPong pp(c, fwd, rev.get());
  pp.run(c.iters - 1);
  r.kept_ledger_sum = pp.kept_ledger_sum();
  r.invariant_violations = pp.invariant_violations();
  r.events = pp.events();
  r.stats = compute_latency_stats(pp.samples(), r.rtt_factor);
  for (const StageSpec& s : fwd.stages)
    if (s.kind == StageKind::split && !s.split.header_only) {
      r.packets_per_message = packet_count(c.size, s.split.segment);
      r.wire_bytes_per_message = message_wire_bytes(s.split.frame, c.size, s.split.segment, s.split.layer);
    }
  return r;
}

}  // namespace rdmasim
