// Open-loop workloads (rdmasim/flows.hpp): the flow-size distributions (mean, inverse CDF, the
// sampled sizes against the CDF), Poisson arrivals at the target load, the HPCC flow.txt round
// trip, and FCTs — a flow alone on an idle path has slowdown exactly 1, flows that share a
// bottleneck are slowed down, the same seed gives the same results.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "error_text.hpp"
#include "rdmasim/flows.hpp"

using namespace rdmasim;
using rdmasim::testing::error_text;

namespace {

FlowsConfig fat_tree(std::vector<FlowArrival> flows) {
  FlowsConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "fat-tree";
  c.base.fabric.k = 4;
  c.flows = std::move(flows);
  return c;
}

}  // namespace

TEST(FlowSizeCdf, MeanAndInverseFollowThePiecewiseLinearCdf) {
  const FlowSizeCdf& ws = flow_size_cdf("websearch");
  // Trapezoids: sum of (x_i + x_{i-1}) / 2 x (y_i - y_{i-1}) / 100.
  EXPECT_DOUBLE_EQ(ws.mean(), (5000.0 * 15 + 15000.0 * 5 + 25000.0 * 10 + 40000.0 * 10 + 65000.0 * 13 + 140000.0 * 7 +
                               600000.0 * 10 + 1500000.0 * 10 + 3500000.0 * 10 + 7500000.0 * 7 + 20000000.0 * 3) /
                                  100);
  EXPECT_EQ(ws.size_at(0.0), 1);             // 0 bytes: at least 1
  EXPECT_EQ(ws.size_at(0.15), 10000);        // a point
  EXPECT_EQ(ws.size_at(0.175), 15000);       // halfway between 10000 (15 %) and 20000 (20 %)
  EXPECT_DOUBLE_EQ(ws.cdf(15000), 0.175);
  EXPECT_DOUBLE_EQ(flow_size_cdf("hadoop").cdf(1e7), 1.0);
  EXPECT_NE(error_text([] { flow_size_cdf("uniform"); }).find("valid: websearch, hadoop"), std::string::npos);
}

TEST(FlowSizeCdf, FilesAreCheckedLineByLine) {
  const FlowSizeCdf c = parse_flow_size_cdf("# sizes\n0 0\n1000 50\n\n3000 100\n", "my.cdf");
  EXPECT_DOUBLE_EQ(c.mean(), (500.0 * 50 + 2000.0 * 50) / 100);
  EXPECT_EQ(error_text([] { parse_flow_size_cdf("0 0\n1000 x\n", "a.cdf"); }),
            "a.cdf:2: expected \"bytes percent\", got \"1000 x\"");
  EXPECT_EQ(error_text([] { parse_flow_size_cdf("0 0\n1000 60\n900 100\n", "b.cdf"); }),
            "b.cdf: point 3: sizes and percents must both rise");
  EXPECT_EQ(error_text([] { parse_flow_size_cdf("0 0\n1000 90\n", "c.cdf"); }),
            "c.cdf: the percents must start at 0 and end at 100");
}

