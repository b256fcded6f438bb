// Swift (src/cc/swift.hpp): the window update step by step with exact numbers from Algorithm 1,
// the once-per-round-trip cut, the clamps, the target's hop and flow scaling, the window, and
// the control at work on an incast and on two flows sharing a link.
#include <gtest/gtest.h>

#include <cmath>

#include "cc/swift.hpp"
#include "incast_rig.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;

namespace {

AckSignal ack(Time now, Time rtt, std::int32_t packets = 1) { return {now, 0, 0, packets, 0, rtt}; }

}  // namespace

TEST(Swift, WindowUpdateStepByStep) {
  const SwiftParams p;  // target 25 us, ai 1, beta 0.8, max_mdf 0.5
  Swift s(p, Rate::gbps(100));
  for (int i = 0; i < 10; ++i) s.on_sent(1000, Time::zero());  // 8000-bit packets
  EXPECT_DOUBLE_EQ(s.current_bps(), 100e9);
  // First sample, 40 us: the window that paced at line rate is 100e9 x 40e-6 / 8000 = 500
  // packets; 40 us is above the target, so one cut: x max(1 - 0.8 x 15/40, 0.5) = x 0.7.
  s.on_ack(ack(Time::us(100), Time::us(40)));
  EXPECT_DOUBLE_EQ(s.cwnd(), 500 * (1 - 0.8 * 15.0 / 40.0));
  EXPECT_DOUBLE_EQ(s.current_bps(), 350 * 8000 / 40e-6);
  // Within the same round trip (less than 40 us after the cut): no second cut.
  s.on_ack(ack(Time::us(120), Time::us(100)));
  EXPECT_EQ(s.decreases(), 1u);
  // A round trip later, 100 us: the cut is capped at max_mdf (1 - 0.8 x 75/100 = 0.4 < 0.5).
  s.on_ack(ack(Time::us(220), Time::us(100)));
  EXPECT_DOUBLE_EQ(s.cwnd(), 350 * 0.5);
  EXPECT_DOUBLE_EQ(s.current_bps(), 175 * 8000 / 100e-6);
  // Below the target (20 us): + ai x packets / cwnd.
  s.on_ack(ack(Time::us(230), Time::us(20), 4));
  EXPECT_DOUBLE_EQ(s.cwnd(), 175 + 4.0 / 175);
  EXPECT_DOUBLE_EQ(s.current_bps(), (175 + 4.0 / 175) * 8000 / 20e-6);
  // ...but never past the window that paces at line rate: at 10 us, 100e9 x 10e-6 / 8000 = 125.
  s.on_ack(ack(Time::us(240), Time::us(10)));
  EXPECT_DOUBLE_EQ(s.cwnd(), 125);
  EXPECT_DOUBLE_EQ(s.current_bps(), 100e9);
  EXPECT_EQ(s.decreases(), 2u);
  // No sample (a resent message): nothing changes.
  s.on_ack(ack(Time::us(250), Time::ps(-1)));
  EXPECT_EQ(s.decreases(), 2u);
}

TEST(Swift, BelowOnePacketTheWindowGrowsByWholeSteps) {
  SwiftParams p;
  p.min_cwnd = 0.01;
  Swift s(p, Rate::gbps(100));
  s.on_sent(1000, Time::zero());
  // 10 ms round trips: the first sample sets 125,000 packets, then 20 halvings (each cut
  // capped at max_mdf) bring the window to 125,000 / 2^20 < 1.
  s.on_ack(ack(Time::us(10), Time::ms(10)));
  for (int i = 1; i <= 19; ++i) s.on_ack(ack(Time::ms(10) * (i + 1), Time::ms(10)));
  EXPECT_DOUBLE_EQ(s.cwnd(), 125000.0 / (1 << 20));
  const double low = s.cwnd();
  ASSERT_LT(low, 1.0);
  EXPECT_GE(low, 0.01);
  EXPECT_DOUBLE_EQ(s.current_bps(), std::max(low * 8000 / 10e-3, 100e6));  // paced below a packet per RTT, at the floor
  s.on_ack(ack(Time::ms(200), Time::us(5), 1));
  EXPECT_DOUBLE_EQ(s.cwnd(), low + 1.0);  // below one packet: + ai x packets
}

