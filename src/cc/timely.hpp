// Timely: TIMELY's RTT-gradient rate control for one RDMA QP (Mittal et al., "TIMELY:
// RTT-based Congestion Control for the Datacenter", SIGCOMM 2015), as the HPCC simulator's RoCE
// NIC runs it (alibaba-edu/High-Precision-Congestion-Control, rdma-hw.cc UpdateRateTimely).
//
// Once per round trip (an ACK past the PSN that was next to send at the last update) with that
// ACK's RTT sample: rtt_diff <- (1 - alpha) rtt_diff + alpha (rtt - prev_rtt), gradient =
// rtt_diff / min_rtt; then
//   rtt < t_low:        rate += delta (rate_hai after 5 increases in a row)
//   rtt > t_high:       rate *= 1 - beta (1 - t_high / rtt)
//   gradient <= 0:      rate += delta (the same hyper-active rule)
//   otherwise:          rate *= max(0, 1 - beta gradient)
// within [min_rate, line]. The first sample only sets prev_rtt. ACKs between updates and ACKs
// of resent messages (no RTT sample) change nothing.
//
// Its spec asks the RC for an ACK per packet, as the HPCC simulator acknowledges: the sample is
// that packet's round trip (TIMELY's completion event of a segment, here of one packet).
// Invariant: min_rate <= rate <= line after every ACK.
#pragma once

#include <cstdint>

#include "rdmasim/profile.hpp"
#include "rdmasim/rate_control.hpp"

namespace rdmasim {

class Timely final : public RateControl {
 public:
  Timely(const TimelyParams& p, Rate line);

  void on_sent(std::int64_t, Time) override {}
  void on_cnp(Time) override {}
  void on_ack(const AckSignal& a) override;
  double rate_bps(Time) override { return rate_; }
  double current_bps() const override { return rate_; }

  double rtt_diff_ps() const { return rtt_diff_; }
  int increases_in_a_row() const { return inc_stage_; }
  std::uint64_t updates() const { return updates_; }

 private:
  TimelyParams p_;
  double line_, rate_;
  bool started_ = false;
  std::uint32_t update_psn_ = 0;  // the next update comes with an ACK past this PSN
  Time prev_rtt_{};
  double rtt_diff_ = 0;           // smoothed RTT difference, picoseconds
  int inc_stage_ = 0;             // increases in a row
  std::uint64_t updates_ = 0;
};

/// Its registry entry (`--cc timely`), parameters timely.*.
RateControlSpec timely_rate_control();

}  // namespace rdmasim