TEST(PoissonFlows, ArrivalsMeetTheLoadAndSizesFollowTheCdf) {
  const FlowSizeCdf& ws = flow_size_cdf("websearch");
  const Rate rate = Rate::gbps(100);
  const Time span = Time::ms(200);
  const auto flows = poisson_flows(ws, 16, rate, 0.5, span, 0, 7);
  ASSERT_GT(flows.size(), 10000u);
  double bytes = 0;
  std::vector<double> sizes;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const FlowArrival& f = flows[i];
    EXPECT_NE(f.src, f.dst);
    EXPECT_LT(f.start, span);
    EXPECT_EQ(f.start.count_ps() % 1000, 0);  // whole nanoseconds, as the HPCC generator
    if (i > 0) {
      EXPECT_LE(flows[i - 1].start, f.start);
    }
    bytes += static_cast<double>(f.size.count());
    sizes.push_back(static_cast<double>(f.size.count()));
  }
  const double load = bytes * 8 / (16 * 100e9 * 0.2);
  EXPECT_NEAR(load, 0.5, 0.5 * 0.02);
  // Kolmogorov-Smirnov distance of the sampled sizes from the CDF: below 1.63 / sqrt(n) (the
  // 1 % critical value) — sizes are truncated to whole bytes, a shift far below that.
  std::sort(sizes.begin(), sizes.end());
  const double n = static_cast<double>(sizes.size());
  double d = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const double f = ws.cdf(sizes[i]);
    d = std::max({d, std::abs(static_cast<double>(i + 1) / n - f), std::abs(f - static_cast<double>(i) / n)});
  }
  EXPECT_LT(d, 1.63 / std::sqrt(n));
  // The same seed, the same flows; a flow count alone gives the first flows of the same streams.
  EXPECT_EQ(poisson_flows(ws, 16, rate, 0.5, span, 0, 7), flows);
  const auto first = poisson_flows(ws, 16, rate, 0.5, Time::zero(), 100, 7);
  EXPECT_EQ(first, std::vector<FlowArrival>(flows.begin(), flows.begin() + 100));
  EXPECT_NE(poisson_flows(ws, 16, rate, 0.5, span, 0, 8).front(), flows.front());
}

TEST(HpccFlowFile, RoundTripsAndNamesBadLines) {
  auto flows = poisson_flows(flow_size_cdf("hadoop"), 8, Rate::gbps(100), 0.3, Time::us(200), 0, 3);
  ASSERT_GT(flows.size(), 20u);
  const std::string text = hpcc_flow_file(flows);
  for (FlowArrival& f : flows) f.tc = 3;  // the data class is written as priority 3, as the HPCC generator does
  EXPECT_EQ(text.substr(0, text.find('\n')), std::to_string(flows.size()));
  EXPECT_EQ(parse_hpcc_flow_file(text, "flow.txt"), flows);
  EXPECT_EQ(parse_hpcc_flow_file("2\n0 1 3 100 5000 2.000000001\n1 0 3 100 70 2.0\n", "f.txt"),
            (std::vector<FlowArrival>{{1, 0, Bytes(70), Time::ms(2000), 3}, {0, 1, Bytes(5000), Time::ps(2'000'000'001'000), 3}}));
  EXPECT_EQ(error_text([] { parse_hpcc_flow_file("2\n0 1 3 100 5000 0.1\n", "f.txt"); }), "f.txt: says 2 flows and lists 1");
  EXPECT_EQ(error_text([] { parse_hpcc_flow_file("1\n0 1 3 100 5000\n", "f.txt"); }),
            "f.txt:2: expected \"src dst priority dport size start_seconds\", got \"0 1 3 100 5000\"");
}

