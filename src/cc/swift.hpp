// Swift: delay-based AIMD on a congestion window for one RDMA QP (Kumar et al., "Swift: Delay
// is Simple and Effective for Congestion Control in the Datacenter", SIGCOMM 2020, Algorithm 1
// and its target scaling), run by rdmasim's RC as a window and a rate: rate = cwnd x packet
// bytes / rtt, and (swift.window_on) at most cwnd x packet bytes unacknowledged.
//
// The target delay grows with the path and shrinks as the window grows (paper, section 3.5):
//   target = base + hops x hop_scale + clamp(a / sqrt(cwnd) + b, 0, fs_range),
//   a = fs_range / (1 / sqrt(fs_min_cwnd) - 1 / sqrt(fs_max_cwnd)), b = -a / sqrt(fs_max_cwnd),
// hops being the switches the ACK crossed (the paper reads them from the TTL); so the full
// fs_range is added at fs_min_cwnd and none at fs_max_cwnd, and many flows sharing a
// bottleneck (each with a small window) tolerate more delay, which evens them out.
// On each ACK with an RTT sample (delay = that round trip):
//   delay < target:  cwnd += ai x packets / cwnd   (cwnd >= 1; else cwnd += ai x packets)
//   otherwise, at most once per round trip (the last decrease at least one RTT ago):
//                    cwnd *= max(1 - beta (delay - target) / delay, 1 - max_mdf)
// within [min_cwnd, the window that paces at line rate]. The packet size is the mean wire
// size of the QP's sent packets. Before the first sample the QP sends at line rate, unbounded.
// Not modelled: the paper's separate endpoint window (host delay against its own target; here
// the one window sees the whole round trip). ACKs without a sample (a resent message) change
// nothing. Invariant: min_rate <= rate <= line after every ACK.
#pragma once

#include <cstdint>

#include "rdmasim/profile.hpp"
#include "rdmasim/rate_control.hpp"

namespace rdmasim {

class Swift final : public RateControl {
 public:
  Swift(const SwiftParams& p, Rate line);

  void on_sent(std::int64_t wire_bytes, Time) override {
    sent_bytes_ += wire_bytes;
    ++sent_packets_;
  }
  void on_cnp(Time) override {}
  void on_ack(const AckSignal& a) override;
  double rate_bps(Time) override { return rate_; }
  double current_bps() const override { return rate_; }
  std::int64_t window_bytes() const override;

  double cwnd() const { return cwnd_; }
  /// The target delay for a window of `cwnd` packets on a path of `hops` switches.
  Time target(double cwnd, int hops) const;
  std::uint64_t decreases() const { return decreases_; }

 private:
  double packet_bits() const;

  SwiftParams p_;
  double line_, rate_;
  double cwnd_ = 0;  // packets; 0 until the first sample
  Time last_decrease_ = Time::ps(-1);
  std::int64_t sent_bytes_ = 0, sent_packets_ = 0;
  std::uint64_t decreases_ = 0;
};

/// Its registry entry (`--cc swift`), parameters swift.*.
RateControlSpec swift_rate_control();

}  // namespace rdmasim
