// The congestion controls' rows of the parameter table (model/param_table.hpp): DCQCN,
// ECN-fraction, TIMELY, Swift and HPCC, each with its paper's values and sources.
#include "model/param_table.hpp"

namespace rdmasim::param_table {

void add_congestion_control_params(std::vector<ParamDef>& r) {
  using P = Profile;
  // dcqcn
  r.push_back(number_param("dcqcn.g", &DcqcnParams::g, &P::dcqcn, "alpha gain g (alpha <- (1-g) alpha + g on a CNP)",
                           "DCQCN paper: 1/256", kGain));
  r.push_back(time_param("dcqcn.cnp_interval", &P::dcqcn, &DcqcnParams::cnp_interval,
                         "notification point: at most one CNP per QP in this interval", "DCQCN paper: N = 50 us", kPositiveDuration));
  r.push_back(time_param("dcqcn.alpha_timer", &P::dcqcn, &DcqcnParams::alpha_timer,
                         "reaction point: alpha decays by (1-g) every K without a CNP", "DCQCN paper: K = 55 us", kPositiveDuration));
  r.push_back(time_param("dcqcn.rate_timer", &P::dcqcn, &DcqcnParams::rate_timer,
                         "reaction point: rate increase timer T", "DCQCN paper: T = 55 us", kPositiveDuration));
  r.push_back(bytes_param("dcqcn.byte_counter", &DcqcnParams::byte_counter, &P::dcqcn,
                          "reaction point: a rate increase every B bytes sent", "DCQCN paper: B = 10 MB", Bounds<Bytes>{Bytes(1), Bytes(16 * kGiB)}));
  r.push_back(int_param("dcqcn.fast_recovery", &DcqcnParams::fast_recovery, &P::dcqcn,
                        "reaction point: F fast-recovery steps before additive increase", "DCQCN paper: F = 5", Bounds<std::int64_t>{0, 64}));
  r.push_back(rate_param("dcqcn.rate_ai", &DcqcnParams::rate_ai, &P::dcqcn, "additive increase step R_AI",
                         "DCQCN paper: 40 Mb/s"));
  r.push_back(rate_param("dcqcn.rate_hai", &DcqcnParams::rate_hai, &P::dcqcn, "hyper increase step R_HAI",
                         "estimate: 10 x R_AI"));
  r.push_back(rate_param("dcqcn.min_rate", &DcqcnParams::min_rate, &P::dcqcn, "floor of the current rate",
                         "ns-3 RdmaHw MinRate 100 Mb/s"));
  r.push_back(int_param("dcqcn.cnp_tc", &DcqcnParams::cnp_tc, &P::dcqcn,
                        "priority (0..7) CNPs travel in: a high, lossy class ahead of the data", "mlx5 cnp_802p_prio 6", kPriority));
  // ecn-fraction
  r.push_back(number_param("ecn_fraction.g", &EcnFractionParams::g, &P::ecn_fraction,
                           "alpha gain g (alpha <- (1-g) alpha + g F once per window)",
                           "HPCC simulator RdmaHw EwmaGain 1/16 (DCTCP paper: 1/16)", kGain));
  r.push_back(rate_param("ecn_fraction.rate_ai", &EcnFractionParams::rate_ai, &P::ecn_fraction,
                         "additive increase per window outside reduction", "HPCC simulator RdmaHw DctcpRateAI 1000 Mb/s"));
  r.push_back(rate_param("ecn_fraction.min_rate", &EcnFractionParams::min_rate, &P::ecn_fraction, "floor of the rate",
                         "HPCC simulator RdmaHw MinRate 100 Mb/s"));
  // timely
  r.push_back(number_param("timely.alpha", &TimelyParams::alpha, &P::timely,
                           "EWMA weight of the newest RTT difference in the gradient",
                           "HPCC simulator RdmaHw TimelyAlpha 0.875", kGain));
  r.push_back(number_param("timely.beta", &TimelyParams::beta, &P::timely, "multiplicative decrease factor",
                           "TIMELY paper (Mittal et al., SIGCOMM 2015) and HPCC simulator TimelyBeta: 0.8", kGain));
  r.push_back(time_param("timely.t_low", &P::timely, &TimelyParams::t_low,
                         "an RTT below this: additive increase, whatever the gradient",
                         "TIMELY paper and HPCC simulator TimelyTLow: 50 us"));
  r.push_back(time_param("timely.t_high", &P::timely, &TimelyParams::t_high,
                         "an RTT above this: decrease by beta (1 - t_high / rtt)",
                         "TIMELY paper and HPCC simulator TimelyTHigh: 500 us"));
  r.push_back(time_param("timely.min_rtt", &P::timely, &TimelyParams::min_rtt,
                         "the gradient is the smoothed RTT difference over this",
                         "TIMELY paper and HPCC simulator TimelyMinRtt: 20 us", kPositiveDuration));
  r.push_back(rate_param("timely.rate_ai", &TimelyParams::rate_ai, &P::timely, "additive increase step delta",
                         "TIMELY paper: delta = 10 Mb/s"));
  r.push_back(rate_param("timely.rate_hai", &TimelyParams::rate_hai, &P::timely,
                         "increase step after 5 increases in a row (hyper-active increase)",
                         "TIMELY paper: N = 5 x delta"));
  r.push_back(rate_param("timely.min_rate", &TimelyParams::min_rate, &P::timely, "floor of the rate",
                         "HPCC simulator RdmaHw MinRate 100 Mb/s"));
  // swift
  r.push_back(time_param("swift.target", &P::swift, &SwiftParams::target,
                         "base target delay (before hop and flow scaling): below the target the window grows, "
                         "above it the window is cut",
                         "Swift paper (Kumar et al., SIGCOMM 2020), section 3.5: base_target (value an estimate: "
                         "25 us)", kPositiveDuration));
  r.push_back(time_param("swift.hop_scale", &P::swift, &SwiftParams::hop_scale,
                         "target added per switch the ACK crossed (0: no hop scaling)",
                         "Swift paper, section 3.5: h per hop (value an estimate: 1 us)"));
  r.push_back(time_param("swift.fs_range", &P::swift, &SwiftParams::fs_range,
                         "flow scaling: the most target added for a small window, falling as 1/sqrt(cwnd) to 0 at "
                         "swift.fs_max_cwnd (0: no flow scaling)",
                         "Swift paper, section 3.5: fs_range (value an estimate: 25 us)"));
  r.push_back(number_param("swift.fs_min_cwnd", &SwiftParams::fs_min_cwnd, &P::swift,
                           "flow scaling: at or below this window (packets) the whole fs_range is added",
                           "Swift paper, section 3.5: fs_min_cwnd (value an estimate: 0.1)", Interval{0, 1000, true}));
  r.push_back(number_param("swift.fs_max_cwnd", &SwiftParams::fs_max_cwnd, &P::swift,
                           "flow scaling: at or above this window (packets) nothing is added (above fs_min_cwnd)",
                           "Swift paper, section 3.5: fs_max_cwnd (value an estimate: 100)", Interval{0, 1e6, true}));
  r.push_back(bool_param("swift.window_on", &SwiftParams::window_on, &P::swift,
                         "the window caps the bytes in flight (cwnd x the mean packet) besides pacing at cwnd / RTT",
                         "Swift paper: a congestion window, paced when below one packet"));
  r.push_back(number_param("swift.ai", &SwiftParams::ai, &P::swift, "additive increase, packets per round trip",
                           "Swift paper, Algorithm 1: ai (value an estimate: 1 packet)", Interval{0, 100, true}));
  r.push_back(number_param("swift.beta", &SwiftParams::beta, &P::swift,
                           "multiplicative decrease per unit of relative excess delay ((delay - target) / delay)",
                           "Swift paper, Algorithm 1: beta (value an estimate: 0.8)", kGain));
  r.push_back(number_param("swift.max_mdf", &SwiftParams::max_mdf, &P::swift, "largest cut in one decrease",
                           "Swift paper, Algorithm 1: max_mdf (value an estimate: 0.5)", kGain));
  r.push_back(number_param("swift.min_cwnd", &SwiftParams::min_cwnd, &P::swift,
                           "smallest window, packets (below 1 the QP is paced slower than a packet per RTT)",
                           "Swift paper: windows below one packet are paced (value an estimate: 0.01)",
                           Interval{0, 1, true}));
  r.push_back(rate_param("swift.min_rate", &SwiftParams::min_rate, &P::swift, "floor of the rate",
                         "as the other rate controls: 100 Mb/s (the HPCC simulator's MinRate)"));
  // hpcc
  r.push_back(number_param("hpcc.eta", &HpccParams::eta, &P::hpcc, "target utilisation of the most utilised link",
                           "HPCC paper (Li et al., SIGCOMM 2019) and HPCC simulator U_TARGET: 0.95", kGain));
  r.push_back(int_param("hpcc.max_stage", &HpccParams::max_stage, &P::hpcc,
                        "additive increases before the next multiplicative update",
                        "HPCC paper: maxStage 5 (the HPCC simulator's run.py sets MI_THRESH 0)", Bounds<std::int64_t>{0, 1000}));
  r.push_back(rate_param("hpcc.rate_ai", &HpccParams::rate_ai, &P::hpcc, "additive increase R_AI",
                         "HPCC simulator run.py: 10 x bandwidth / 25 Mb/s, 40 Mb/s at 100 Gb/s"));
  r.push_back(rate_param("hpcc.min_rate", &HpccParams::min_rate, &P::hpcc, "floor of the rate",
                         "HPCC simulator RdmaHw MinRate 100 Mb/s"));
  r.push_back(time_param("hpcc.base_rtt", &P::hpcc, &HpccParams::base_rtt,
                         "T, the base round trip the queue term and the smoothing use; 0: the smallest RTT the QP "
                         "sampled (inflated by the queues a flow meets when it starts in a loaded fabric: give the "
                         "fabric's base RTT there)",
                         "HPCC paper: the base RTT of the path (the HPCC simulator computes it per host pair)"));
  r.push_back(bytes_param("hpcc.window", &HpccParams::window, &P::hpcc,
                          "W_init, the window at line rate; 0: line rate x T (one bandwidth-delay product)",
                          "HPCC paper: W_init = B x T; the HPCC simulator's window is its largest BDP (HAS_WIN 1)",
                          Bounds<Bytes>{Bytes(64), Bytes(std::int64_t{1} << 30), true}));
  r.push_back(bool_param("hpcc.window_on", &HpccParams::window_on, &P::hpcc,
                         "cap the bytes in flight at W = W_init x R / line (off: the rate alone paces the QP)",
                         "HPCC paper: a window W = R x T limits the inflight bytes; HPCC simulator VAR_WIN 1"));
}

}  // namespace rdmasim::param_table
