// LiveRun: what the command line watches while one run is simulated — the samples behind `--csv`'s
// timeseries.csv and the one-line progress on stderr (io/progress_line.hpp) when stderr is a
// terminal and --quiet is not given. It is the run's RunObserver (rdmasim/observer.hpp), handed
// to rdmasim::run() only when it has something to do (observer()), so a run without either is
// exactly the unobserved one. Slices: `--sample-interval` fixes them; otherwise run() starts
// them at first_slice() and doubles them every 200 samples, so a long run's table stays
// O(200 x log(length)) rows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/scenario.hpp"
#include "io/progress_line.hpp"

namespace rdmasim {

class LiveRun final : public RunObserver {
 public:
  /// `expected_messages`: what the progress line counts towards (0: unknown).
  LiveRun(const ScenarioOptions& o, std::int64_t expected_messages);
  ~LiveRun() { finish(); }
  /// This, when there is something to watch; else null (the run is not observed).
  RunObserver* observer() { return record_ || progress_ ? this : nullptr; }
  /// Ends the progress line (call before printing results).
  void finish();
  std::string timeseries_csv() const;

  ObserveOptions options() const override { return options_; }
  void on_sample(Sample&& s) override;
  void on_end(const RunEnd& e) override { port_names_ = e.port_names; }

 private:
  bool record_ = false;
  ObserveOptions options_;
  std::vector<Sample> samples_;
  std::vector<std::string> port_names_;
  std::optional<ProgressLine> progress_;
};

/// Progress on stderr for this command: stderr is a terminal and no --quiet.
bool progress_wanted(const ScenarioOptions& o);

}  // namespace rdmasim
