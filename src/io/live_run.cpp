#include "io/live_run.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <unistd.h>

#include "io/csv_export.hpp"

namespace rdmasim {

bool progress_wanted(const ScenarioOptions& o) { return !o.quiet && !o.json && ::isatty(STDERR_FILENO) == 1; }

LiveRun::LiveRun(const ScenarioOptions& o, std::int64_t expected_messages) : record_(!o.csv.empty()) {
  if (!record_ && !o.watch.empty()) throw std::invalid_argument("--watch: the watched ports go to timeseries.csv: give --csv DIR");
  if (progress_wanted(o)) progress_.emplace(stderr, ProgressLine::Options{1.0, 0.1, expected_messages});
  options_.watch = o.watch;
  if (!o.sample_interval.empty()) {
    try {
      options_.interval = parse_time(o.sample_interval);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--sample-interval: ") + e.what());
    }
    if (options_.interval <= Time::zero())
      throw std::invalid_argument("--sample-interval: must be > 0, got " + o.sample_interval);
    options_.target_samples = INT_MAX;  // fixed slices
  }
}

void LiveRun::on_sample(Sample&& s) {
  if (progress_) progress_->update(s.t_us, s.total_messages, s.events);
  if (record_) samples_.push_back(std::move(s));
}

void LiveRun::finish() {
  if (progress_) progress_->finish();
}

std::string LiveRun::timeseries_csv() const {
  for (const std::string& w : options_.watch)
    if (std::find(port_names_.begin(), port_names_.end(), w) == port_names_.end())
      throw std::invalid_argument("--watch: no fabric port \"" + w + "\" (ports are named like edge0.0->h1)");
  return rdmasim::timeseries_csv(samples_, port_names_, options_.watch);
}

}  // namespace rdmasim
