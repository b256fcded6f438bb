#include "cc/swift.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace rdmasim {

Swift::Swift(const SwiftParams& p, Rate line) : p_(p), line_(static_cast<double>(line.bits_per_sec())), rate_(line_) {}

double Swift::packet_bits() const {
  return sent_packets_ > 0 ? 8.0 * static_cast<double>(sent_bytes_) / static_cast<double>(sent_packets_) : 8.0 * 4096;
}

Time Swift::target(double cwnd, int hops) const {
  const double range = static_cast<double>(p_.fs_range.count_ps());
  double fs = 0;
  if (range > 0 && cwnd > 0) {
    const double a = range / (1 / std::sqrt(p_.fs_min_cwnd) - 1 / std::sqrt(p_.fs_max_cwnd));
    fs = std::clamp(a / std::sqrt(cwnd) - a / std::sqrt(p_.fs_max_cwnd), 0.0, range);
  }
  return p_.target + p_.hop_scale * std::max(hops, 0) + Time::ps(static_cast<std::int64_t>(fs));
}

std::int64_t Swift::window_bytes() const {
  if (!p_.window_on || cwnd_ <= 0) return 0;
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(cwnd_ * packet_bits() / 8));
}

void Swift::on_ack(const AckSignal& a) {
  if (a.rtt <= Time::zero()) return;
  const double rtt_s = static_cast<double>(a.rtt.count_ps()) / 1e12;
  const double bits = packet_bits();
  const double line_cwnd = line_ * rtt_s / bits;  // the window that paces at line rate
  if (cwnd_ <= 0) cwnd_ = line_cwnd;              // the first sample: the QP was at line rate
  const Time target = this->target(cwnd_, a.hops);
  if (a.rtt < target) {
    const double n = static_cast<double>(std::max(a.packets, 1));
    cwnd_ += cwnd_ >= 1 ? p_.ai * n / cwnd_ : p_.ai * n;
  } else if (last_decrease_ < Time::zero() || a.now - last_decrease_ >= a.rtt) {
    const double delay = static_cast<double>(a.rtt.count_ps());
    const double over = (delay - static_cast<double>(target.count_ps())) / delay;
    cwnd_ *= std::max(1 - p_.beta * over, 1 - p_.max_mdf);
    last_decrease_ = a.now;
    ++decreases_;
  }
  cwnd_ = std::clamp(cwnd_, p_.min_cwnd, std::max(p_.min_cwnd, line_cwnd));
  rate_ = std::clamp(cwnd_ * bits / rtt_s, static_cast<double>(p_.min_rate.bits_per_sec()), line_);
}

RateControlSpec swift_rate_control() {
  RateControlSpec s{"swift",
          "Swift: delay below a target grows the window additively, above it cuts the window (at most once per "
          "round trip) in proportion to the excess; paced as window / RTT",
          "swift.",
          "Kumar et al., SIGCOMM 2020 (Algorithm 1, target scaling)",
          /*cnps=*/false,
          [](const Profile& p, Rate line) { return std::make_unique<Swift>(p.swift, line); }};
  s.per_packet_acks = true;  // a delay sample per packet, and ACKs within a message for the window
  return s;
}

}  // namespace rdmasim
