// Swift: delay-based AIMD on a congestion window for one RDMA QP (Kumar et al., "Swift: Delay
// is Simple and Effective for Congestion Control in the Datacenter", SIGCOMM 2020, Algorithm 1),
// run by rdmasim's rate-paced RC as a rate: rate = cwnd x packet bytes / rtt.
//
// On each ACK with an RTT sample (delay = that round trip):
//   delay < target:  cwnd += ai x packets / cwnd   (cwnd >= 1; else cwnd += ai x packets)
//   otherwise, at most once per round trip (the last decrease at least one RTT ago):
//                    cwnd *= max(1 - beta (delay - target) / delay, 1 - max_mdf)
// within [min_cwnd, the window that paces at line rate]. The packet size is the mean wire
// size of the QP's sent packets. Before the first sample the QP sends at line rate. The
// target is fixed (swift.target): the paper's flow- and hop-based scaling of the target is not
// modelled. ACKs without a sample (a resent message) change nothing.
// Invariant: min_rate <= rate <= line after every ACK.
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

  double cwnd() const { return cwnd_; }
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
