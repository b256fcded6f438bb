// HPCC (src/cc/hpcc.hpp): the update rule with exact numbers from its formulas, the telemetry the
// switches stamp (one hop per switch egress, echoed per packet), and the control at work: the
// 16 -> 1 incast's queue against DCQCN's, and two flows sharing one link at eta.
#include <gtest/gtest.h>

#include "cc/hpcc.hpp"
#include "incast_rig.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;

namespace {

PathTelemetry one_hop(Time ts, std::int64_t tx_bytes, std::int64_t qlen) {
  PathTelemetry t;
  t.hops = 1;
  t.hop[0] = {ts, tx_bytes, qlen, 100'000'000'000};
  return t;
}

AckSignal ack(std::uint32_t acked, std::uint32_t next, const PathTelemetry& t) {
  return {Time::zero(), acked, next, 1, 0, Time::us(10), &t};
}

}  // namespace

TEST(Hpcc, UpdateRuleStepByStep) {
  HpccParams p;  // eta 0.95, max_stage 5, R_AI 40 Mb/s
  p.base_rtt = Time::us(10);
  Hpcc h(p, Rate::gbps(100));
  const PathTelemetry t0 = one_hop(Time::us(100), 1'000'000, 50'000);
  h.on_ack(ack(1, 10, t0));  // the first ACK only stores the hops
  EXPECT_DOUBLE_EQ(h.current_bps(), 100e9);
  // 10 us later the port sent 125 000 B (line rate: 1.0) and held min(62 500, 50 000) B, 0.4 of
  // B T: U = 1.4 over tau = T, so u = 1.4, k = u / 0.95 and R = Rc / k + R_AI; a new round trip
  // (past PSN 10), so Rc takes it.
  const PathTelemetry t1 = one_hop(Time::us(110), 1'125'000, 62'500);
  h.on_ack(ack(11, 20, t1));
  EXPECT_DOUBLE_EQ(h.utilisation(), 1.4);
  const double r1 = 100e9 / (1.4 / 0.95) + 40e6;
  EXPECT_DOUBLE_EQ(h.current_bps(), r1);
  EXPECT_DOUBLE_EQ(h.reference_bps(), r1);
  // Within the same round trip (PSN 15 <= 20): half the line rate, no queue, over tau = T/2:
  // u = (1.4 x 5 + 0.5 x 5) / 10 = 0.95, k = 1 — the pacing rate reacts, Rc does not.
  const PathTelemetry t2 = one_hop(Time::us(115), 1'156'250, 0);
  h.on_ack(ack(15, 20, t2));
  EXPECT_DOUBLE_EQ(h.utilisation(), (1.4 * 5 + 0.5 * 5) / 10);
  EXPECT_DOUBLE_EQ(h.current_bps(), r1 / (h.utilisation() / 0.95) + 40e6);
  EXPECT_DOUBLE_EQ(h.reference_bps(), r1);
  EXPECT_EQ(h.stage(), 0);
  // A new round trip at 40 % utilisation, no queue: u = (0.95 x 0 + 0.4 x 10) / 10 after tau = T,
  // k < 1 and the stage is below max_stage: additive increase, stage 1.
  const PathTelemetry t3 = one_hop(Time::us(125), 1'206'250, 0);
  h.on_ack(ack(21, 30, t3));
  EXPECT_DOUBLE_EQ(h.utilisation(), 0.4);
  EXPECT_DOUBLE_EQ(h.current_bps(), r1 + 40e6);
  EXPECT_EQ(h.stage(), 1);
}

TEST(Hpcc, TheBaseRttIsTheSmallestSampleWhenNotGiven) {
  Hpcc h(HpccParams{}, Rate::gbps(100));
  const PathTelemetry t = one_hop(Time::us(1), 0, 0);
  AckSignal a = ack(1, 2, t);
  a.rtt = Time::us(7);
  h.on_ack(a);
  a.rtt = Time::us(5);
  h.on_ack(a);
  a.rtt = Time::us(9);
  h.on_ack(a);
  EXPECT_EQ(h.base_rtt(), Time::us(5));
}

TEST(Hpcc, TheWindowIsTheBdpScaledByTheRate) {
  HpccParams p;
  p.base_rtt = Time::us(10);
  Hpcc h(p, Rate::gbps(100));
  EXPECT_EQ(h.window_bytes(), 125'000);  // W_init = 100 Gb/s x 10 us at line rate
  h.on_ack(ack(1, 10, one_hop(Time::us(100), 1'000'000, 50'000)));
  const PathTelemetry t1 = one_hop(Time::us(110), 1'125'000, 62'500);
  h.on_ack(ack(11, 20, t1));  // R = 100 G / (1.4 / 0.95) + 40 Mb/s, as in the update-rule test
  EXPECT_EQ(h.window_bytes(), static_cast<std::int64_t>(125'000 * (1 / (1.4 / 0.95) + 0.0004)));
  p.window = Bytes(64'000);  // a given W_init
  EXPECT_EQ(Hpcc(p, Rate::gbps(100)).window_bytes(), 64'000);
  p.window_on = false;
  EXPECT_EQ(Hpcc(p, Rate::gbps(100)).window_bytes(), 0);
  EXPECT_EQ(Hpcc(HpccParams{}, Rate::gbps(100)).window_bytes(), 0);  // no T yet: no cap
}

TEST(Hpcc, ItsWindowCutsTheIncastBurst) {
  // Rate pacing alone lets the first round trip's burst through at line rate; the window holds
  // each sender to one BDP in flight: pause frames 268 -> 70, mean queue 6.6 -> 4.0 KB.
  const auto [w, r] = rdmasim::testing::incast_with_and_without_window("hpcc", &Profile::hpcc);
  EXPECT_EQ(w.fabric.pause_frames, 70u);
  EXPECT_EQ(r.fabric.pause_frames, 268u);
  using rdmasim::testing::bottleneck;
  EXPECT_LT(bottleneck(w).mean_queue_bytes, 0.7 * bottleneck(r).mean_queue_bytes);
}

TEST(Hpcc, KeepsAnIncastsQueueBelowDcqcns) {
  const auto run = [](const char* cc) { return run_traffic(rdmasim::testing::incast_to_1(16, 30, cc)); };
  const TrafficResult none = run("none"), dcqcn = run("dcqcn"), hpcc = run("hpcc");
  using rdmasim::testing::bottleneck;
  // Mean queue at the bottleneck: 1.11 MB with PFC alone, 109 KB with DCQCN, 4.0 KB with HPCC
  // (the first round trip's burst is the same for all); PFC frames 57 728 / 946 / 70. HPCC's
  // price here is utilisation: 76.4 Gb/s against DCQCN's 88.7 (its additive increase is
  // 40 Mb/s per round trip for each of 16 flows after the burst's cut).
  EXPECT_LT(bottleneck(hpcc).mean_queue_bytes * 10, bottleneck(dcqcn).mean_queue_bytes);
  EXPECT_LT(hpcc.fabric.pause_frames, dcqcn.fabric.pause_frames);
  EXPECT_GT(hpcc.aggregate_bps, 0.7 * none.aggregate_bps);
  EXPECT_EQ(hpcc.cnps, 0u);  // it reads the switches' telemetry, not ECN
  for (const FlowResult& f : hpcc.flows) EXPECT_EQ(f.completed, 30);
}

TEST(Hpcc, TwoFlowsHoldOneLinkAtEtaWithoutAQueue) {
  // Two senders into one port: HPCC holds the link near eta (0.95) with no PFC frame and no
  // ECN mark (the queue stays below Kmin, 5 KB). It does not make them equal within this run
  // (100 x 1 MiB each: 60.9 and 31.8 Gb/s in the second half): fairness comes only from the
  // additive increase, 40 Mb/s per round trip, as the HPCC paper says of its AI term.
  const TrafficResult r = run_traffic(rdmasim::testing::incast_to_1(2, 100, "hpcc"));
  EXPECT_EQ(r.fabric.pause_frames, 0u);
  EXPECT_EQ(r.fabric.ecn_marked, 0u);
  EXPECT_GT(r.aggregate_bps, 0.9 * 98e9);   // 91.4 Gb/s of 98.0
  EXPECT_LT(r.aggregate_bps, 0.96 * 98e9);  // not above eta
  for (const FlowResult& f : r.flows) EXPECT_GT(f.steady_goodput_bps, 0.2 * r.aggregate_bps);  // neither starved
}

TEST(Hpcc, TwoFlowsConvergeWithTheAdditiveStepSizedForTwo) {
  // The paper sizes W_AI = W_init (1 - eta) / N for N flows: R_AI = 100 Gb/s x 0.05 / 2 =
  // 2.5 Gb/s for two. Then, 50 x 1 MiB each, both are within 10 % of half the link over the
  // second half of the run (50.86 and 48.90 Gb/s), still with no PFC frame.
  TrafficConfig c = rdmasim::testing::incast_to_1(2, 50, "hpcc");
  c.base.profile.hpcc.rate_ai = Rate::bps(2'500'000'000);
  const TrafficResult r = run_traffic(c);
  EXPECT_EQ(r.fabric.pause_frames, 0u);
  EXPECT_TRUE(rdmasim::testing::at_fair_share(r));
}
