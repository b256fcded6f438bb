#include "cc/ecn_fraction.hpp"

#include <algorithm>
#include <memory>

namespace rdmasim {

EcnFraction::EcnFraction(const EcnFractionParams& p, Rate line)
    : p_(p), line_(static_cast<double>(line.bits_per_sec())), rate_(line_) {}

void EcnFraction::on_ack(const AckSignal& a) {
  bool new_window = false;
  marked_ += a.ce_marked;
  if (!started_ || a.acked_psn > update_psn_) {
    new_window = true;
    if (!started_) {
      started_ = true;
      window_ = static_cast<std::int64_t>(a.next_psn) + 1;
    } else {
      const double f = std::min(1.0, static_cast<double>(marked_) / static_cast<double>(window_));
      alpha_ = (1.0 - p_.g) * alpha_ + p_.g * f;
      marked_ = 0;
      window_ = static_cast<std::int64_t>(a.next_psn - a.acked_psn) + 1;
    }
    update_psn_ = a.next_psn;
  }
  if (reducing_ && a.acked_psn > reduce_until_) reducing_ = false;
  if (a.ce_marked > 0 && !reducing_) {
    rate_ = std::max(static_cast<double>(p_.min_rate.bits_per_sec()), rate_ * (1.0 - alpha_ / 2.0));
    reducing_ = true;
    reduce_until_ = a.next_psn;
    ++cuts_;
  }
  if (!reducing_ && new_window) rate_ = std::min(line_, rate_ + static_cast<double>(p_.rate_ai.bits_per_sec()));
}

RateControlSpec ecn_fraction_rate_control() {
  RateControlSpec s{"ecn-fraction",
          "DCTCP-style: alpha = EWMA of the marked fraction per window, rate cut by alpha/2, +rate_ai per window",
          "ecn_fraction.",
          "the HPCC simulator's DCTCP mode for RoCE (rdma-hw.cc HandleAckDctcp); Alizadeh et al., SIGCOMM 2010",
          /*cnps=*/false,
          [](const Profile& p, Rate line) { return std::make_unique<EcnFraction>(p.ecn_fraction, line); }};
  s.per_packet_acks = true;  // as the HPCC simulator acknowledges every packet, each with its RTT and mark
  return s;
}

}  // namespace rdmasim
