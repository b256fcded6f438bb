// Single-flow goodput equals B x payload / (payload + per-packet
// overhead) within 0.5 %, back-to-back and through a fat-tree, RoCE and IB framing; a larger
// MTU gives measurably more goodput (the usual advice "raise the MTU").
#include "rdmasim/bandwidth.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include <stdexcept>

#include "model/path.hpp"

using namespace rdmasim;

namespace {
BwResult run(LinkLayer layer, std::int64_t mtu, bool fabric, TestKind test = TestKind::write) {
  BwConfig c;
  c.base.test = test;
  c.base.size = Bytes(65536);
  c.base.iters = 600;
  c.base.mtu = Bytes(mtu);
  c.base.link_layer = layer;
  if (fabric) {
    c.base.topology = LatTopology::fabric;
    c.base.fabric.to = 15;  // cross-pod in a k=4 fat-tree
  }
  return run_bandwidth(c);
}
}  // namespace

TEST(Bandwidth, GoodputEqualsTheFramingFormula) {
  for (bool fabric : {false, true})
    for (LinkLayer l : {LinkLayer::roce, LinkLayer::ib})
      for (std::int64_t mtu : {1024, 4096}) {
        const BwResult r = run(l, mtu, fabric);
        SCOPED_TRACE(std::to_string(mtu) + (fabric ? " fabric" : " b2b") + (l == LinkLayer::ib ? " ib" : " roce"));
        EXPECT_EQ(r.invariant_violations, 0);
        EXPECT_NEAR(r.bw_avg_bps / r.ideal_bps, 1.0, 0.005);
        EXPECT_LE(r.bw_avg_bps, r.ideal_bps * 1.0000001);
        EXPECT_GE(r.bw_peak_bps, r.bw_avg_bps * 0.9999999);
        // ideal = B * payload / wire, wire = payload + per-packet headers
        const double ideal = 100e9 * 65536.0 / static_cast<double>(r.wire_bytes_per_message.count());
        EXPECT_DOUBLE_EQ(r.ideal_bps, ideal);
      }
}

TEST(Bandwidth, LargerMtuRaisesGoodput) {
  const BwResult small = run(LinkLayer::roce, 1024, false), large = run(LinkLayer::roce, 4096, false);
  EXPECT_GT(large.bw_avg_bps - small.bw_avg_bps, 5e9);  // ~92.6 vs ~98.0 Gb/s
  EXPECT_EQ(small.packets_per_message, 64);
  EXPECT_EQ(large.packets_per_message, 16);
}

TEST(Bandwidth, SendAndSmallWindows) {
  const BwResult send = run(LinkLayer::roce, 4096, false, TestKind::send);
  EXPECT_NEAR(send.bw_avg_bps / send.ideal_bps, 1.0, 0.005);
  BwConfig c;
  c.base.size = Bytes(65536);
  c.base.iters = 200;
  c.tx_depth = 1;  // one message at a time: latency-bound, far below the link
  const BwResult one = run_bandwidth(c);
  EXPECT_LT(one.bw_avg_bps, 0.95 * one.ideal_bps);
  c.tx_depth = 0;
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);
}

