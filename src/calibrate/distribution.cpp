#include "calibrate/distribution.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rdmasim::calibrate {

std::int64_t sockperf_percentile_index(std::int64_t n, double p) {
  if (n <= 0) return 0;
  const std::int64_t i = static_cast<std::int64_t>(0.5 + p * static_cast<double>(n)) - 1;
  return std::clamp<std::int64_t>(i, 0, n - 1);
}

Distribution summarize(std::vector<double> ns) {
  Distribution d;
  if (ns.empty()) return d;
  std::sort(ns.begin(), ns.end());
  const auto n = static_cast<std::int64_t>(ns.size());
  d.count = n;
  auto pct = [&](double p) { return ns[static_cast<std::size_t>(sockperf_percentile_index(n, p))]; };
  d.min_ns = ns.front();
  d.max_ns = ns.back();
  d.p25_ns = pct(0.25);
  d.p50_ns = pct(0.50);
  d.p75_ns = pct(0.75);
  d.p90_ns = pct(0.90);
  d.p99_ns = pct(0.99);
  d.p999_ns = pct(0.999);
  d.p9999_ns = pct(0.9999);
  d.p99999_ns = pct(0.99999);
  // Sum in ascending order (smallest first) in long double to keep rounding small.
  long double sum = 0;
  for (double x : ns) sum += x;
  const long double mean = sum / static_cast<long double>(n);
  long double var = 0;
  for (double x : ns) var += (x - mean) * (x - mean);
  d.mean_ns = static_cast<double>(mean);
  d.stdev_ns = static_cast<double>(std::sqrt(var / static_cast<long double>(n)));
  return d;
}

std::string sockperf_lines(const Distribution& d, const std::string& prefix) {
  std::string out;
  char buf[160];
  auto line = [&](const char* fmt, auto... args) {
    std::snprintf(buf, sizeof buf, fmt, args...);
    out += prefix;
    out += buf;
    out += '\n';
  };
  const double us = 1e-3;
  line("====> avg-latency=%.3f (std-dev=%.3f, observations=%lld)", d.mean_ns * us, d.stdev_ns * us,
       static_cast<long long>(d.count));
  line("---> <MAX> observation = %8.3f", d.max_ns * us);
  const struct {
    double pct;
    double v;
  } rows[] = {{99.999, d.p99999_ns}, {99.99, d.p9999_ns}, {99.9, d.p999_ns}, {99.0, d.p99_ns},
              {90.0, d.p90_ns},      {75.0, d.p75_ns},    {50.0, d.p50_ns},  {25.0, d.p25_ns}};
  for (const auto& r : rows) line("---> percentile %6.3f = %8.3f", r.pct, r.v * us);
  line("---> <MIN> observation = %8.3f", d.min_ns * us);
  return out;
}

}  // namespace rdmasim::calibrate
