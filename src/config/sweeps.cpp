#include "config/sweeps.hpp"

#include <stdexcept>
#include <string>

#include "config/options.hpp"
#include "config/scenario.hpp"

namespace rdmasim::config {

std::vector<Scenario> per_size(const Scenario& s) {
  std::vector<Scenario> runs;
  for (std::int64_t size : s.options.all ? all_sizes() : std::vector<std::int64_t>{s.options.size}) {
    runs.push_back(s);
    runs.back().options.size = size;
    runs.back().options.all = false;
    scenario_config(runs.back());
  }
  return runs;
}

std::vector<CoalescingRow> run_coalescing(const Scenario& s, const std::vector<int>& frames) {
  std::vector<Scenario> runs;
  for (int f : frames) {
    if (f < 1 || f > 65535) throw std::invalid_argument("--frames: each value must be 1..65535, got " + std::to_string(f));
    runs.push_back(s);
    runs.back().options.rx_frames = f;
    scenario_config(runs.back());
  }
  std::vector<CoalescingRow> rows;
  for (const Scenario& x : runs) {
    LatResult r = std::get<LatResult>(run(x).detail);
    if (r.invariant_violations != 0) throw std::logic_error("ledger invariant violated");
    const Time usecs = r.config.profile.nic.rx_usecs;
    rows.push_back({static_cast<int>(x.options.rx_frames), usecs, std::move(r)});
  }
  return rows;
}

std::vector<LossRow> run_loss_sweep(const Scenario& s) {
  const ScenarioOptions& o = s.options;
  if (o.qps != 1 || o.cores != 1 || o.bidirectional || !o.duration.empty() || !o.margin.empty())
    throw std::invalid_argument("--loss-sweep runs one QP one way for --iters messages: drop -q/--cores/-b/-D");
  if (!o.exports.trace_path.empty() || !o.exports.pcap_path.empty() || o.exports.hop_ledger)
    throw std::invalid_argument("--trace/--pcap/--hop-ledger export one run; --loss-sweep makes one per loss rate");
  if (scenario_config(s).topology != LatTopology::fabric) throw std::invalid_argument("--loss-sweep: needs a switched --topology");
  std::vector<Scenario> runs;  // per loss rate: RDMA, then the same messages over packet-level kernel TCP
  for (double p : o.loss_sweep) {
    if (!(p >= 0 && p < 1)) throw std::invalid_argument("--loss-sweep: expected probabilities in [0, 1), got " + std::to_string(p));
    Scenario x = s;
    x.options.loss_sweep.clear();
    x.options.fabric.loss = p;
    runs.push_back(x);
    x.options.transport = "tcp";
    x.options.test = "send";
    x.options.kernel_bypass = x.options.zero_copy = x.options.inline_data = x.options.busy_poll = "";
    x.options.interrupt_coalescing = "off";
    runs.push_back(x);
  }
  std::vector<LossRow> rows;
  for (std::size_t i = 0; i < runs.size(); i += 2) {
    LossRow r;
    r.loss = runs[i].options.fabric.loss;
    r.rdma = std::get<BwResult>(run(runs[i]).detail);
    r.rdma_estimate = estimate_go_back_n(r.rdma.config.base, r.loss);
    r.tcp = estimate_tcp_under_loss(r.rdma.config.base, r.loss);
    r.tcp_sim = std::get<BwResult>(run(runs[i + 1]).detail);
    if (r.tcp_sim.invariant_violations != 0) throw std::logic_error("ledger invariant violated");
    rows.push_back(std::move(r));
  }
  return rows;
}

SeedRuns run_seeds(const Scenario& s) {
  SeedRuns r;
  Scenario x = s;
  for (int i = 0; i < s.options.seeds; ++i, ++x.options.seed) {
    r.runs.push_back(std::get<TrafficResult>(run(x).detail));
    if (const std::string why = traffic_failure(r.runs.back()); !why.empty() && r.failure.empty())
      r.failure = "seed " + std::to_string(x.options.seed) + ": " + why;
  }
  return r;
}

}  // namespace rdmasim::config
