// Comparing and sweeping scenarios: each scheme or combination is one rdmasim::run (the fixed
// list of named metrics of rdmasim/scenario.hpp: latency statistics and the ledger for lat, the
// closed form for budget, goodput and fabric counters for bw and traffic patterns); the
// `sweep` is the cartesian product of parameter
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

/// `--vs "a=1,b=2"`: the base scenario with these overrides.
Scenario variant(const Scenario& base, const std::string& assignments);

/// A scenario file with `--set` overrides, checked as a run would check it.
Scenario load_with_overrides(const std::string& path, const std::vector<std::string>& sets);

struct CompareTable {
  std::vector<std::string> names;              // per scheme: its name, else its path
  std::vector<std::vector<Metric>> columns;
  std::vector<std::string> failures;           // per scheme: RunResult::failure
};
/// `rdmasim compare`: the files, then `vs` variants of the first, each with `sets`; all checked
/// (two or more, one command, no output files) before any runs; one column of metrics each.
CompareTable run_compare(const std::vector<std::string>& files, const std::vector<std::string>& vs,
                         const std::vector<std::string>& sets);

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
  std::vector<std::string> failures;         // per row: RunResult::failure ("" when it succeeded)
  /// "key=value,key=value": the row's parameter values.
  std::string row_label(std::size_t row) const;
};
/// Each scenario's run on `threads` worker threads, each in its own simulator; results in the
/// scenarios' order whatever the thread count. The first run that throws rethrows here.
std::vector<RunResult> run_all(const std::vector<Scenario>& runs, int threads);

/// Every combination of the parameters' values (the last parameter varies fastest) on
/// `threads` worker threads.
SweepTable run_sweep(const Scenario& base, const std::vector<SweepParam>& params, int threads);
}  // namespace rdmasim::config
