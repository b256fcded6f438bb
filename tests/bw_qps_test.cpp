// run_bandwidth's perftest options beyond one QP one way: -q QPs (each with its own window and
// iterations, over a fabric each on its own ECMP route), -b bidirectional (both directions on
// the same hosts and wires, figures summed), --test read (the READ round trip with -o
// outstanding reads) and -D duration (messages counted inside the margins).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "model/path.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/latency.hpp"

using namespace rdmasim;

namespace {
BwConfig config(std::int64_t iters = 300) {
  BwConfig c;
  c.base.size = Bytes(65536);
  c.base.iters = iters;
  return c;
}
// 65536 B in 4096 B packets: 16 frames of preamble+SFD 8, Ethernet 14, IPv4 20, UDP 8, BTH 12,
// ICRC 4, FCS 4, IFG 12 (82 B each), written out here rather than taken from the model.
constexpr double kRoceFrames = 16 * 82.0;
}  // namespace

TEST(BwQps, EveryQpPostsItsIterationsAndTheyShareTheLink) {
  BwConfig c = config();
  const BwResult one = run_bandwidth(c);
  c.qps = 4;
  const BwResult four = run_bandwidth(c);
  EXPECT_EQ(four.invariant_violations, 0);
  EXPECT_EQ(four.completed, 4 * c.base.iters);
  ASSERT_EQ(four.directions.size(), 1u);
  EXPECT_DOUBLE_EQ(four.ideal_bps, one.ideal_bps);  // one cable: the same bottleneck
  EXPECT_DOUBLE_EQ(four.ideal_bps,
                   100e9 * 65536.0 / (65536.0 + kRoceFrames + 16));  // + RETH on the first
  EXPECT_NEAR(four.bw_avg_bps / four.ideal_bps, 1.0, 0.005);
  EXPECT_LE(four.bw_avg_bps, four.ideal_bps * 1.0000001);
  // Four QPs carry four times the messages over the same link: about four times as long.
  EXPECT_NEAR(four.seconds / one.seconds, 4.0, 0.02);
}

TEST(BwQps, FabricQpsFollowTheirOwnEcmpRoutes) {
  BwConfig c = config(100);
  c.base.topology = LatTopology::fabric;
  c.base.fabric.to = 15;  // cross-pod in a k=4 fat-tree: 4 equal-cost paths
  c.qps = 4;
  c.tx_depth = 16;
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.fabric);
  EXPECT_TRUE(r.fabric->conserved);
  EXPECT_EQ(r.completed, 4 * c.base.iters);
  ASSERT_EQ(r.routes.size(), 8u);  // route and reply route per QP
  // Each QP's route is the one its own UDP source port hashes to; the packets each uplink of
  // edge0.0 carried are those of the QPs routed over it.
  const auto topo = FabricNetwork::make_topology(c.base);
  std::map<std::string, std::uint64_t> expected;
  for (int q = 0; q < c.qps; ++q) {
    const FabricNetwork n(topo, c.base.profile, fabric_options(c.base), 0, 15,
                          static_cast<std::uint16_t>(c.base.fabric.udp_sport + q));
    EXPECT_EQ(r.routes[static_cast<std::size_t>(2 * q)], n.routes[0]);
    EXPECT_EQ(r.routes[static_cast<std::size_t>(2 * q + 1)], n.routes[1]);
    const std::string& route = n.routes[0];
    const std::string agg =
        route.substr(route.find("edge0.0 -> ") + 11, 6);  // "agg0.0" or "agg0.1"
    expected["edge0.0->" + agg] += static_cast<std::uint64_t>(c.base.iters) * 16;
  }
  for (const PortStats& p : r.fabric->ports)
    if (p.port.rfind("edge0.0->agg", 0) == 0) EXPECT_EQ(p.tx_packets, expected[p.port]) << p.port;
}

TEST(BwBidirectional, SumsTheTwoDirections) {
  BwConfig c = config();
  const BwResult one = run_bandwidth(c);
  c.bidirectional = true;
  const BwResult both = run_bandwidth(c);
  EXPECT_EQ(both.invariant_violations, 0);
  EXPECT_EQ(both.completed, 2 * c.base.iters);
  ASSERT_EQ(both.directions.size(), 2u);
  EXPECT_DOUBLE_EQ(both.ideal_bps, 2 * one.ideal_bps);
  EXPECT_DOUBLE_EQ(both.bw_avg_bps, both.directions[0].bw_avg_bps + both.directions[1].bw_avg_bps);
  EXPECT_DOUBLE_EQ(both.msg_rate_mpps,
                   both.directions[0].msg_rate_mpps + both.directions[1].msg_rate_mpps);
  // Full duplex: each direction's data shares its wire only with the other direction's ACKs.
  for (const BwDirection& d : both.directions) {
    EXPECT_EQ(d.completed, c.base.iters);
    EXPECT_NEAR(d.bw_avg_bps / one.ideal_bps, 1.0, 0.005);
  }
}

