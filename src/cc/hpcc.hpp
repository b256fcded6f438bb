// Hpcc: HPCC's rate control for one RDMA QP from in-band network telemetry (Li et al., "HPCC:
// High Precision Congestion Control", SIGCOMM 2019), as the HPCC simulator's RoCE NIC runs it
// with one rate per QP (alibaba-edu/High-Precision-Congestion-Control, rdma-hw.cc
// UpdateRateHp, MULTI_RATE 0, FAST_REACT 1).
//
// Every switch egress stamps the data packet with (ts, tx_bytes, qlen, B) as it leaves; the ACK
// echoes them. Per ACK, for each hop against the same hop of the previous ACK:
//   u_i = (tx_bytes delta x 8 / ts delta) / B + min(qlen, previous qlen) x 8 / (B T)
// U is the largest u_i, tau its ts delta (at most T); the smoothed utilisation
//   u <- (u (T - tau) + U tau) / T.
// With k = u / eta: if k >= 1 or the increase stage has reached max_stage, R = Rc / k + R_AI
// (stage 0), else R = Rc + R_AI (stage + 1); R within [min_rate, line]. The QP paces at R at
// once (fast reaction); Rc and the stage take R only on the first ACK of a new round trip (past
// the PSN that was next to send at the last such update). The first ACK only stores the hops.
// T is hpcc.base_rtt, or (0) the smallest RTT the QP has sampled. The window (hpcc.window_on,
// the HPCC simulator's HAS_WIN and VAR_WIN) caps the bytes in flight at W = W_init x R / line,
// W_init = hpcc.window or (0) line x T: the paper's W = R x T; no cap before T is known.
//
// The RC acknowledges every packet of a telemetry control, as the HPCC simulator does, and each
// ACK echoes its own packet's hops.
// Invariant: min_rate <= rate <= line after every ACK.
#pragma once

#include <cstdint>

#include "rdmasim/profile.hpp"
#include "rdmasim/rate_control.hpp"

namespace rdmasim {

class Hpcc final : public RateControl {
 public:
  Hpcc(const HpccParams& p, Rate line);

  void on_sent(std::int64_t, Time) override {}
  void on_cnp(Time) override {}
  void on_ack(const AckSignal& a) override;
  double rate_bps(Time) override { return rate_; }
  double current_bps() const override { return rate_; }
  std::int64_t window_bytes() const override;

  double utilisation() const { return u_; }
  double reference_bps() const { return rc_; }
  int stage() const { return stage_; }
  Time base_rtt() const { return base_rtt_; }

 private:
  HpccParams p_;
  double line_, rate_, rc_;  // the pacing rate R and the reference rate Rc
  double u_ = 0;             // smoothed utilisation
  int stage_ = 0;
  bool started_ = false;
  std::uint32_t update_psn_ = 0;
  Time base_rtt_{};
  PathTelemetry last_{};     // the previous ACK's hops
};

/// Its registry entry (`--cc hpcc`), parameters hpcc.*.
RateControlSpec hpcc_rate_control();

}  // namespace rdmasim