TEST(Bandwidth, ReadOverASwitchMatchesItsClosedFormAndIsRefusedWhereFramesCanBeLost) {
  // One READ at a time across the fat-tree: each is the closed form's round trip exactly (the
  // request out, 16 responses back through three switches each way, the completion).
  BwConfig c;
  c.base.size = Bytes(65536);
  c.base.iters = 50;
  c.base.test = TestKind::read;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.to = 15;
  c.tx_depth = 1;
  c.base.record_samples = true;
  const BwResult one = run_bandwidth(c);
  ASSERT_EQ(one.completed, 50);
  const Time budget = run_budget(c.base).rtt.total();
  for (std::size_t i = 0; i < one.completed_ps.size(); ++i)
    EXPECT_EQ(one.completed_ps[i] - one.posted_ps[i], budget.count_ps()) << i;
  EXPECT_FALSE(one.rc.has_value());  // no RC transport on the READ path: nothing to resend
  // A window of READs fills the responder's link: its responses are the data.
  c.tx_depth = 16;
  c.base.iters = 2000;
  c.base.record_samples = false;
  const BwResult full = run_bandwidth(c);
  EXPECT_NEAR(full.bw_avg_bps / full.ideal_bps, 1.0, 0.005);
  EXPECT_EQ(full.fabric->dropped, 0u);
  for (const auto& refuse : std::vector<std::function<void(BwConfig&)>>{
           [](BwConfig& x) { x.base.fabric.loss = 1e-5; },
           [](BwConfig& x) { x.base.fabric.cc = "dcqcn"; },
           [](BwConfig& x) { x.base.profile.sw.lossless = false; },
           [](BwConfig& x) { x.base.fabric.faults.push_back({"edge0.0", "agg0.0", {}, 0, {3}, {}}); }}) {
    BwConfig x = c;
    refuse(x);
    EXPECT_THROW(run_bandwidth(x), std::invalid_argument);
  }
}

TEST(Bandwidth, FabricAppenderOutlivesItsNetwork) {
  // Regression: the appender must keep the topology its routes refer to alive.
  LatConfig c;
  c.topology = LatTopology::fabric;
  c.fabric.to = 15;
  NetworkAppender a;
  {
    const FabricNetwork n(c);
    a = n.appender();
  }
  PathSpec p;
  a(p, 0);
  ASSERT_EQ(p.stages.size(), 1u);  // one network stage...
  ASSERT_EQ(p.stages[0].kind, StageKind::network);
  EXPECT_EQ(p.stages[0].network->topology->host_count(), 16);
  ASSERT_EQ(p.stages[0].expansion.size(), 1u);
  EXPECT_EQ(p.stages[0].expansion[0].stages.size(), 6u * 2 + 5);  // ...its route: 6 cables x (serialize, propagate) + 5 pipelines
}

TEST(Bandwidth, DegradedLinkSetsTheIdealAndTheGoodput) {
  BwConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.to = 15;
  c.base.size = Bytes(65536);
  c.base.iters = 200;
  c.base.fabric.faults.push_back(LinkFault{"edge3.1", "h15", Rate::gbps(40), 0, {}, {}});
  const BwResult r = run_bandwidth(c);
  EXPECT_NEAR(r.ideal_bps, 40e9 * 65536 / static_cast<double>(r.wire_bytes_per_message.count()), 1e3);
  EXPECT_NEAR(r.bw_avg_bps / r.ideal_bps, 1.0, 0.01);
  ASSERT_TRUE(r.fabric.has_value());
  EXPECT_TRUE(r.fabric->conserved);
  c.base.fabric.faults[0].a = "edge0.0";  // not a cable
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);
}

// The CPU accounting's window is the run, first post to last completion: packet-level TCP
// leaves a retransmission timer armed after its last ACK, and the run used to report CPU use
// over the second that timer added (1.0009 s for any run length, CPU % 20-50x too low).
TEST(Bandwidth, CpuAccountingCoversTheRunNotTheTimersLeftAfterIt) {
  BwConfig c;
  c.base.transport = Transport::tcp;
  c.base.test = TestKind::send;
  c.base.size = Bytes(65536);
  c.base.iters = 200;
  const BwResult r = run_bandwidth(c);
  ASSERT_EQ(r.completed, 200);
  EXPECT_EQ(r.simulated.count_ps(), static_cast<std::int64_t>(std::llround(r.seconds * 1e12)));
  EXPECT_LT(r.simulated, Time::ms(10));
  // The receiver's core does the stack's work and the copy for every byte: busy most of the run.
  EXPECT_GT(r.hosts[1].cpu_busy, r.simulated / 2);
  EXPECT_LE(r.hosts[1].cpu_busy, r.simulated);
}
