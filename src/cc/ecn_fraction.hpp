// EcnFraction: an ECN-fraction (DCTCP-style) rate control for one RDMA QP — the DCTCP mode of
// the HPCC simulator's RoCE NIC (alibaba-edu/High-Precision-Congestion-Control,
// rdma-hw.cc HandleAckDctcp; Alizadeh et al., "Data Center TCP", SIGCOMM 2010), rate-based.
//
// Per ACK: the marked packets it reports are added to a count. Once per window (when an ACK
// passes the PSN that was next to send at the last update) alpha <- (1-g) alpha + g F, F the
// marked count over the window's packets (capped at 1); the next window is the packets in
// flight then, plus one. An ACK reporting marks outside congestion-window reduction cuts the
// rate to max(min_rate, R (1 - alpha/2)) and starts a reduction that lasts until an ACK passes
// the PSN that was next to send at the cut. Each window update outside reduction adds rate_ai,
// up to the line rate. Alpha starts at 1; the rate at line rate.
//
// Its spec asks the RC for an ACK per packet (RateControlSpec::per_packet_acks), each with its
// packet's mark, as the HPCC simulator acknowledges; an ACK that covers several packets (a
// lost ACK's successor) adds all their marks in one step.
// Invariant: min_rate <= rate <= line after every ACK; 0 <= alpha <= 1.
#pragma once

#include <cstdint>

#include "rdmasim/profile.hpp"
#include "rdmasim/rate_control.hpp"

namespace rdmasim {

class EcnFraction final : public RateControl {
 public:
  EcnFraction(const EcnFractionParams& p, Rate line);

  void on_sent(std::int64_t, Time) override {}
  void on_cnp(Time) override {}
  void on_ack(const AckSignal& a) override;
  double rate_bps(Time) override { return rate_; }
  double current_bps() const override { return rate_; }

  double alpha() const { return alpha_; }
  bool reducing() const { return reducing_; }
  std::uint64_t cuts() const { return cuts_; }

 private:
  EcnFractionParams p_;
  double line_, rate_;
  double alpha_ = 1.0;
  bool started_ = false;     // the first window has been set
  std::uint32_t update_psn_ = 0;  // the next window update comes with an ACK past this PSN
  std::int64_t marked_ = 0;  // marked packets reported in the current window
  std::int64_t window_ = 0;  // its size in packets
  bool reducing_ = false;
  std::uint32_t reduce_until_ = 0;  // reduction ends with an ACK past this PSN
  std::uint64_t cuts_ = 0;
};

/// Its registry entry (`--cc ecn-fraction`), parameters ecn_fraction.*.
RateControlSpec ecn_fraction_rate_control();

}  // namespace rdmasim
