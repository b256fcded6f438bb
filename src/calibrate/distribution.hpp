// Distribution: a summary of latency samples (nanoseconds) for the calibration probes.
//
// Invariants: percentiles use sockperf's nearest-rank rule on the ascending-sorted samples,
// index = (int)(0.5 + p * n) - 1, clamped to [0, n - 1] (sockperf skips a line whose index is
// negative; we clamp so every field is defined); hence min <= p25 <= ... <= p99999 <= max.
// mean is the arithmetic mean and stdev the population standard deviation
// sqrt(sum((x - mean)^2) / n), as in include/rdmasim/stats.hpp. An empty input gives a
// Distribution with count == 0 and every value 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rdmasim::calibrate {

struct Distribution {  // summary of samples in nanoseconds
  std::int64_t count = 0;
  double min_ns = 0, p25_ns = 0, p50_ns = 0, p75_ns = 0, p90_ns = 0, p99_ns = 0, p999_ns = 0, p9999_ns = 0,
         max_ns = 0;
  double mean_ns = 0, stdev_ns = 0;
  double p99999_ns = 0;  // 99.999th percentile, for sockperf's first percentile line
};

/// Sockperf's nearest-rank index of percentile p (0..1) among n sorted samples, clamped to
/// [0, n - 1]; 0 when n == 0.
std::int64_t sockperf_percentile_index(std::int64_t n, double p);

/// Sorts `ns` and summarises it.
Distribution summarize(std::vector<double> ns);

/// Sockperf-like text block in microseconds (%8.3f), one line per row, each line starting with
/// `prefix`:
///   <prefix>====> avg-latency=%.3f (std-dev=%.3f, observations=N)
///   <prefix>---> <MAX> observation = %8.3f
///   <prefix>---> percentile 99.999 = %8.3f   (then 99.990 99.900 99.000 90.000 75.000
///   50.000 25.000)
///   <prefix>---> <MIN> observation = %8.3f
std::string sockperf_lines(const Distribution& d, const std::string& prefix);

}  // namespace rdmasim::calibrate
