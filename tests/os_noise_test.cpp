// The host's OS noise at the completion poll (host/os_noise.hpp): off it changes nothing, on
// every sample lies between the noise-free RTT and that plus the spikes' bound, the draws
// depend only on the seed, the ledger charges them to kernel, and the budget adds their mean.
#include "host/os_noise.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/random.hpp"
#include "model/budget.hpp"
#include "rdmasim/latency.hpp"

using namespace rdmasim;

namespace {
LatConfig write_lat(int iters) {
  LatConfig c;
  c.iters = iters;
  c.record_samples = true;
  return c;
}
}  // namespace

TEST(OsNoise, OffAddsNoStage) {
  PathSpec p;
  OsNoise(HostParams{}).append(p, 0, "A.os.noise");
  EXPECT_TRUE(p.stages.empty());
  HostParams h;
  h.noise_prob = 0.5;  // a chance of nothing is nothing
  EXPECT_FALSE(OsNoise(h).on());
  h.noise_max = Time::us(1);
  EXPECT_TRUE(OsNoise(h).on());
  OsNoise(h).append(p, 1, "B.os.noise");
  ASSERT_EQ(p.stages.size(), 1U);
  EXPECT_EQ(p.stages[0].cat, Category::kernel);
  EXPECT_EQ(p.stages[0].cost.spike_ppm, 500'000);
  // The budget's mean: spike x ppm / 2e6 = 1 us x 0.5 / 2.
  EXPECT_EQ(p.stages[0].cost.random_mean(), Time::ns(250));
}

TEST(OsNoise, ExponentialAndChanceDrawsHaveTheirMeans) {
  RandomStream r(1, "test");
  std::int64_t sum = 0, hits = 0;
  const int n = 200'000;
  for (int i = 0; i < n; ++i) {
    sum += r.exponential_time(Time::ns(30)).count_ps();
    hits += r.chance_ppm(5000) ? 1 : 0;
  }
  EXPECT_NEAR(static_cast<double>(sum) / n, 30'000.0, 300.0);  // 1 %: 200,000 draws, sd 0.22 %
  EXPECT_NEAR(static_cast<double>(hits) / n, 0.005, 0.0005);
  EXPECT_EQ(r.exponential_time(Time::zero()), Time::zero());
  EXPECT_FALSE(r.chance_ppm(0));
}

// Spikes only (no body): every RTT is the noise-free RTT plus at most one spike per side, and
// about 2 x noise_prob of the exchanges are hit; what they add is charged to kernel.
TEST(OsNoise, SpikesLieWithinTheirBoundAndShowInTheTail) {
  const LatConfig quiet = write_lat(2000);
  LatConfig noisy = quiet;
  noisy.profile.host.noise_prob = 0.01;
  noisy.profile.host.noise_max = Time::us(4);
  const LatResult q = run_latency(quiet), n = run_latency(noisy);
  ASSERT_EQ(q.iterations.size(), n.iterations.size());
  const std::int64_t base = q.iterations[10].rtt_ps;
  int hit = 0;
  for (const auto& it : n.iterations) {
    EXPECT_GE(it.rtt_ps, base);
    EXPECT_LE(it.rtt_ps, base + 2 * Time::us(4).count_ps());
    if (it.rtt_ps > base) {
      ++hit;
      EXPECT_EQ(it.ledger[Category::kernel].count_ps(), it.rtt_ps - base);
    }
  }
  EXPECT_GT(hit, 20);  // ~2 % of 2000
  EXPECT_LT(hit, 60);
  EXPECT_EQ(n.stats.min_us(), q.stats.min_us());
  EXPECT_EQ(n.stats.typical_us(), q.stats.typical_us());  // the median is untouched
  EXPECT_GT(n.stats.max_us(), q.stats.max_us() + 0.5);
  EXPECT_EQ(n.invariant_violations, 0);
}

// The body moves the median by about its mean (two polls per RTT, reported RTT/2) and spreads
// the 99th percentile above it; the same seed draws the same run, another seed another.
TEST(OsNoise, TheBodySpreadsThePercentilesAndTheSeedFixesTheDraws) {
  LatConfig c = write_lat(2000);
  const LatResult q = run_latency(c);
  c.profile.host.poll_noise = Time::ns(30);
  const LatResult a = run_latency(c), b = run_latency(c);
  c.seed = 7;
  const LatResult other = run_latency(c);
  ASSERT_EQ(a.iterations.size(), b.iterations.size());
  for (std::size_t i = 0; i < a.iterations.size(); ++i) EXPECT_EQ(a.iterations[i].rtt_ps, b.iterations[i].rtt_ps);
  EXPECT_NE(a.stats.max_us(), other.stats.max_us());
  const double shift = a.stats.typical_us() - q.stats.typical_us();
  EXPECT_GT(shift, 0.01);  // Gamma(2, 30 ns) / 2: median 25 ns
  EXPECT_LT(shift, 0.04);
  EXPECT_GT(a.stats.p99_us() - a.stats.typical_us(), 0.05);  // p99 - median: ~74 ns
  EXPECT_LT(a.stats.p99_us() - a.stats.typical_us(), 0.10);
}

// The budget is the noise-free budget plus the mean of each poll's noise (RTT/2: one per side
// of a WRITE ping-pong, two polls per RTT).
TEST(OsNoise, TheBudgetAddsTheMean) {
  LatConfig c = write_lat(10);
  const BudgetResult quiet = run_budget(c);
  c.profile.host.poll_noise = Time::ns(30);
  c.profile.host.noise_prob = 0.005;
  c.profile.host.noise_max = Time::us(4);
  const BudgetResult noisy = run_budget(c);
  EXPECT_EQ(noisy.rtt.total() - quiet.rtt.total(), (Time::ns(30) + Time::ns(10)) * 2);
  EXPECT_EQ(noisy.rtt[Category::kernel] - quiet.rtt[Category::kernel], Time::ns(80));
}
