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
  std::size_t points = 0;                    // combinations in the whole sweep
  std::vector<std::size_t> index;            // per row: its combination's number (0-based, the product's order)
  std::vector<std::vector<std::string>> rows_params;
  std::vector<std::vector<Metric>> rows;
  std::vector<std::string> failures;         // per row: RunResult::failure ("" when it succeeded)
  /// "key=value,key=value": the row's parameter values.
  std::string row_label(std::size_t row) const;
};
/// Each scenario's run on `threads` worker threads, each in its own simulator; results in the
/// scenarios' order whatever the thread count. The first run that throws rethrows here.
std::vector<RunResult> run_all(const std::vector<Scenario>& runs, int threads);

/// A share of a sweep: combinations number i with i % count == part (0-based part of count).
struct SweepShard {
  int part = 0, count = 1;
};
/// "I/N" (1-based I, as a Slurm job array's --array=1-N) -> {I - 1, N}; throws on bad text.
SweepShard parse_sweep_shard(const std::string& text);

/// What identifies a sweep across its shards: a hash of the scenario as run (to_toml, after the
/// overrides) and the swept keys and values. Parts whose fingerprints differ do not merge.
std::string sweep_fingerprint(const Scenario& base, const std::vector<SweepParam>& params);

/// Every combination of the parameters' values (the last parameter varies fastest), or the
/// shard's share of them, on `threads` worker threads. Every combination is built (and so
/// checked) before anything runs, whatever the shard.
SweepTable run_sweep(const Scenario& base, const std::vector<SweepParam>& params, int threads,
                     SweepShard shard = {});
}  // namespace rdmasim::config
