#include "cc/hpcc.hpp"

#include <algorithm>
#include <memory>

namespace rdmasim {

Hpcc::Hpcc(const HpccParams& p, Rate line)
    : p_(p), line_(static_cast<double>(line.bits_per_sec())), rate_(line_), rc_(line_), base_rtt_(p.base_rtt) {}

std::int64_t Hpcc::window_bytes() const {
  if (!p_.window_on) return 0;
  const double w_init = p_.window > Bytes(0) ? static_cast<double>(p_.window.count())
                                             : line_ * static_cast<double>(base_rtt_.count_ps()) / 8e12;
  if (w_init <= 0) return 0;  // T not known yet
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(w_init * rate_ / line_));
}

void Hpcc::on_ack(const AckSignal& a) {
  if (p_.base_rtt == Time::zero() && a.rtt > Time::zero() && (base_rtt_ == Time::zero() || a.rtt < base_rtt_))
    base_rtt_ = a.rtt;
  if (!a.telemetry || base_rtt_ == Time::zero()) return;
  const PathTelemetry& now = *a.telemetry;
  if (!started_ || now.hops != last_.hops) {  // the first ACK (or a new path): only the hops
    started_ = true;
    update_psn_ = a.next_psn;
    last_ = now;
    return;
  }
  const bool new_rtt = a.acked_psn > update_psn_;
  const double t = static_cast<double>(base_rtt_.count_ps());
  double U = 0, tau = 0;
  for (int i = 0; i < now.hops; ++i) {
    const HopTelemetry& h = now.hop[i];
    const HopTelemetry& was = last_.hop[i];
    const double dt = static_cast<double>((h.ts - was.ts).count_ps());
    if (dt <= 0) continue;
    const double b = static_cast<double>(h.rate_bps);
    const double tx_rate = static_cast<double>(h.tx_bytes - was.tx_bytes) * 8 / (dt / 1e12);
    const double u = tx_rate / b + static_cast<double>(std::min(h.qlen, was.qlen)) * 8 / (b * t / 1e12);
    if (u > U) U = u, tau = dt;
  }
  last_ = now;
  if (tau > 0) {
    tau = std::min(tau, t);
    u_ = (u_ * (t - tau) + U * tau) / t;
    const double k = u_ / p_.eta;
    double r = 0;
    int stage = 0;
    if (k >= 1 || stage_ >= p_.max_stage) {
      r = rc_ / k + static_cast<double>(p_.rate_ai.bits_per_sec());
    } else {
      r = rc_ + static_cast<double>(p_.rate_ai.bits_per_sec());
      stage = stage_ + 1;
    }
    rate_ = std::clamp(r, static_cast<double>(p_.min_rate.bits_per_sec()), line_);
    if (new_rtt) {
      rc_ = rate_;
      stage_ = stage;
    }
  }
  if (new_rtt) update_psn_ = a.next_psn;
}

RateControlSpec hpcc_rate_control() {
  RateControlSpec s{"hpcc",
                    "HPCC: the switches' in-band telemetry (queue, tx bytes, link rate per hop) sets the rate to "
                    "keep the most utilised link at eta",
                    "hpcc.",
                    "Li et al., SIGCOMM 2019; the HPCC simulator's rdma-hw.cc UpdateRateHp",
                    /*cnps=*/false,
                    [](const Profile& p, Rate line) { return std::make_unique<Hpcc>(p.hpcc, line); }};
  s.telemetry = true;
  return s;
}

}  // namespace rdmasim
