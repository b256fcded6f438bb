#include "workload/sample_probe.hpp"

#include <algorithm>
#include <cstdio>

#include "sim/fabric.hpp"

namespace rdmasim {
namespace {

constexpr std::size_t kLatencyCap = 1 << 16;

double percentile_us(std::vector<std::int64_t>& v, double q) {
  const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return static_cast<double>(v[k]) / 1e6;
}

}  // namespace

Time first_slice(const LatConfig& c, bool pingpong, int flows, int target_samples) {
  const double wire_us = static_cast<double>(c.size.count()) * 8 / static_cast<double>(c.profile.link.rate.bits_per_sec()) * 1e6;
  const double per_message_us = pingpong ? 2.0 + 2 * wire_us : wire_us;
  const double us = std::max(0.1, per_message_us * std::max(1, flows) * static_cast<double>(c.iters) / std::max(1, target_samples));
  return Time::ps(static_cast<std::int64_t>(us * 1e6));
}

SampleProbe::SampleProbe(ProbeOptions o) : o_(std::move(o)), interval_(o_.interval) {
  if (interval_ <= Time::zero()) interval_ = Time::us(1);
  if (o_.target_samples < 1) o_.target_samples = 1;
  lat_ps_.reserve(kLatencyCap);
}

void SampleProbe::attach(SimWorld& w) {
  w_ = &w;
  start_ = last_end_ = last_message_ = w.sched.now();
  w.sched.set_slice_hook(this, interval_);
  w.ctx.observer = this;
  if (!w.fabric) return;
  const Fabric& f = *w.fabric;
  const int n = f.port_count();
  prev_.assign(static_cast<std::size_t>(n), PortPrev{});
  rate_bps_.resize(static_cast<std::size_t>(n));
  port_names_.resize(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) {
    rate_bps_[static_cast<std::size_t>(p)] =
        static_cast<double>(f.topology().cables()[static_cast<std::size_t>(p / 2)].rate.bits_per_sec());
    port_names_[static_cast<std::size_t>(p)] = f.port_name(p);
    const PortCounters& c = f.counters(p);
    prev_[static_cast<std::size_t>(p)] = PortPrev{c.tx_bytes, c.pause_tx, c.paused, c.queue_byte_ps};
  }
  first_ = prev_;
  for (const std::string& name : o_.watch) {
    const auto it = std::find(port_names_.begin(), port_names_.end(), name);
    watch_ports_.push_back(it == port_names_.end() ? -1 : static_cast<int>(it - port_names_.begin()));
  }
}

void SampleProbe::detach(SimWorld& w) {
  w.sched.set_slice_hook(nullptr, Time::zero());
  if (w.ctx.observer == this) w.ctx.observer = nullptr;
  if (w.fabric) {
    const double span_s = (last_message_ - start_).to_us() / 1e6;
    run_util_.assign(prev_.size(), 0.0f);
    for (std::size_t p = 0; p < prev_.size(); ++p) {
      const double bits = static_cast<double>(w.fabric->counters(static_cast<int>(p)).tx_bytes - first_[p].tx_bytes) * 8;
      if (span_s > 0 && rate_bps_[p] > 0) run_util_[p] = static_cast<float>(bits / (rate_bps_[p] * span_s));
    }
  }
  w_ = nullptr;
}

void SampleProbe::message_done(const Message& m, Time now) {
  ++slice_messages_;
  last_message_ = now;
  slice_bytes_ += m.size.count();
  if (lat_ps_.size() < kLatencyCap) lat_ps_.push_back((now - m.posted).count_ps());
}

void SampleProbe::on_slice(Time end) {
  if (o_.cancel && o_.cancel->load(std::memory_order_relaxed)) throw RunStopped("cancelled", "cancelled");
  const std::uint64_t events = w_->sched.executed();
  if (o_.max_events && events > o_.max_events)
    throw RunStopped("limits.events", "the run passed the limit of " + std::to_string(o_.max_events) + " events");
  if (o_.max_sim_time > Time::zero() && end - start_ > o_.max_sim_time) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", o_.max_sim_time.to_us());
    throw RunStopped("limits.sim_time_us", std::string("the run passed the limit of ") + limit + " us of simulated time");
  }
  Sample s;
  s.t_us = (end - start_).to_us();
  s.dt_us = (end - last_end_).to_us();
  const double dt_s = s.dt_us / 1e6;
  s.events = events;
  s.messages = slice_messages_;
  total_messages_ += slice_messages_;
  s.total_messages = total_messages_;
  s.gbps = dt_s > 0 ? static_cast<double>(slice_bytes_) * 8 / dt_s / 1e9 : 0;
  if (!lat_ps_.empty()) {
    s.max_us = static_cast<double>(*std::max_element(lat_ps_.begin(), lat_ps_.end())) / 1e6;
    s.p99_us = percentile_us(lat_ps_, 0.99);
    s.p50_us = percentile_us(lat_ps_, 0.50);
  }
  if (w_->fabric) {
    const Fabric& f = *w_->fabric;
    const double dt_ps = static_cast<double>((end - last_end_).count_ps());
    std::vector<double> queue(prev_.size(), 0.0);
    s.utilisation.resize(prev_.size());
    for (std::size_t p = 0; p < prev_.size(); ++p) {
      const PortCounters& c = f.counters(static_cast<int>(p));
      PortPrev& q = prev_[p];
      s.pause_frames += c.pause_tx - q.pause_tx;
      s.paused_us += (c.paused - q.paused).to_us();
      queue[p] = dt_ps > 0 ? (c.queue_byte_ps - q.queue_byte_ps) / dt_ps : 0;
      if (queue[p] > s.queue_bytes) s.queue_bytes = queue[p], s.queue_port = static_cast<int>(p);
      s.utilisation[p] = dt_s > 0 && rate_bps_[p] > 0
                             ? static_cast<float>(static_cast<double>(c.tx_bytes - q.tx_bytes) * 8 / (rate_bps_[p] * dt_s))
                             : 0.0f;
      for (std::size_t i = 0; i < watch_ports_.size(); ++i)
        if (watch_ports_[i] == static_cast<int>(p)) {
          s.watch_queue.resize(watch_ports_.size());
          s.watch_pauses.resize(watch_ports_.size());
          s.watch_queue[i] = queue[p];
          s.watch_pauses[i] = c.pause_tx - q.pause_tx;
        }
      q = PortPrev{c.tx_bytes, c.pause_tx, c.paused, c.queue_byte_ps};
    }
  }
  slice_messages_ = 0;
  slice_bytes_ = 0;
  lat_ps_.clear();
  last_end_ = end;
  if (++samples_ % o_.target_samples == 0) {
    interval_ = interval_ * 2;
    w_->sched.set_slice_hook(this, interval_);
  }
  if (o_.sink) o_.sink(std::move(s));
}

}  // namespace rdmasim