TEST(RunFlows, AFlowAloneOnAnIdlePathHasSlowdownExactlyOne) {
  for (std::int64_t size : {1, 4096, 100'000, 3'000'000}) {
    const FlowsResult r = run_flows(fat_tree({{0, 15, Bytes(size), Time::us(5)}}));
    ASSERT_EQ(r.completed, 1) << size;
    EXPECT_EQ(r.flows[0].fct, r.flows[0].ideal) << size;
    EXPECT_DOUBLE_EQ(r.flows[0].slowdown, 1.0) << size;
    EXPECT_EQ(r.invariant_violations, 0);
  }
  // Far apart in time, each is alone: each at slowdown 1.
  const FlowsResult apart =
      run_flows(fat_tree({{0, 15, Bytes(200'000), Time::zero()}, {3, 15, Bytes(200'000), Time::ms(1)}}));
  EXPECT_DOUBLE_EQ(apart.flows[0].slowdown, 1.0);
  EXPECT_DOUBLE_EQ(apart.flows[1].slowdown, 1.0);
}

TEST(RunFlows, FlowsSharingTheReceiversLinkAreSlowedDown) {
  // Two 1 MB flows into h15 at once: its link carries both, so each takes about twice as long.
  const FlowsResult r =
      run_flows(fat_tree({{0, 15, Bytes(1'000'000), Time::zero()}, {4, 15, Bytes(1'000'000), Time::zero()}}));
  ASSERT_EQ(r.completed, 2);
  const double worst = std::max(r.flows[0].slowdown, r.flows[1].slowdown);
  EXPECT_GT(worst, 1.8);
  EXPECT_LT(worst, 2.1);
  EXPECT_EQ(r.fabric.lossless_drops, 0u);
  const SlowdownRow& all = r.buckets.back();
  EXPECT_EQ(all.bucket, "all");
  EXPECT_EQ(all.flows, 2);
  EXPECT_DOUBLE_EQ(all.p99, worst);
}

TEST(RunFlows, AWebSearchLoadIsDeterministicAndEveryFlowCompletes) {
  FlowsConfig c = fat_tree(poisson_flows(flow_size_cdf("websearch"), 16, Rate::gbps(100), 0.3, Time::us(300), 0, 1));
  const FlowsResult a = run_flows(c), b = run_flows(c);
  ASSERT_GT(a.flows.size(), 10u);
  EXPECT_EQ(a.completed, static_cast<std::int64_t>(a.flows.size()));
  EXPECT_EQ(a.invariant_violations, 0);
  for (std::size_t i = 0; i < a.flows.size(); ++i) {
    EXPECT_EQ(a.flows[i].fct, b.flows[i].fct) << i;
    EXPECT_GE(a.flows[i].slowdown, 1.0) << i;
  }
  EXPECT_EQ(a.events, b.events);
}

TEST(RunFlows, BadFlowsAreRefused) {
  EXPECT_EQ(error_text([] { run_flows(fat_tree({{0, 16, Bytes(10), Time::zero()}})); }), "flow 1: hosts are 0..15");
  EXPECT_EQ(error_text([] { run_flows(fat_tree({{3, 3, Bytes(10), Time::zero()}})); }), "flow 1: a flow to its own host");
  EXPECT_EQ(error_text([] {
              run_flows(fat_tree({{0, 1, Bytes(10), Time::us(2)}, {1, 0, Bytes(10), Time::us(1)}}));
            }),
            "flow 2: start times must be 0 or more, in order");
  FlowsConfig b2b;
  EXPECT_EQ(error_text([&] { run_flows(b2b); }), "open-loop flows run on a switched --topology");
}

TEST(RunFlows, AQpIsFreedOnceItsFlowIsDoneEvenUnderLoss) {
  static_assert(sizeof(FlowRecord) == 72, "what a done flow keeps");
  for (const double loss : {0.0, 1e-3}) {
    FlowsConfig c = fat_tree(poisson_flows(flow_size_cdf("hadoop"), 16, Rate::gbps(100), 0.3, Time::zero(), 2000, 1));
    c.base.fabric.loss = loss;
    const FlowsResult r = run_flows(c);
    EXPECT_EQ(r.completed, 2000) << loss;
    EXPECT_EQ(r.failed_qps, 0) << loss;
    // About 2000 flows over 5 ms at 0.3 load: a few dozen in progress at a time, and about as
    // many QPs held (a done flow's freed once idle, looked at every 10 us).
    EXPECT_EQ(r.peak_qps, loss == 0 ? 40 : 72) << loss;
    EXPECT_EQ(r.peak_qps_held, loss == 0 ? 40 : 72) << loss;
    EXPECT_TRUE(r.fabric.conserved);
    EXPECT_EQ(r.fabric.in_flight, 0u);
    std::uint64_t resent = 0;
    for (const FlowRecord& f : r.flows) resent += f.retransmitted;
    EXPECT_EQ(resent, r.rc.retransmitted) << loss;  // every QP's counters reached its record and the totals
    if (loss > 0) {
      EXPECT_EQ(r.rc.retransmitted, 15900u);
    }
  }
}

TEST(PoissonFlows, AFlowCountUpToTheCapIsHonoured) {
  // The horizon drawn for a count may hold more flows than the cap: only the count is cut to.
  EXPECT_EQ(poisson_flows(flow_size_cdf("hadoop"), 16, Rate::gbps(100), 0.3, Time::zero(),
                          static_cast<std::int64_t>(kMaxOpenLoopFlows), 1)
                .size(),
            kMaxOpenLoopFlows);
}

TEST(FlowSizeCdf, TheBuiltInsHaveTheirPublishedMeans) {
  // The means the HPCC simulator's generator computes from the same files (trapezoids).
  EXPECT_NEAR(flow_size_cdf("websearch").mean(), 1711250.0, 1e-6);
  EXPECT_NEAR(flow_size_cdf("hadoop").mean(), 120420.75, 1e-6);
  EXPECT_NEAR(flow_size_cdf("alistorage").mean(), 40869.8, 1e-6);
  EXPECT_NEAR(flow_size_cdf("googlerpc").mean(), 2891.62125005, 1e-6);
  EXPECT_EQ(flow_size_cdf("googlerpc").points.size(), 843u);
  EXPECT_EQ(flow_size_cdf("googlerpc").size_at(0.5), 256);  // 256.97 between 256 (49.79 %) and 268, truncated
}

TEST(IncastBursts, FanInDistinctSendersToOneReceiverEveryPeriod) {
  IncastBursts b;
  b.every = Time::us(100);
  b.fanin = 5;
  b.size = Bytes(4096);
  b.tc = 1;
  const auto flows = incast_burst_flows(b, 16, Time::us(450), 7);
  ASSERT_EQ(flows.size(), 4u * 5);  // bursts at 100, 200, 300, 400 us
  for (std::size_t k = 0; k < 4; ++k) {
    std::vector<int> senders;
    for (std::size_t i = 0; i < 5; ++i) {
      const FlowArrival& f = flows[k * 5 + i];
      EXPECT_EQ(f.start, Time::us(100) * static_cast<std::int64_t>(k + 1));
      EXPECT_EQ(f.dst, flows[k * 5].dst);
      EXPECT_NE(f.src, f.dst);
      EXPECT_EQ(f.size, Bytes(4096));
      EXPECT_EQ(f.tc, 1);
      senders.push_back(f.src);
    }
    std::sort(senders.begin(), senders.end());
    EXPECT_EQ(std::unique(senders.begin(), senders.end()), senders.end());  // distinct
  }
  EXPECT_EQ(flows, incast_burst_flows(b, 16, Time::us(450), 7));  // the seed decides
  EXPECT_NE(flows, incast_burst_flows(b, 16, Time::us(450), 8));
  b.fanin = 16;
  EXPECT_EQ(error_text([&] { incast_burst_flows(b, 16, Time::us(450), 7); }),
            "--incast-fanin: 16 senders need more than 16 hosts");
  // Mixed into a background load: one start order, ties keeping the background first.
  const std::vector<FlowArrival> bg = {{0, 1, Bytes(10), Time::us(100)}, {2, 3, Bytes(10), Time::us(150)}};
  const auto mixed = merge_flows(bg, flows);
  ASSERT_EQ(mixed.size(), 22u);
  EXPECT_EQ(mixed[0], bg[0]);
  EXPECT_EQ(mixed[6], bg[1]);
  EXPECT_TRUE(std::is_sorted(mixed.begin(), mixed.end(),
                             [](const FlowArrival& x, const FlowArrival& y) { return x.start < y.start; }));
}

TEST(FlowFile, RdmasimsOwnFormatRoundTripsWithClasses) {
  const auto flows = parse_flow_file(
      "rdmasim-flows 1\n# start src dst size [tc]\n2us 3 15 1MiB tc=5\n0.5us 0 15 64KB  # first\n\n", "f.txt");
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0], (FlowArrival{0, 15, Bytes(64000), Time::ns(500), -1}));  // sorted by start
  EXPECT_EQ(flows[1], (FlowArrival{3, 15, Bytes(1 << 20), Time::us(2), 5}));
  EXPECT_EQ(parse_flow_file(rdmasim_flow_file(flows), "again"), flows);
  // The HPCC format: its priority column is the flow's class.
  const auto hpcc = parse_flow_file("1\n0 1 5 100 4096 0.000000010\n", "flow.txt");
  EXPECT_EQ(hpcc.front().tc, 5);
  EXPECT_EQ(parse_flow_file(hpcc_flow_file(hpcc), "again"), hpcc);
  EXPECT_EQ(error_text([] { parse_flow_file("rdmasim-flows 1\n1us 0 1 10 tc=9\n", "g.txt"); }),
            "g.txt:2: expected tc=0..7, got \"tc=9\"");
  EXPECT_EQ(error_text([] { parse_flow_file("rdmasim-flows 1\n1us 0 x 10\n", "g.txt"); }),
            "g.txt:2: a host is a number from 0, got \"x\"");
  EXPECT_EQ(error_text([] { parse_flow_file("rdmasim-flows 2\n", "g.txt"); }), "g.txt:1: expected \"rdmasim-flows 1\"");
}

