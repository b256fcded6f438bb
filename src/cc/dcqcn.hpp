// Dcqcn: the reaction point of DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA
// Deployments", SIGCOMM'15) for one QP — the sender's rate after congestion notifications.
//
// On a CNP: target rate Rt <- Rc, current rate Rc <- Rc (1 - alpha/2), alpha <- (1-g) alpha + g,
// and the increase timer and byte counter restart. Without CNPs alpha decays by (1-g) every
// `alpha_timer`, and each expiry of the rate timer T or each `byte_counter` bytes sent is one
// increase step: fast recovery (Rc <- (Rt + Rc)/2) while both counts are below F, additive
// increase (Rt += R_AI) once one of them reaches F, hyper increase (Rt += i R_HAI) once both
// exceed it. Rates stay within [min_rate, line rate]; at line rate with Rt at line rate the
// flow is unthrottled and the timers stop.
//
// Alpha starts at 1 and decays only after the first CNP. Timers are evaluated lazily: every query advances the state through the timer expiries up
// to `now` in time order, so the machine schedules no events and is exact at every query.
// Invariant: min_rate <= Rc <= line and Rc <= Rt <= line after every step.
#pragma once

#include <cstdint>

#include "rdmasim/profile.hpp"
#include "rdmasim/rate_control.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

class Dcqcn final : public RateControl {
 public:
  Dcqcn(const DcqcnParams& p, Rate line);

  /// A CNP for this QP reached the sender at `now`.
  void on_cnp(Time now) override;
  /// `bytes` of this QP left the sender at `now` (drives the byte counter).
  void on_sent(std::int64_t bytes, Time now) override;
  /// DCQCN reacts to CNPs only.
  void on_ack(const AckSignal&) override {}
  /// The current rate Rc in bit/s at `now`.
  double rate_bps(Time now) override;
  /// True while the rate is below line rate (the sender paces).
  bool limited(Time now) { return rate_bps(now) < line_; }

  double alpha() const { return alpha_; }
  /// Rc as of the last query or event (without advancing the timers).
  double current_bps() const override { return rc_; }
  double target_bps() const { return rt_; }
  std::uint64_t cnps() const { return cnps_; }
  std::uint64_t increases() const { return increases_; }

 private:
  void advance(Time now);
  void increase();

  DcqcnParams p_;
  double line_;
  double rc_, rt_;
  double alpha_ = 1.0;
  bool active_ = false;  // throttled since a CNP (timers running)
  Time next_alpha_ = Time::max(), next_rate_ = Time::max();
  int t_count_ = 0, b_count_ = 0;
  std::int64_t bytes_ = 0;  // since the last byte-counter step
  std::uint64_t cnps_ = 0, increases_ = 0;
};

/// Its registry entry (`--cc dcqcn`): CNPs from the responder, parameters dcqcn.*.
RateControlSpec dcqcn_rate_control();

}  // namespace rdmasim
