// EcnFraction: the HPCC simulator's DCTCP mode step by step (window updates of alpha, one cut
// per reduction, additive increase per window, the floor), and a 16 -> 1 incast in which it
// holds the bottleneck queue near the marking range that PFC alone overshoots.
#include "cc/ecn_fraction.hpp"

#include <gtest/gtest.h>

#include "incast_rig.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;

namespace {

AckSignal ack(std::uint32_t acked, std::uint32_t next, int ce) { return {Time::zero(), acked, next, 16, ce}; }

}  // namespace

TEST(EcnFraction, AlphaPerWindowOneCutPerReductionIncreasePerWindow) {
  const EcnFractionParams p;  // g = 1/16, rate_ai = 1 Gb/s, min_rate = 100 Mb/s
  EcnFraction c(p, Rate::gbps(100));
  const double g = 1.0 / 16;
  c.on_ack(ack(16, 64, 0));  // the first ACK sets the window (65 packets) and adds rate_ai, capped at line
  EXPECT_EQ(c.current_bps(), 100e9);
  EXPECT_EQ(c.alpha(), 1.0);
  c.on_ack(ack(32, 80, 4));  // marks, no reduction yet: cut by alpha/2 = 1/2
  EXPECT_EQ(c.current_bps(), 50e9);
  EXPECT_TRUE(c.reducing());
  c.on_ack(ack(48, 96, 2));  // marks during the reduction: no second cut
  EXPECT_EQ(c.current_bps(), 50e9);
  EXPECT_EQ(c.cuts(), 1u);
  c.on_ack(ack(65, 112, 0));  // past PSN 64: the window's alpha update, F = 6 / 65; still reducing (until 80)
  const double a1 = (1 - g) * 1.0 + g * (6.0 / 65);
  EXPECT_DOUBLE_EQ(c.alpha(), a1);
  EXPECT_EQ(c.current_bps(), 50e9);
  c.on_ack(ack(81, 120, 0));  // past 80: the reduction ends; not a new window, so no increase
  EXPECT_FALSE(c.reducing());
  EXPECT_EQ(c.current_bps(), 50e9);
  c.on_ack(ack(113, 130, 48));  // past 112: window of 112 - 65 + 1 = 48 packets, all marked: F = 1; then a cut
  const double a2 = (1 - g) * a1 + g;
  EXPECT_DOUBLE_EQ(c.alpha(), a2);
  const double r2 = 50e9 * (1 - a2 / 2);
  EXPECT_DOUBLE_EQ(c.current_bps(), r2);
  c.on_ack(ack(131, 140, 0));  // past 130: F = 0, the reduction ends, + rate_ai
  EXPECT_DOUBLE_EQ(c.alpha(), (1 - g) * a2);
  EXPECT_DOUBLE_EQ(c.current_bps(), r2 + 1e9);
  EXPECT_EQ(c.cuts(), 2u);
}

TEST(EcnFraction, RateStopsAtTheFloor) {
  const EcnFractionParams p;
  EcnFraction c(p, Rate::gbps(100));
  for (std::uint32_t k = 1; k <= 40; ++k) {  // every ACK past the last cut, every packet marked
    c.on_ack(ack(20 * k, 20 * k + 10, 16));
    EXPECT_GE(c.current_bps(), 100e6);
  }
  EXPECT_EQ(c.current_bps(), 100e6);
  EXPECT_EQ(c.cuts(), 40u);
}

TEST(EcnFraction, IncastCutsTheQueueAndThePauses) {
  // 16 -> 1 incast of 1 MiB WRITEs at 100 Gb/s, RoCE lossless with ECN, as DCQCN's test. Every
  // packet's ACK echoes its mark (as the HPCC simulator acknowledges), so each QP reacts within
  // a message: the mean queue drops from 1.11 MB to 248 KB, near the marking range, and the
  // pause frames from 57 728 to 22 852, with the link 97.4 % busy.
  TrafficConfig c = rdmasim::testing::incast_16_to_1(30);
  const TrafficResult plain = run_traffic(c);
  c.base.fabric.cc = "ecn-fraction";
  const TrafficResult ecn = run_traffic(c);
  using rdmasim::testing::bottleneck;
  EXPECT_EQ(ecn.cnps, 0u);  // it reads the marks the ACKs carry, not CNPs
  const double kmax = static_cast<double>(c.base.profile.sw.ecn_kmax.count());
  EXPECT_LT(bottleneck(ecn).mean_queue_bytes, 1.5 * kmax);  // near the marking range...
  EXPECT_GT(bottleneck(plain).mean_queue_bytes, 4 * kmax);  // ...where PFC alone sits far above it
  EXPECT_EQ(ecn.fabric.pause_frames, 22852u);
  EXPECT_EQ(plain.fabric.pause_frames, 57728u);
  EXPECT_GT(ecn.aggregate_bps, 0.95 * plain.aggregate_bps);
  for (const FlowResult& f : ecn.flows) EXPECT_EQ(f.completed, 30);
  EXPECT_TRUE(ecn.fabric.conserved);
}

TEST(EcnFraction, TwoFlowsConvergeToTheirFairShare) {
  // Two senders into one port, 50 x 1 MiB each: over the second half both are within 10 % of
  // half the link (50.96 Gb/s each).
  const TrafficResult r = run_traffic(rdmasim::testing::incast_to_1(2, 50, "ecn-fraction"));
  EXPECT_TRUE(rdmasim::testing::at_fair_share(r));
}