TEST(RunFlows, AFlowsClassDecidesWhetherPfcProtectsIt) {
  // Eight 1 MB flows into host 15 at once: in the data class (lossless, PFC) nothing is dropped;
  // in class 0 (lossy) the switch drops and the RC resends, and no pause frame is sent.
  std::vector<FlowArrival> incast;
  for (int s = 0; s < 8; ++s) incast.push_back({s, 15, Bytes(1'000'000), Time::zero()});
  const FlowsResult lossless = run_flows(fat_tree(incast));
  for (FlowArrival& f : incast) f.tc = 0;
  FlowsConfig c = fat_tree(incast);
  c.base.profile.sw.buffer = Bytes(1 << 20);  // a small shared buffer: class 0 overflows it
  const FlowsResult lossy = run_flows(c);
  EXPECT_EQ(lossless.fabric.dropped, 0u);
  EXPECT_GT(lossless.fabric.pause_frames, 0u);
  EXPECT_GT(lossy.fabric.dropped, 0u);
  EXPECT_EQ(lossy.fabric.pause_frames, 0u);
  EXPECT_GT(lossy.rc.retransmitted, 0u);
  EXPECT_EQ(lossy.completed, 8);
  EXPECT_EQ(lossy.fabric.lossless_drops, 0u);
}

