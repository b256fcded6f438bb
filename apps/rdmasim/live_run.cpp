#include "live_run.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <unistd.h>

#include "io/csv_export.hpp"

namespace rdmasim::cli {

bool progress_wanted(const ScenarioOptions& o) { return !o.quiet && !o.json && ::isatty(STDERR_FILENO) == 1; }

LiveRun::LiveRun(const ScenarioOptions& o, const LatConfig& c, std::int64_t expected_messages, bool pingpong, int flows)
    : record_(!o.csv.empty()), watch_(o.watch) {
  if (!record_ && !watch_.empty()) throw std::invalid_argument("--watch: the watched ports go to timeseries.csv: give --csv DIR");
  const bool progress = progress_wanted(o);
  if (!record_ && !progress) return;
  if (progress) progress_.emplace(stderr, ProgressLine::Options{1.0, 0.1, expected_messages});
  ProbeOptions po;
  po.watch = watch_;
  if (!o.sample_interval.empty()) {
    try {
      po.interval = parse_time(o.sample_interval);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--sample-interval: ") + e.what());
    }
    if (po.interval <= Time::zero()) throw std::invalid_argument("--sample-interval: must be > 0, got " + o.sample_interval);
    po.target_samples = INT_MAX;  // fixed slices
  } else {
    po.target_samples = 200;
    po.interval = first_slice(c, pingpong, flows, po.target_samples);
  }
  po.sink = [this](Sample&& s) {
    if (progress_) progress_->update(s.t_us, s.total_messages, s.events);
    if (record_) samples_.push_back(std::move(s));
  };
  probe_.emplace(po);
}

LiveRun::~LiveRun() {
  finish();
  if (attached_) attached_->set_probe(nullptr);
}

Exports* LiveRun::exports(Exports* given) {
  if (!probe_) return given;
  if (!given) {
    own_ = std::make_unique<Exports>(ExportOptions{});
    given = own_.get();
  }
  given->set_probe(&*probe_);
  attached_ = given;
  return given;
}

void LiveRun::finish() {
  if (progress_) progress_->finish();
}

std::string LiveRun::timeseries_csv() const {
  for (std::size_t i = 0; i < watch_.size(); ++i) {
    const auto& names = probe_->port_names();
    if (std::find(names.begin(), names.end(), watch_[i]) == names.end())
      throw std::invalid_argument("--watch: no fabric port \"" + watch_[i] + "\" (ports are named like edge0.0->h1)");
  }
  return rdmasim::timeseries_csv(samples_, probe_->port_names(), watch_);
}

}  // namespace rdmasim::cli
