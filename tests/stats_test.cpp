#include "rdmasim/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace rdmasim;

namespace {
std::vector<std::int64_t> us(std::initializer_list<double> v) {
  std::vector<std::int64_t> r;
  for (double x : v) r.push_back(static_cast<std::int64_t>(x * 1e6));
  return r;
}
}  // namespace

TEST(Stats, OddKeptCountUsesMiddleElement) {
  // 7 samples -> drop 2 largest -> n = 5 kept: 1 2 3 4 5 (| 6 100)
  auto d = us({5, 3, 100, 1, 6, 2, 4});
  const LatencyStats s = compute_latency_stats(d, 1);
  EXPECT_EQ(s.samples, 7);
  EXPECT_EQ(s.kept, 5);
  EXPECT_DOUBLE_EQ(s.min_us(), 1);
  EXPECT_DOUBLE_EQ(s.typical_us(), 3);  // d[n/2] = d[2]
  EXPECT_DOUBLE_EQ(s.max_us(), 6);      // d[n] = second largest
  EXPECT_DOUBLE_EQ(s.avg_us(), 3);      // (1+2+3+4+5)/5
  EXPECT_NEAR(s.stdev_us(), std::sqrt(2.0), 1e-12);
  // ceil(5*0.99) = 5 -> d[5] = 6; ceil(5*0.999) = 5
  EXPECT_DOUBLE_EQ(s.p99_us(), 6);
  EXPECT_DOUBLE_EQ(s.p999_us(), 6);
}

TEST(Stats, EvenKeptCountAveragesMiddlePair) {
  // 8 samples -> n = 6 kept: 1 2 3 5 8 9 (| 10 11); median = (3+5)/2
  auto d = us({9, 1, 11, 3, 8, 2, 10, 5});
  const LatencyStats s = compute_latency_stats(d, 1);
  EXPECT_EQ(s.kept, 6);
  EXPECT_DOUBLE_EQ(s.typical_us(), 4);
  EXPECT_DOUBLE_EQ(s.max_us(), 10);
  EXPECT_DOUBLE_EQ(s.avg_us(), 28.0 / 6);
}

TEST(Stats, RttFactorHalvesEverything) {
  auto d = us({2, 4, 6, 8, 10});  // n = 3 kept: 2 4 6
  const LatencyStats s = compute_latency_stats(d, 2);
  EXPECT_DOUBLE_EQ(s.min_us(), 1);
  EXPECT_DOUBLE_EQ(s.typical_us(), 2);
  EXPECT_DOUBLE_EQ(s.avg_us(), 2);
  EXPECT_DOUBLE_EQ(s.max_us(), 4);  // d[3] = 8 / 2
}

TEST(Stats, TiesAreHandled) {
  auto d = us({3, 3, 3, 3, 3, 3});
  const LatencyStats s = compute_latency_stats(d, 1);
  EXPECT_DOUBLE_EQ(s.typical_us(), 3);
  EXPECT_DOUBLE_EQ(s.stdev_us(), 0);
  EXPECT_DOUBLE_EQ(s.p999_us(), 3);
}

TEST(Stats, ThousandIterationsMake999PercentileEqualTmax) {
  // perftest -n 1000: 999 samples, n = 997 kept, ceil(0.99*997)=988, ceil(0.999*997)=997.
  std::vector<std::int64_t> d;
  for (int i = 0; i < 999; ++i) d.push_back((999 - i) * 1'000'000);  // 1..999 us, reversed
  const LatencyStats s = compute_latency_stats(d, 1);
  EXPECT_EQ(s.kept, 997);
  EXPECT_EQ(perftest_percentile_index(997, 0.99), 988);
  EXPECT_EQ(perftest_percentile_index(997, 0.999), 997);
  EXPECT_DOUBLE_EQ(s.max_us(), 998);   // second largest
  EXPECT_DOUBLE_EQ(s.p999_us(), s.max_us());
  EXPECT_DOUBLE_EQ(s.p99_us(), 989);   // d[988]
  EXPECT_DOUBLE_EQ(s.typical_us(), 499);  // n odd: d[498]
  EXPECT_DOUBLE_EQ(s.min_us(), 1);
}

TEST(Stats, PerftestStdevTruncatesSubMicrosecondJitter) {
  // Samples 1.0, 1.4, 1.8 us (+2 dropped): true stdev ~0.33 us, perftest's int truncation 0.
  std::vector<std::int64_t> d{1'000'000, 1'400'000, 1'800'000, 9'000'000, 9'000'000};
  const LatencyStats s = compute_latency_stats(d, 1);
  EXPECT_NEAR(s.stdev_us(), 0.326598632, 1e-6);
  EXPECT_DOUBLE_EQ(s.perftest_stdev_us, 0.0);
}

TEST(Stats, RejectsTooFewSamples) {
  std::vector<std::int64_t> d{1, 2};
  EXPECT_THROW(compute_latency_stats(d, 1), std::invalid_argument);
}
