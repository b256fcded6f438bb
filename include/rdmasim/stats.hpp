// Latency statistics computed exactly as perftest's print_report_lat.
//
// Input: the raw per-iteration samples in picoseconds (for ping-pong tests one RTT each) and
// the rtt factor (2 for WRITE/SEND, whose reported latency is RTT/2; 1 for READ). Rules:
// sort ascending; drop the 2 largest (n = count - 2); t_min = d[0]; t_max = d[n] (the second
// largest); t_typical = median of d[0..n-1] (mean of the middle two for even n); t_avg =
// mean of d[0..n-1]; 99% = d[ceil(0.99 n)], 99.9% = d[ceil(0.999 n)] as 0-based indices
// (so with 1000 iterations 99.9% == t_max). All values are divided by the rtt factor.
//
// t_stdev differs from perftest on purpose: perftest truncates each deviation to an int of
// microseconds (since 2022), so sub-microsecond jitter prints 0.00; we compute the population
// standard deviation sqrt(sum((x - avg)^2) / n) in double. `perftest_stdev_us` gives perftest's
// truncated figure for comparison.
#pragma once

#include <cstdint>
#include <vector>

namespace rdmasim {

struct LatencyStats {
  std::int64_t samples = 0;  // raw samples given (iters - 1 for a perftest latency test)
  std::int64_t kept = 0;     // n = samples - 2
  // Values of the reported quantity (already divided by the rtt factor) in picoseconds; a
  // double because RTT/2 of an odd RTT is a half picosecond (exact in double).
  double min_ps = 0, max_ps = 0, typical_ps = 0, avg_ps = 0, stdev_ps = 0, p99_ps = 0, p999_ps = 0;
  double perftest_stdev_us = 0;

  double min_us() const { return min_ps / 1e6; }
  double max_us() const { return max_ps / 1e6; }
  double typical_us() const { return typical_ps / 1e6; }
  double avg_us() const { return avg_ps / 1e6; }
  double stdev_us() const { return stdev_ps / 1e6; }
  double p99_us() const { return p99_ps / 1e6; }
  double p999_us() const { return p999_ps / 1e6; }
};

/// Sorts `samples_ps` in place and computes the statistics. Requires at least 3 samples
/// (perftest requires iters >= 5, i.e. 4 samples). Throws std::invalid_argument otherwise.
LatencyStats compute_latency_stats(std::vector<std::int64_t>& samples_ps, int rtt_factor);

/// Index of perftest's percentile p (0..1) among n kept samples: ceil(n * p) computed in double
/// exactly as perftest does.
std::int64_t perftest_percentile_index(std::int64_t n, double p);

}  // namespace rdmasim
