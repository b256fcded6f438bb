// DCQCN reaction point: the rate cut on a CNP, alpha's update and decay, fast recovery, then
// additive increase, byte-counter steps, and the return to line rate (exact arithmetic).
#include "cc/dcqcn.hpp"

#include <gtest/gtest.h>

#include "incast_rig.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;

namespace {
constexpr double kLine = 100e9;
DcqcnParams params() { return DcqcnParams{}; }  // the paper's defaults
}  // namespace

TEST(Dcqcn, UnthrottledUntilTheFirstCnp) {
  Dcqcn d(params(), Rate::gbps(100));
  EXPECT_EQ(d.rate_bps(Time::ms(5)), kLine);
  EXPECT_FALSE(d.limited(Time::ms(5)));
  EXPECT_EQ(d.alpha(), 1.0);
}

TEST(Dcqcn, CnpCutsByHalfAlphaThenFastRecoveryHalvesTheGap) {
  const DcqcnParams p = params();
  Dcqcn d(p, Rate::gbps(100));
  d.on_cnp(Time::zero());
  EXPECT_EQ(d.rate_bps(Time::zero()), kLine * 0.5);  // alpha = 1: Rc (1 - 1/2)
  EXPECT_EQ(d.target_bps(), kLine);
  EXPECT_EQ(d.alpha(), (1 - p.g) * 1.0 + p.g);
  // At K = T = 55 us: alpha decays, then the first timer step recovers half the gap.
  EXPECT_EQ(d.rate_bps(Time::us(55)), (kLine + kLine * 0.5) / 2);
  EXPECT_EQ(d.alpha(), 1.0 * (1 - p.g));
  // Steps 2..4 are fast recovery too (below F = 5 timer expiries).
  double rc = (kLine + kLine * 0.5) / 2;
  for (int i = 2; i <= 4; ++i) rc = (kLine + rc) / 2;
  EXPECT_EQ(d.rate_bps(Time::us(4 * 55)), rc);
  EXPECT_TRUE(d.limited(Time::us(4 * 55)));
}

TEST(Dcqcn, SecondCnpCutsFromTheCurrentRateAndAdditiveIncreaseRaisesTheTarget) {
  DcqcnParams p = params();
  p.fast_recovery = 1;
  Dcqcn d(p, Rate::gbps(100));
  d.on_cnp(Time::zero());
  const double alpha = d.alpha();
  d.on_cnp(Time::us(10));  // Rt <- 50G, Rc <- 50G (1 - alpha/2)
  EXPECT_EQ(d.target_bps(), kLine * 0.5);
  EXPECT_EQ(d.rate_bps(Time::us(10)), kLine * 0.5 * (1 - alpha / 2));
  // F = 1: the first timer step (at 65 us) is already additive: Rt += R_AI.
  const double rc = kLine * 0.5 * (1 - alpha / 2);
  EXPECT_EQ(d.rate_bps(Time::us(65)), (kLine * 0.5 + 40e6 + rc) / 2);
  EXPECT_EQ(d.target_bps(), kLine * 0.5 + 40e6);
}

TEST(Dcqcn, ByteCounterStepsAndReturnToLineRate) {
  DcqcnParams p = params();
  p.byte_counter = Bytes(1 << 20);
  Dcqcn d(p, Rate::gbps(100));
  d.on_cnp(Time::zero());
  d.on_sent(1 << 20, Time::us(1));  // one byte-counter step: fast recovery
  EXPECT_EQ(d.rate_bps(Time::us(1)), (kLine + kLine * 0.5) / 2);
  EXPECT_EQ(d.increases(), 1u);
  // Without further CNPs the timer steps bring it back to line rate and the timers stop.
  EXPECT_EQ(d.rate_bps(Time::ms(100)), kLine);
  EXPECT_FALSE(d.limited(Time::ms(100)));
  EXPECT_EQ(d.rate_bps(Time::ms(200)), kLine);
}

TEST(Dcqcn, MinimumRateFloor) {
  DcqcnParams p = params();
  p.min_rate = Rate::gbps(40);
  Dcqcn d(p, Rate::gbps(100));
  d.on_cnp(Time::zero());
  d.on_cnp(Time::us(1));
  EXPECT_EQ(d.rate_bps(Time::us(1)), 40e9);
}

TEST(Dcqcn, TwoFlowsConvergeToTheirFairShareSlowly) {
  // Two senders into one port. DCQCN's additive increase (40 Mb/s per 55 us timer) evens them
  // out slowly: after 200 x 1 MiB each they stand at 20.2 and 44.8 Gb/s; after 3000 x 1 MiB
  // each (about 0.5 s) both are within 10 % of their share over the second half (44.3, 51.8).
  EXPECT_FALSE(rdmasim::testing::at_fair_share(run_traffic(rdmasim::testing::incast_to_1(2, 200, "dcqcn"))));
  EXPECT_TRUE(rdmasim::testing::at_fair_share(run_traffic(rdmasim::testing::incast_to_1(2, 3000, "dcqcn"))));
}
