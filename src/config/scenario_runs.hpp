// Running scenarios for comparison and sweeps: one scenario -> a fixed list of named metrics
// (latency statistics and the ledger for lat, the closed form for budget, goodput and fabric
// counters for bw and traffic patterns), and the `sweep` (the cartesian product of parameter
// values, run on a pool of threads, each run in its own simulator; rows in product order
// whatever the thread count, so the results are byte-identical for any -j). Their tables are
// io/sweep_report.hpp.
#pragma once

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "config/scenario.hpp"

namespace rdmasim::config {

struct Metric {
  std::string name;  // "t_typical_us", "ledger.transmit_us", "bw_avg_Gbps", ...
  double value = 0;
};

/// Runs the scenario once (as its command would) and returns its metrics, in a fixed order.
/// `exports` (optional) observes the simulation (the budget runs none).
std::vector<Metric> scenario_metrics(const Scenario& s, Exports* exports = nullptr);

/// `--vs "a=1,b=2"`: the base scenario with these overrides.
Scenario variant(const Scenario& base, const std::string& assignments);

struct SweepParam {
  std::string key;
  std::vector<std::string> values;
};
/// "--param key=v1,v2,..." -> its key and values.
SweepParam parse_sweep_param(const std::string& text);

struct SweepTable {
  std::vector<std::string> params;           // the swept keys
  std::vector<std::vector<std::string>> rows_params;
  std::vector<std::vector<Metric>> rows;
};
/// Every combination of the parameters' values (the last parameter varies fastest) on
/// `threads` worker threads.
SweepTable run_sweep(const Scenario& base, const std::vector<SweepParam>& params, int threads);
}  // namespace rdmasim::config
