// Link faults: a link between switches goes down (and back up) mid-run; frames routed to it are
// lost until the switches' routing converges, RC recovers them, and traffic moves to the
// remaining equal-cost paths. A link no route uses costs nothing.
#include <gtest/gtest.h>

#include <stdexcept>

#include "rdmasim/bandwidth.hpp"

using namespace rdmasim;

namespace {

// One QP h0 -> h15 across a k=4 fat-tree: its ECMP route is edge0.0 -> agg0.1 -> core2.
BwConfig cross_pod(std::vector<LinkOutage> outages, Time convergence) {
  BwConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "fat-tree";
  c.base.fabric.to = 15;
  c.base.fabric.outages = std::move(outages);
  c.base.profile.sw.route_convergence = convergence;
  c.base.size = Bytes(65536);
  c.base.iters = 2000;
  c.tx_depth = 128;
  return c;
}

const PortStats& port(const FabricStats& s, const std::string& name) {
  for (const PortStats& p : s.ports)
    if (p.port == name) return p;
  static const PortStats none{};
  return none;
}

}  // namespace

TEST(LinkDown, FramesLostUntilConvergenceThenTheOtherCoreCarriesTheFlow) {
  const BwResult r = run_bandwidth(cross_pod({{"agg0.1", "core2", Time::ms(2), Time::max()}}, Time::ms(1)));
  ASSERT_TRUE(r.fabric && r.rc);
  const FabricStats& f = *r.fabric;
  EXPECT_EQ(r.completed, 2000);
  EXPECT_EQ(r.rc->status, "ok");
  EXPECT_EQ(f.link_changes, 1u);
  EXPECT_EQ(f.reroutes, 1u);
  EXPECT_GT(f.link_drops, 0u);
  EXPECT_EQ(f.dropped, f.link_drops);  // every loss is the link's, none a lossless-class drop
  EXPECT_EQ(f.lossless_drops, 0u);
  // Queued for the link, or on its wire when it went down: the one frame on the wire is counted
  // where it arrives (the far end, whose LP sees it whatever the cut).
  EXPECT_EQ(port(f, "core2->agg0.1").link_drops, 1u);
  EXPECT_EQ(port(f, "agg0.1->core2").link_drops + 1, f.link_drops);
  EXPECT_TRUE(f.conserved);
  EXPECT_EQ(f.in_flight, 0u);
  EXPECT_GE(r.rc->retransmitted, f.link_drops);  // go-back-N resends at least every lost frame
  EXPECT_GT(port(f, "agg0.1->core3").tx_packets, 0u);  // rerouted to the other core of the group
}

// InfiniBand: the frames agg0.1 receives for the down link are discarded before they take input
// buffer, so their credits go back to edge0.0 (else that port runs out of credits and the flow,
// rerouted through agg0.1 to core3, stalls until the QP fails). Corrupt frames too.
TEST(LinkDown, OnInfiniBandADiscardedFrameGivesItsCreditBack) {
  BwConfig c = cross_pod({{"agg0.1", "core2", Time::ms(2), Time::max()}}, Time::ms(1));
  c.base.link_layer = LinkLayer::ib;
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.fabric && r.rc);
  EXPECT_GT(r.fabric->link_drops, 0u);
  EXPECT_EQ(r.completed, 2000);
  EXPECT_EQ(r.rc->status, "ok");
  c = cross_pod({}, Time::ms(1));
  c.base.link_layer = LinkLayer::ib;
  c.base.fabric.loss = 1e-3;
  const BwResult lossy = run_bandwidth(c);
  ASSERT_TRUE(lossy.fabric && lossy.rc);
  EXPECT_GT(lossy.fabric->dropped, 0u);
  EXPECT_EQ(lossy.completed, 2000);
  EXPECT_EQ(lossy.rc->status, "ok");
}

TEST(LinkDown, ALongerConvergenceLosesMore) {
  const std::vector<LinkOutage> down{{"agg0.1", "core2", Time::ms(2), Time::ms(6)}};
  const BwResult fast = run_bandwidth(cross_pod(down, Time::zero()));
  const BwResult slow = run_bandwidth(cross_pod(down, Time::ms(1)));
  ASSERT_TRUE(fast.fabric && slow.fabric);
  EXPECT_EQ(fast.fabric->link_changes, 2u);
  EXPECT_EQ(slow.fabric->reroutes, 2u);
  EXPECT_GT(fast.fabric->link_drops, 0u);  // what was queued on the link and on its wire
  EXPECT_LT(fast.fabric->link_drops, slow.fabric->link_drops);
  EXPECT_EQ(fast.completed, 2000);
  EXPECT_EQ(slow.completed, 2000);
}

TEST(LinkDown, ALinkNoRouteUsesChangesNothing) {
  const BwResult base = run_bandwidth(cross_pod({}, Time::ms(1)));
  const BwResult other = run_bandwidth(cross_pod({{"agg1.0", "core0", Time::us(500), Time::ms(3)}}, Time::ms(1)));
  ASSERT_TRUE(base.fabric && other.fabric);
  EXPECT_EQ(other.fabric->dropped, 0u);
  EXPECT_EQ(other.fabric->reroutes, 2u);
  EXPECT_DOUBLE_EQ(other.bw_avg_bps, base.bw_avg_bps);
}

TEST(LinkDown, OnlyLinksBetweenSwitchesAndUpAfterDown) {
  EXPECT_THROW(run_bandwidth(cross_pod({{"h0", "edge0.0", Time::ms(1), Time::max()}}, Time::ms(1))), std::invalid_argument);
  EXPECT_THROW(run_bandwidth(cross_pod({{"agg0.1", "core2", Time::ms(2), Time::ms(1)}}, Time::ms(1))), std::invalid_argument);
  EXPECT_THROW(run_bandwidth(cross_pod({{"agg0.1", "core9", Time::ms(2), Time::max()}}, Time::ms(1))), std::invalid_argument);
}