TEST(BwBidirectional, EachDirectionReceivesIntoItsOwnMemory) {
  // A's buffer in GPU memory without GPUDirect, B's in host memory: only B -> A lands in a GPU
  // through a staged H2D copy (the receiving application's completion), so only half the
  // messages have a receive side, and A's GPU copies both ways (D2H to send, H2D to receive).
  BwConfig c = config(100);
  c.base.gpu.mem[0] = MemKind::gpu;
  c.base.gpu.gpudirect = false;
  const BwResult one = run_bandwidth(c);
  EXPECT_EQ(one.rx_completed, 0);
  c.bidirectional = true;
  const BwResult both = run_bandwidth(c);
  EXPECT_EQ(both.invariant_violations, 0);
  EXPECT_EQ(both.completed, 2 * c.base.iters);
  EXPECT_EQ(both.rx_completed, c.base.iters);
  EXPECT_GT(both.hosts[0].gpu_copy_busy.count_ps(), 3 * one.hosts[0].gpu_copy_busy.count_ps() / 2);
  EXPECT_EQ(both.hosts[1].gpu_copy_busy, Time::zero());
}

TEST(BwRead, AWindowOfOneIsTheReadRoundTrip) {
  BwConfig c = config(200);
  c.base.test = TestKind::read;
  c.outstanding_reads = 1;  // tx_depth stays 128: the QP's max_rd_atomic is the window
  const BwResult r = run_bandwidth(c);
  EXPECT_EQ(r.invariant_violations, 0);
  EXPECT_EQ(r.completed, c.base.iters);
  LatConfig l = c.base;
  const LatResult lat = run_latency(l);
  ASSERT_EQ(lat.rtt_factor, 1);
  // One read at a time: the next is posted at the previous one's completion.
  EXPECT_NEAR(r.seconds * 1e12 / static_cast<double>(r.completed), lat.stats.avg_ps, 1.0);
  c.outstanding_reads = 16;
  c.tx_depth = 1;
  EXPECT_DOUBLE_EQ(run_bandwidth(c).bw_avg_bps, r.bw_avg_bps);  // the smaller of the two bounds
}

TEST(BwRead, OutstandingReadsFillTheLink) {
  BwConfig c = config();
  c.base.test = TestKind::read;
  const BwResult r = run_bandwidth(c);
  // Read responses: AETH on the first and the last packet, no RETH.
  EXPECT_EQ(r.wire_bytes_per_message.count(),
            static_cast<std::int64_t>(65536 + kRoceFrames + 2 * 4));
  EXPECT_NEAR(r.bw_avg_bps / r.ideal_bps, 1.0, 0.005);
  EXPECT_LE(r.bw_avg_bps, r.ideal_bps * 1.0000001);
}

TEST(BwDuration, CountsTheCompletionsInsideTheMargins) {
  BwConfig c = config();
  c.duration = Time::ms(1);
  c.margin = Time::us(100);
  c.base.record_samples = true;
  const BwResult r = run_bandwidth(c);
  EXPECT_EQ(r.invariant_violations, 0);
  ASSERT_FALSE(r.posted_ps.empty());
  EXPECT_LT(*std::max_element(r.posted_ps.begin(), r.posted_ps.end()),
            c.duration.count_ps());  // none posted after
  const auto inside =
      std::count_if(r.completed_ps.begin(), r.completed_ps.end(), [&](std::int64_t t) {
        return t >= c.margin.count_ps() && t <= (c.duration - c.margin).count_ps();
      });
  EXPECT_EQ(r.completed, inside);
  EXPECT_LT(r.completed, static_cast<std::int64_t>(r.completed_ps.size()));
  EXPECT_DOUBLE_EQ(r.seconds, 800e-6);
  EXPECT_NEAR(r.bw_avg_bps / r.ideal_bps, 1.0, 0.005);
  EXPECT_EQ(r.bw_peak_bps, 0.0);  // perftest keeps no per-message times in duration mode
  c.duration = Time::ms(2);
  const BwResult twice = run_bandwidth(c);
  EXPECT_NEAR(static_cast<double>(twice.completed) / static_cast<double>(r.completed), 1.8 / 0.8,
              0.01);  // windows of 1.8 ms and 0.8 ms
}

TEST(BwOptions, BadCombinationsAreRefused) {
  const auto refused = [](BwConfig c) { EXPECT_THROW(run_bandwidth(c), std::invalid_argument); };
  BwConfig c = config(50);
  c.qps = 0;
  refused(c);
  c = config(50);
  c.margin = Time::us(1);  // without a duration
  refused(c);
  c.duration = Time::us(2);  // twice the margin is the whole duration
  refused(c);
  c = config(50);
  c.bidirectional = true;  // batching drives one direction (several QPs are fine)
  c.post_list = 4;
  refused(c);
  c = config(50);
  c.base.test = TestKind::read;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.to = 15;
  c.base.fabric.loss = 1e-4;  // READ over a switch: lossless fabrics only
  refused(c);
  c = config(50);
  c.base.test = TestKind::read;
  c.base.conn.reuse = 1;
  refused(c);
  c.base.conn.reuse = 0;
  c.outstanding_reads = 0;
  refused(c);
}