TEST(RunFlows, EveryPfcFrameReceivedIsLogged) {
  std::vector<FlowArrival> incast;
  for (int s = 0; s < 8; ++s) incast.push_back({s, 15, Bytes(1'000'000), Time::zero()});
  FlowsConfig c = fat_tree(incast);
  c.log_pfc = true;
  const FlowsResult r = run_flows(c);
  ASSERT_GT(r.pfc.size(), 0u);
  EXPECT_EQ(r.pfc.size(), r.fabric.pause_frames);  // each frame sent is received once (no link down)
  EXPECT_TRUE(std::is_sorted(r.pfc.begin(), r.pfc.end(), [](const PfcFrame& a, const PfcFrame& b) { return a.at < b.at; }));
  // Every pause is lifted: per port and priority they alternate, pause first, resume last.
  std::map<std::tuple<int, int, int>, bool> paused;
  for (const PfcFrame& f : r.pfc) {
    EXPECT_EQ(f.tc, 3);  // the data class
    EXPECT_GE(f.if_index, 1);
    bool& p = paused[{f.node, f.if_index, f.tc}];
    EXPECT_NE(p, f.pause);
    p = f.pause;
  }
  for (const auto& [port, p] : paused) EXPECT_FALSE(p);
  EXPECT_TRUE(run_flows(fat_tree(incast)).pfc.empty());  // only when asked
}
