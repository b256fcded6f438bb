// The textbook toy model's numbers (seed-demo profile) emerge from the component model.
#include "rdmasim/demo.hpp"

#include <gtest/gtest.h>

using namespace rdmasim;

TEST(Demo, SeedDemoReproducesTheLessonsPrintout) {
  LatConfig c;
  c.profile = make_profile("seed-demo");
  c.iters = 5000;
  const DemoResult d = run_demo(c);
  ASSERT_EQ(d.steps.size(), 4u);
  EXPECT_NEAR(d.steps.front().result.stats.avg_us(), 9.05, 0.05);  // TCP avg
  EXPECT_NEAR(d.steps.front().result.stats.typical_us(), 9.05, 0.05);
  EXPECT_NEAR(d.steps.back().result.stats.avg_us(), 1.85, 0.05);   // RDMA avg
  EXPECT_NEAR(d.rdma_no_zero_copy.stats.avg_us(), 5.05, 0.05);
  EXPECT_NEAR(d.latency_cut_pct, 79.6, 0.5);
  EXPECT_NEAR(d.zero_copy_share_pct, 44.4, 0.5);
  // Each step only removes cost.
  for (std::size_t i = 1; i < d.steps.size(); ++i)
    EXPECT_LT(d.steps[i].result.stats.avg_ps, d.steps[i - 1].result.stats.avg_ps);
  // The toy's jitter is uniform [0, 0.3] us per message: it shows up as queue, mean ~0.15.
  EXPECT_NEAR(d.steps.back().result.mean_ps(Category::queue) / 1e6, 0.15, 0.01);
}

TEST(Demo, DefaultProfileStepsOrderedAndTcpDominatedBySoftware) {
  LatConfig c;
  c.iters = 200;
  const DemoResult d = run_demo(c);
  const LatResult& tcp = d.steps.front().result;
  const double software = tcp.mean_ps(Category::kernel) + tcp.mean_ps(Category::syscall) +
                          tcp.mean_ps(Category::copy) + tcp.mean_ps(Category::interrupt);
  EXPECT_GT(software / tcp.stats.avg_ps, 0.7);  // software is > 70 % of e2e
  for (std::size_t i = 1; i < d.steps.size(); ++i)
    EXPECT_LT(d.steps[i].result.stats.avg_ps, d.steps[i - 1].result.stats.avg_ps);
}
