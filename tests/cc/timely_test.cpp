// TIMELY (src/cc/timely.hpp): the update rule step by step with exact numbers from its formulas,
// and the control at work on an incast (the queue it keeps against no control).
#include <gtest/gtest.h>

#include "cc/timely.hpp"
#include "incast_rig.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;

namespace {

AckSignal ack(std::uint32_t acked, std::uint32_t next, Time rtt) { return {Time::zero(), acked, next, 1, 0, rtt}; }

}  // namespace

TEST(Timely, UpdateRuleStepByStep) {
  const TimelyParams p;  // alpha 0.875, beta 0.8, t_low 50 us, t_high 500 us, min_rtt 20 us
  Timely t(p, Rate::gbps(100));
  t.on_ack(ack(1, 10, Time::us(30)));  // the first sample only sets the previous RTT
  EXPECT_EQ(t.updates(), 0u);
  t.on_ack(ack(5, 10, Time::us(900)));  // not past PSN 10: the same round trip
  EXPECT_EQ(t.updates(), 0u);
  EXPECT_DOUBLE_EQ(t.current_bps(), 100e9);
  // rtt 600 us > t_high: rate x (1 - 0.8 (1 - 500/600)).
  t.on_ack(ack(11, 20, Time::us(600)));
  EXPECT_DOUBLE_EQ(t.rtt_diff_ps(), 0.875 * 570e6);
  EXPECT_DOUBLE_EQ(t.current_bps(), 100e9 * (1 - 0.8 * (1 - 500.0 / 600.0)));
  // rtt 100 us falls 500 us: the smoothed difference turns negative, so +delta (10 Mb/s).
  const double r1 = t.current_bps();
  t.on_ack(ack(21, 30, Time::us(100)));
  EXPECT_DOUBLE_EQ(t.rtt_diff_ps(), 0.125 * 0.875 * 570e6 + 0.875 * -500e6);
  EXPECT_DOUBLE_EQ(t.current_bps(), r1 + 10e6);
  // rtt 200 us: the difference +100 us makes the gradient 2.03, so 1 - 0.8 x 2.03 < 0: the floor.
  t.on_ack(ack(31, 40, Time::us(200)));
  EXPECT_DOUBLE_EQ(t.rtt_diff_ps() / 20e6, (0.125 * (0.125 * 0.875 * 570e6 + 0.875 * -500e6) + 0.875 * 100e6) / 20e6);
  EXPECT_DOUBLE_EQ(t.current_bps(), 100e6);
  // Below t_low: five steps of delta, then hyper-active increases of 50 Mb/s.
  for (std::uint32_t i = 0; i < 7; ++i) t.on_ack(ack(41 + 10 * i, 50 + 10 * i, Time::us(40)));
  EXPECT_DOUBLE_EQ(t.current_bps(), 100e6 + 5 * 10e6 + 2 * 50e6);
  EXPECT_EQ(t.increases_in_a_row(), 7);
  // An ACK of a resent message carries no sample: nothing changes.
  t.on_ack(ack(200, 210, Time::ps(-1)));
  EXPECT_EQ(t.updates(), 10u);
}

TEST(Timely, KeepsAnIncastsQueueBelowNoControl) {
  // The 16 -> 1 incast: without congestion control PFC holds the queue at the switch's
  // thresholds; TIMELY, with an RTT sample from every packet's ACK, backs off as the RTT grows
  // past t_low and its gradient rises.
  const auto run = [](const char* cc) { return run_traffic(rdmasim::testing::incast_to_1(16, 30, cc)); };
  const TrafficResult none = run("none"), timely = run("timely");
  using rdmasim::testing::bottleneck;
  EXPECT_LT(bottleneck(timely).mean_queue_bytes, 0.2 * bottleneck(none).mean_queue_bytes);  // 182 KB vs 1.11 MB
  EXPECT_EQ(timely.fabric.pause_frames, 4598u);                                              // vs 57 728
  EXPECT_GT(timely.aggregate_bps, 0.75 * none.aggregate_bps);                                 // 80.8 vs 98.0 Gb/s
  for (const FlowResult& f : timely.flows) EXPECT_EQ(f.completed, 30);
}

TEST(Timely, TwoFlowsOnOneBottleneckConvergeToTheirShare) {
  // Two senders into one port, 200 x 1 MiB each. With the default t_low (50 us, the paper's
  // 10 Gb/s-era setting) this incast's RTT never reaches it, TIMELY keeps both at line rate and
  // PFC does the sharing (34 116 pause frames); with t_low = 5 us the gradient rule runs: over
  // the second half both are within 10 % of half the link (47.08 and 49.51 Gb/s) with 90 pause
  // frames.
  TrafficConfig c = rdmasim::testing::incast_to_1(2, 200, "timely");
  const TrafficResult fixed = run_traffic(c);
  EXPECT_EQ(fixed.flows[0].rc.final_rate_bps, 100e9);
  EXPECT_EQ(fixed.fabric.pause_frames, 34116u);
  apply_override(c.base.profile, "timely.t_low=5us");
  const TrafficResult r = run_traffic(c);
  for (const FlowResult& f : r.flows) EXPECT_EQ(f.completed, 200);
  EXPECT_TRUE(rdmasim::testing::at_fair_share(r));
  EXPECT_EQ(r.fabric.pause_frames, 90u);
}
