#include "rdmasim/demo.hpp"

#include <algorithm>

namespace rdmasim {

namespace {

struct StepConfigs {
  std::vector<LatConfig> steps;
  LatConfig no_zero_copy;
};

StepConfigs step_configs(const LatConfig& base) {
  LatConfig tcp = base;
  tcp.transport = Transport::tcp;
  tcp.test = TestKind::send;
  tcp.toggles = Toggles{};
  tcp.toggles.busy_poll = false;

  LatConfig bypass = base;
  bypass.transport = Transport::rdma;
  bypass.test = TestKind::send;
  bypass.toggles = Toggles{};
  bypass.toggles.zero_copy = false;
  bypass.toggles.busy_poll = false;
  bypass.toggles.inline_data = false;

  LatConfig zc = bypass;
  zc.toggles.zero_copy = true;

  LatConfig full = zc;
  full.toggles.busy_poll = true;
  full.toggles.inline_data.reset();

  LatConfig no_zc = full;
  no_zc.toggles.zero_copy = false;

  return {{tcp, bypass, zc, full}, no_zc};
}

double share(double tcp, double rdma, double no_zc) { return (no_zc - rdma) / (tcp - rdma) * 100.0; }

}  // namespace

std::vector<LatConfig> demo_step_configs(const LatConfig& base) { return step_configs(base).steps; }

DemoResult run_demo(const LatConfig& base, const std::vector<std::int64_t>& sweep_sizes) {
  static const char* kNames[] = {"TCP", "+ kernel bypass", "+ zero copy", "full RDMA"};
  static const char* kChanges[] = {"kernel TCP: syscalls, copies, kernel stacks, interrupt, wake-up",
                                   "verbs from user space; NIC runs the transport",
                                   "NIC DMAs the registered application buffer",
                                   "completion by polling (no interrupt), inline data"};
  const StepConfigs sc = step_configs(base);
  DemoResult d;
  for (std::size_t i = 0; i < sc.steps.size(); ++i) d.steps.push_back({kNames[i], kChanges[i], run_latency(sc.steps[i])});
  d.rdma_no_zero_copy = run_latency(sc.no_zero_copy);
  const double t = d.steps.front().result.stats.avg_ps;
  const double r = d.steps.back().result.stats.avg_ps;
  d.latency_cut_pct = (1.0 - r / t) * 100.0;
  d.zero_copy_share_pct = share(t, r, d.rdma_no_zero_copy.stats.avg_ps);
  for (std::int64_t size : sweep_sizes) {
    LatConfig b = base;
    b.size = Bytes(size);
    b.iters = std::min<std::int64_t>(base.iters, 200);
    const StepConfigs s = step_configs(b);
    DemoSizeRow row;
    row.size = b.size;
    for (const LatConfig& c : s.steps) row.step_avg_ps.push_back(run_latency(c).stats.avg_ps);
    row.zero_copy_share_pct = share(row.step_avg_ps.front(), row.step_avg_ps.back(), run_latency(s.no_zero_copy).stats.avg_ps);
    d.by_size.push_back(std::move(row));
  }
  return d;
}

}  // namespace rdmasim
