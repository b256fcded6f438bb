#include "cc/swift.hpp"

#include <algorithm>
#include <memory>

namespace rdmasim {

Swift::Swift(const SwiftParams& p, Rate line) : p_(p), line_(static_cast<double>(line.bits_per_sec())), rate_(line_) {}

double Swift::packet_bits() const {
  return sent_packets_ > 0 ? 8.0 * static_cast<double>(sent_bytes_) / static_cast<double>(sent_packets_) : 8.0 * 4096;
}

void Swift::on_ack(const AckSignal& a) {
  if (a.rtt <= Time::zero()) return;
  const double rtt_s = static_cast<double>(a.rtt.count_ps()) / 1e12;
  const double bits = packet_bits();
  const double line_cwnd = line_ * rtt_s / bits;  // the window that paces at line rate
  if (cwnd_ <= 0) cwnd_ = line_cwnd;              // the first sample: the QP was at line rate
  if (a.rtt < p_.target) {
    const double n = static_cast<double>(std::max(a.packets, 1));
    cwnd_ += cwnd_ >= 1 ? p_.ai * n / cwnd_ : p_.ai * n;
  } else if (last_decrease_ < Time::zero() || a.now - last_decrease_ >= a.rtt) {
    const double delay = static_cast<double>(a.rtt.count_ps());
    const double over = (delay - static_cast<double>(p_.target.count_ps())) / delay;
    cwnd_ *= std::max(1 - p_.beta * over, 1 - p_.max_mdf);
    last_decrease_ = a.now;
    ++decreases_;
  }
  cwnd_ = std::clamp(cwnd_, p_.min_cwnd, std::max(p_.min_cwnd, line_cwnd));
  rate_ = std::clamp(cwnd_ * bits / rtt_s, static_cast<double>(p_.min_rate.bits_per_sec()), line_);
}

RateControlSpec swift_rate_control() {
  return {"swift",
          "Swift: delay below a target grows the window additively, above it cuts the window (at most once per "
          "round trip) in proportion to the excess; paced as window / RTT",
          "swift.",
          "Kumar et al., SIGCOMM 2020 (Algorithm 1)",
          /*cnps=*/false,
          [](const Profile& p, Rate line) { return std::make_unique<Swift>(p.swift, line); }};
}

}  // namespace rdmasim
