#include "rdmasim/demo.hpp"

namespace rdmasim {

DemoResult run_demo(const LatConfig& base) {
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

  DemoResult d;
  d.steps.push_back({"TCP", "kernel TCP: syscalls, copies, kernel stacks, interrupt, wake-up", run_latency(tcp)});
  d.steps.push_back({"+ kernel bypass", "verbs from user space; NIC runs the transport", run_latency(bypass)});
  d.steps.push_back({"+ zero copy", "NIC DMAs the registered application buffer", run_latency(zc)});
  d.steps.push_back({"full RDMA", "completion by polling (no interrupt), inline data", run_latency(full)});
  d.rdma_no_zero_copy = run_latency(no_zc);
  const double t = d.steps.front().result.stats.avg_ps;
  const double r = d.steps.back().result.stats.avg_ps;
  const double p = d.rdma_no_zero_copy.stats.avg_ps;
  d.latency_cut_pct = (1.0 - r / t) * 100.0;
  d.zero_copy_share_pct = (p - r) / (t - r) * 100.0;
  return d;
}

}  // namespace rdmasim