TEST(Swift, KeepsAnIncastsQueueBelowNoControl) {
  const auto run = [](const char* cc) { return run_traffic(rdmasim::testing::incast_to_1(16, 30, cc)); };
  const TrafficResult none = run("none"), swift = run("swift");
  using rdmasim::testing::bottleneck;
  EXPECT_LT(bottleneck(swift).mean_queue_bytes, 0.5 * bottleneck(none).mean_queue_bytes);
  EXPECT_LT(swift.fabric.pause_frames, none.fabric.pause_frames);
  EXPECT_GT(swift.aggregate_bps, 0.7 * none.aggregate_bps);
  for (const FlowResult& f : swift.flows) EXPECT_EQ(f.completed, 30);
}

TEST(Swift, TheTargetScalesWithHopsAndShrinksAsTheWindowGrows) {
  const SwiftParams p;  // base 25 us, 1 us per hop, fs_range 25 us from 0.1 to 100 packets
  const Swift s(p, Rate::gbps(100));
  const double a = 25e6 / (1 / std::sqrt(0.1) - 1 / std::sqrt(100.0));  // ps
  EXPECT_EQ(s.target(100, 0), Time::us(25));              // no flow scaling at fs_max_cwnd
  EXPECT_EQ(s.target(1000, 3), Time::us(28));             // nor above it; 3 hops: + 3 us
  EXPECT_EQ(s.target(0.1, 0), Time::us(50));              // the whole range at fs_min_cwnd
  EXPECT_EQ(s.target(0.01, 0), Time::us(50));             // and no more below it
  EXPECT_EQ(s.target(4, 1), Time::us(26) + Time::ps(static_cast<std::int64_t>(a / 2 - a / 10)));
  SwiftParams fixed = p;
  fixed.fs_range = Time::zero();
  fixed.hop_scale = Time::zero();
  EXPECT_EQ(Swift(fixed, Rate::gbps(100)).target(0.1, 5), Time::us(25));
}

TEST(Swift, TheWindowIsCwndPacketsOfTheMeanSize) {
  SwiftParams p;
  Swift s(p, Rate::gbps(100));
  EXPECT_EQ(s.window_bytes(), 0);  // before the first sample: unbounded, at line rate
  s.on_sent(1000, Time::zero());
  s.on_ack(ack(Time::us(100), Time::us(40)));  // cwnd 500 x 0.7 = 350 packets of 1000 B
  EXPECT_EQ(s.window_bytes(), 350'000);
  p.window_on = false;
  Swift off(p, Rate::gbps(100));
  off.on_sent(1000, Time::zero());
  off.on_ack(ack(Time::us(100), Time::us(40)));
  EXPECT_EQ(off.window_bytes(), 0);
}

TEST(Swift, ItsWindowHoldsTheIncastWithoutPfc) {
  // A window of cwnd packets with an ACK per packet against pacing alone: the first round trip's
  // burst no longer overflows into PFC (pause frames 6798 -> 158) and the link stays full.
  const auto [w, r] = rdmasim::testing::incast_with_and_without_window("swift", &Profile::swift);
  EXPECT_EQ(w.fabric.pause_frames, 158u);
  EXPECT_EQ(r.fabric.pause_frames, 6798u);
  EXPECT_GT(w.aggregate_bps, 0.99 * 98e9);
}

TEST(Swift, TwoFlowsConvergeToTheirFairShare) {
  // Two senders into one port, 100 x 1 MiB each: over the second half of the run both are
  // within 10 % of half the link (49.99 and 49.01 Gb/s).
  const TrafficResult r = run_traffic(rdmasim::testing::incast_to_1(2, 100, "swift"));
  for (const FlowResult& f : r.flows) EXPECT_EQ(f.completed, 100);
  EXPECT_TRUE(rdmasim::testing::at_fair_share(r));
}
