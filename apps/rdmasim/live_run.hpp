// LiveRun: what the CLI watches while one run is simulated — the samples behind `--csv`'s
// timeseries.csv and the one-line progress on stderr (io/progress_line.hpp) when stderr is a
// terminal and --quiet is not given. Both come from one SampleProbe (workload/sample_probe.hpp)
// attached through the run's Exports; without either, no probe is attached and the run is
// exactly the unobserved one (a probe never changes what is simulated, only where run() pauses).
// Slices: `--sample-interval` fixes them; otherwise they start at first_slice() and double
// every 200 samples, so a long run's table stays O(200 x log(length)) rows.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "io/progress_line.hpp"
#include "workload/sample_probe.hpp"

namespace rdmasim::cli {

class LiveRun {
 public:
  /// `expected_messages`: what the progress line counts towards (0: unknown); `pingpong` and
  /// `flows` size the first slice (first_slice()).
  LiveRun(const ScenarioOptions& o, const LatConfig& c, std::int64_t expected_messages, bool pingpong, int flows);
  ~LiveRun();
  /// The Exports to run with: `given` with the probe attached, or one of its own; `given`
  /// unchanged when nothing is watched.
  Exports* exports(Exports* given);
  /// Ends the progress line (call before printing results).
  void finish();
  bool recording() const { return record_; }
  std::string timeseries_csv() const;

 private:
  bool record_ = false;
  std::vector<std::string> watch_;
  std::vector<Sample> samples_;
  std::optional<ProgressLine> progress_;
  std::optional<SampleProbe> probe_;
  std::unique_ptr<Exports> own_;
  Exports* attached_ = nullptr;  // the Exports the probe is set on (reset when this ends)
};

/// Progress on stderr for this command: stderr is a terminal and no --quiet.
bool progress_wanted(const ScenarioOptions& o);

}  // namespace rdmasim::cli
