#include "rdmasim/stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "rdmasim/units.hpp"

namespace rdmasim {

std::int64_t perftest_percentile_index(std::int64_t n, double p) {
  return static_cast<std::int64_t>(std::ceil(static_cast<double>(n) * p));
}

LatencyStats compute_latency_stats(std::vector<std::int64_t>& d, int rtt_factor) {
  if (d.size() < 3) throw std::invalid_argument("latency statistics need at least 3 samples");
  if (rtt_factor != 1 && rtt_factor != 2) throw std::invalid_argument("rtt factor must be 1 or 2");
  std::sort(d.begin(), d.end());
  LatencyStats s;
  s.samples = static_cast<std::int64_t>(d.size());
  const std::int64_t n = s.samples - 2;  // LAT_MEASURE_TAIL
  s.kept = n;
  const double q = rtt_factor;
  auto at = [&](std::int64_t i) { return static_cast<double>(d[static_cast<std::size_t>(i)]) / q; };

  s.min_ps = at(0);
  s.max_ps = at(n);
  // get_median: if ((n-1) % 2) (d[n/2] + d[n/2-1]) / 2 else d[n/2]
  if ((n - 1) % 2)
    s.typical_ps = (static_cast<double>(d[n / 2]) + static_cast<double>(d[n / 2 - 1])) / 2.0 / q;
  else
    s.typical_ps = at(n / 2);

  // Exact integer sum, then one division.
  i128 sum = 0;
  for (std::int64_t i = 0; i < n; ++i) sum += d[static_cast<std::size_t>(i)];
  s.avg_ps = static_cast<double>(sum) / static_cast<double>(n) / q;

  double var = 0, perftest_sum = 0;
  const double avg_us = s.avg_ps / 1e6;
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = at(i);
    var += (x - s.avg_ps) * (x - s.avg_ps);
    const int temp = static_cast<int>(avg_us - x / 1e6);  // perftest: int temp_var = average - x
    perftest_sum += static_cast<double>(temp) * temp;
  }
  s.stdev_ps = std::sqrt(var / static_cast<double>(n));
  s.perftest_stdev_us = std::sqrt(perftest_sum / static_cast<double>(n));

  const std::int64_t last = s.samples - 1;
  s.p99_ps = at(std::min(perftest_percentile_index(n, 0.99), last));
  s.p999_ps = at(std::min(perftest_percentile_index(n, 0.999), last));
  return s;
}

}  // namespace rdmasim
