#include "cc/dcqcn.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace rdmasim {

Dcqcn::Dcqcn(const DcqcnParams& p, Rate line)
    : p_(p), line_(static_cast<double>(line.bits_per_sec())), rc_(line_), rt_(line_) {}

void Dcqcn::on_cnp(Time now) {
  advance(now);
  ++cnps_;
  rt_ = rc_;
  rc_ = std::max(rc_ * (1.0 - alpha_ / 2.0), static_cast<double>(p_.min_rate.bits_per_sec()));
  alpha_ = (1.0 - p_.g) * alpha_ + p_.g;
  active_ = true;
  t_count_ = b_count_ = 0;
  bytes_ = 0;
  next_alpha_ = now + p_.alpha_timer;
  next_rate_ = now + p_.rate_timer;
}

void Dcqcn::on_sent(std::int64_t bytes, Time now) {
  advance(now);
  if (!active_) return;
  bytes_ += bytes;
  while (active_ && bytes_ >= p_.byte_counter.count()) {
    bytes_ -= p_.byte_counter.count();
    ++b_count_;
    increase();
  }
}

double Dcqcn::rate_bps(Time now) {
  advance(now);
  return rc_;
}

void Dcqcn::advance(Time now) {
  if (!active_) {
    // Unthrottled: only alpha keeps decaying, every K since the last CNP (closed form).
    if (now >= next_alpha_) {
      const std::int64_t n = (now - next_alpha_).count_ps() / p_.alpha_timer.count_ps() + 1;
      alpha_ *= std::pow(1.0 - p_.g, static_cast<double>(n));
      next_alpha_ += Time::ps(n * p_.alpha_timer.count_ps());
    }
    return;
  }
  while (active_) {
    const Time next = std::min(next_alpha_, next_rate_);
    if (next > now) return;
    if (next_alpha_ <= next_rate_) {
      alpha_ *= 1.0 - p_.g;
      next_alpha_ += p_.alpha_timer;
    } else {
      ++t_count_;
      next_rate_ += p_.rate_timer;
      increase();
    }
  }
}

void Dcqcn::increase() {
  ++increases_;
  const int f = p_.fast_recovery;
  if (std::max(t_count_, b_count_) < f) {
    // fast recovery: back towards the rate before the cut
  } else if (std::min(t_count_, b_count_) > f) {
    rt_ += static_cast<double>(std::min(t_count_, b_count_) - f) * static_cast<double>(p_.rate_hai.bits_per_sec());
  } else {
    rt_ += static_cast<double>(p_.rate_ai.bits_per_sec());
  }
  rt_ = std::min(rt_, line_);
  rc_ = (rt_ + rc_) / 2.0;
  // Within 1 bit/s of line rate with the target there: unthrottled, the timers stop.
  if (rt_ >= line_ && line_ - rc_ < 1.0) {
    rc_ = line_;
    active_ = false;
  }
}

RateControlSpec dcqcn_rate_control() {
  return {"dcqcn",
          "DCQCN: CNPs on ECN marks, reaction-point rate decrease and recovery",
          "dcqcn.",
          "Zhu et al., Congestion Control for Large-Scale RDMA Deployments, SIGCOMM 2015",
          /*cnps=*/true,
          [](const Profile& p, Rate line) { return std::make_unique<Dcqcn>(p.dcqcn, line); }};
}

}  // namespace rdmasim
