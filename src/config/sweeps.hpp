// The runs one command makes from its scenario: a size list (-a), the rx-frames values of
// `coalescing`, the loss rates of `bw --loss-sweep`. Each expansion checks every scenario before
// any runs, so bad input fails before minutes of simulation.
#pragma once

#include <string>
#include <vector>

#include "model/loss_budget.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/scenario.hpp"
#include "rdmasim/traffic.hpp"

namespace rdmasim::config {

/// The scenario at each size it asks for: -a gives 2 B .. 8 MiB, otherwise its one size.
std::vector<Scenario> per_size(const Scenario& s);

/// One latency run per rx-frames value (1..65535; each turns coalescing on).
struct CoalescingRow {
  int frames = 1;
  Time usecs{};
  LatResult result;
};
std::vector<CoalescingRow> run_coalescing(const Scenario& s, const std::vector<int>& frames);

/// One row of `rdmasim bw --loss-sweep`: the simulated RDMA stream and both closed forms.
struct LossRow {
  double loss = 0;
  BwResult rdma;           // simulated (go-back-N, this profile's rc.timeout)
  GbnEstimate rdma_estimate;
  TcpLossEstimate tcp;     // Mathis' closed form (reference)
  BwResult tcp_sim;        // simulated packet-level TCP, the same messages
};
/// Per loss rate of s.options.loss_sweep: RDMA, then the same messages over kernel TCP.
/// Refuses the options that do not apply (exports, -q/-b/-D, an unswitched topology).
std::vector<LossRow> run_loss_sweep(const Scenario& s);

/// `bw --pattern --seeds N`: the pattern once per seed (seed, seed + 1, ...; each a new
/// permutation) and the first failure, "seed S: why" ("" when every run succeeded).
struct SeedRuns {
  std::vector<TrafficResult> runs;
  std::string failure;
};
SeedRuns run_seeds(const Scenario& s);

}  // namespace rdmasim::config
