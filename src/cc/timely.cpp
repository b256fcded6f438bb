#include "cc/timely.hpp"

#include <algorithm>
#include <memory>

namespace rdmasim {

Timely::Timely(const TimelyParams& p, Rate line) : p_(p), line_(static_cast<double>(line.bits_per_sec())), rate_(line_) {}

void Timely::on_ack(const AckSignal& a) {
  if (a.rtt < Time::zero()) return;
  if (started_ && a.acked_psn <= update_psn_) return;  // not a new round trip yet
  if (started_) {
    ++updates_;
    const double rtt = static_cast<double>(a.rtt.count_ps());
    rtt_diff_ = (1 - p_.alpha) * rtt_diff_ + p_.alpha * (rtt - static_cast<double>(prev_rtt_.count_ps()));
    const double gradient = rtt_diff_ / static_cast<double>(p_.min_rtt.count_ps());
    bool increase = false;
    double c = 0;
    if (a.rtt < p_.t_low) {
      increase = true;
    } else if (a.rtt > p_.t_high) {
      c = 1 - p_.beta * (1 - static_cast<double>(p_.t_high.count_ps()) / rtt);
    } else if (gradient <= 0) {
      increase = true;
    } else {
      c = std::max(0.0, 1 - p_.beta * gradient);
    }
    if (increase) {
      const Rate step = inc_stage_ < 5 ? p_.rate_ai : p_.rate_hai;
      rate_ = std::min(line_, rate_ + static_cast<double>(step.bits_per_sec()));
      ++inc_stage_;
    } else {
      rate_ = std::max(static_cast<double>(p_.min_rate.bits_per_sec()), rate_ * c);
      inc_stage_ = 0;
    }
  }
  started_ = true;
  update_psn_ = a.next_psn;
  prev_rtt_ = a.rtt;
}

RateControlSpec timely_rate_control() {
  RateControlSpec s{"timely",
          "TIMELY: the RTT gradient (smoothed RTT difference / min_rtt) raises or cuts the rate once per round trip",
          "timely.",
          "Mittal et al., SIGCOMM 2015; the HPCC simulator's rdma-hw.cc UpdateRateTimely",
          /*cnps=*/false,
          [](const Profile& p, Rate line) { return std::make_unique<Timely>(p.timely, line); }};
  s.per_packet_acks = true;  // as the HPCC simulator acknowledges every packet, each with its RTT and mark
  return s;
}

}  // namespace rdmasim
