// The classic RDMA latency story on one path, as simulations: TCP baseline -> kernel bypass
// -> zero copy -> full RDMA (completion by polling), plus the toy model's what-if
// "RDMA without zero copy". Each step is a full `lat` run (SEND ping-pong, perftest stats and
// ledger); the summary reproduces the toy model's printout.
#pragma once

#include <string>
#include <vector>

#include "rdmasim/latency.hpp"

namespace rdmasim {

struct DemoStep {
  std::string name;     // "TCP", "+ kernel bypass", ...
  std::string change;   // what this step switched on
  LatResult result;
};

struct DemoSizeRow {
  Bytes size{};
  std::vector<double> step_avg_ps;  // t_avg of each step at this size
  double zero_copy_share_pct = 0;
};

struct DemoResult {
  std::vector<DemoStep> steps;  // the four progressive steps
  LatResult rdma_no_zero_copy;  // full RDMA with zero copy off (the "partial" step)
  double latency_cut_pct = 0;   // (1 - rdma_avg / tcp_avg) * 100
  double zero_copy_share_pct = 0;  // (no_zc_avg - rdma_avg) / (tcp_avg - rdma_avg) * 100
  std::vector<DemoSizeRow> by_size;  // the same steps at larger messages (where copies matter)
};

/// The four steps' configurations, in order (TCP, + kernel bypass, + zero copy, full RDMA),
/// from `base`'s profile, size, iterations, link layer, MTU and seed.
std::vector<LatConfig> demo_step_configs(const LatConfig& base);

/// `base` supplies profile, size, iterations, link layer, MTU and seed. `sweep_sizes` are run
/// with min(iters, 200) iterations for the by-size table.
DemoResult run_demo(const LatConfig& base, const std::vector<std::int64_t>& sweep_sizes = {4096, 65536, 1 << 20});

}  // namespace rdmasim
