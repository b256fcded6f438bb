// Many flows on a fabric: ECMP collisions predicted from the same hash function decide the
// goodput; incast shares the receiver's link; conservation of every message.
#include "rdmasim/traffic.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "net/ecmp.hpp"
#include "sim_rig.hpp"

using namespace rdmasim;

namespace {

TrafficConfig two_flows(std::uint16_t sport) {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.udp_sport = sport;
  c.base.size = Bytes(65536);
  c.base.iters = 300;
  c.tx_depth = 32;
  c.flows = {{0, 14}, {1, 15}};  // edge0.0 -> edge3.1: four core paths to choose from
  return c;
}

// Whether the two flows' ECMP routes share a cable in the data direction (the test's own
// computation from the hash, independent of the simulator).
bool collide(std::uint16_t sport) {
  TopologyParams p;
  p.name = "fat-tree";
  const Topology t = build_topology(p);
  const FabricPath a = ecmp_route(t, 0, 14, roce_flow(0, 14, sport));
  const FabricPath b = ecmp_route(t, 1, 15, roce_flow(1, 15, static_cast<std::uint16_t>(sport + 1)));
  std::set<std::pair<int, int>> used;
  for (std::size_t i = 0; i < a.cables.size(); ++i) used.insert({a.cables[i], a.nodes[i]});
  for (std::size_t i = 0; i < b.cables.size(); ++i)
    if (used.count({b.cables[i], b.nodes[i]})) return true;
  return false;
}

}  // namespace

TEST(Traffic, EcmpCollisionsDecideGoodput) {
  int seen_collision = 0, seen_clear = 0;
  for (std::uint16_t sport = 49152; sport < 49152 + 40 && (seen_collision < 2 || seen_clear < 2); sport += 2) {
    const bool hit = collide(sport);
    if ((hit && seen_collision >= 2) || (!hit && seen_clear >= 2)) continue;
    (hit ? seen_collision : seen_clear)++;
    const TrafficResult r = run_traffic(two_flows(sport));
    EXPECT_EQ(r.invariant_violations, 0);
    ASSERT_EQ(r.flows.size(), 2u);
    for (const FlowResult& f : r.flows) {
      EXPECT_EQ(f.bottleneck_sharing, hit ? 2 : 1) << sport;
      EXPECT_NEAR(f.goodput_bps / f.predicted_bps, 1.0, 0.03) << sport << " " << f.route;
    }
  }
  EXPECT_EQ(seen_collision, 2);
  EXPECT_EQ(seen_clear, 2);
}

TEST(Traffic, IncastSharesTheReceiversLink) {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.size = Bytes(65536);
  c.base.iters = 100;
  c.tx_depth = 8;
  c.pattern = "incast";
  c.incast_senders = 4;
  const TrafficResult r = run_traffic(c);
  ASSERT_EQ(r.flows.size(), 4u);
  // All four share edge0.0 -> h0: the aggregate is that one link's goodput (sum of B_i).
  EXPECT_NEAR(r.aggregate_bps / r.ideal_aggregate_bps, 1.0, 0.02);
  for (const FlowResult& f : r.flows) EXPECT_EQ(f.bottleneck_sharing, 4);
}

TEST(Traffic, PredictedRatesAreMaxMinFair) {
  // Three flows into h14 share its link (a third each); h0's uplink carries one of them and a
  // flow to h1 behind the same edge switch, which gets the rest of that uplink: two thirds.
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.size = Bytes(65536);
  c.base.iters = 5;
  c.flows = {{0, 14}, {1, 14}, {2, 14}, {0, 1}};
  const TrafficResult r = run_traffic(c);
  ASSERT_EQ(r.flows.size(), 4u);
  const double third = r.flows[0].predicted_bps;
  EXPECT_GT(third, 0.0);
  EXPECT_EQ(r.flows[1].predicted_bps, third);
  EXPECT_EQ(r.flows[2].predicted_bps, third);
  EXPECT_DOUBLE_EQ(r.flows[3].predicted_bps, 2 * third);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(r.flows[static_cast<std::size_t>(i)].bottleneck_sharing, 3);
  EXPECT_EQ(r.flows[3].bottleneck_sharing, 2);
}

TEST(Traffic, PatternsAndErrors) {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.iters = 5;
  c.tx_depth = 2;
  c.pattern = "permutation";
  const TrafficResult p = run_traffic(c);
  EXPECT_EQ(p.flows.size(), 16u);
  std::set<int> dsts;
  for (const FlowResult& f : p.flows) {
    EXPECT_NE(f.src, f.dst);
    dsts.insert(f.dst);
  }
  EXPECT_EQ(dsts.size(), 16u);  // a permutation
  c.pattern = "alltoall";
  EXPECT_EQ(run_traffic(c).flows.size(), 16u * 15u);
  c.pattern = "incast";
  c.incast_senders = 16;
  EXPECT_THROW(run_traffic(c), std::invalid_argument);
}

TEST(Traffic, EdgePairMultipath) {
  // Four flows between the hosts of one edge pair (k=4, cross-pod, four
  // equal-cost paths; each host link carries two flows, so sum(B_i) is two links' goodput).
  // Spraying and adaptive routing reach >= 95% of it; ECMP gets what its hashes predict.
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.size = Bytes(65536);
  c.base.iters = 300;
  c.tx_depth = 16;
  c.flows = {{0, 14}, {0, 15}, {1, 14}, {1, 15}};
  c.base.profile.rc.ooo_placement = true;  // multipath NICs place reordered packets
  for (const char* r : {"spray", "adaptive"}) {
    c.base.fabric.routing = r;
    const TrafficResult t = run_traffic(c);
    EXPECT_GE(t.aggregate_bps, 0.95 * t.ideal_aggregate_bps) << r;
    EXPECT_GT(t.out_of_order, 0u) << r;
    EXPECT_TRUE(t.fabric.conserved);
    EXPECT_EQ(t.fabric.lossless_drops, 0u);
    EXPECT_EQ(t.fabric.dropped, 0u);
  }
  // ECMP: the test's own hash computation says whether a switch-to-switch link carries three
  // or more of the flows (each may take half a link, so two fit): then the aggregate falls
  // clearly short; without such a collision the pair of edges is fully used.
  c.base.fabric.routing = "ecmp";
  c.base.iters = 100;
  const Topology topo = rdmasim::testing::fat_tree(4);
  int with_collision = 0, without = 0;
  for (std::uint16_t sport = 49152; sport < 49152 + 400 && (with_collision < 2 || without < 1); sport += 4) {
    std::vector<std::set<std::pair<int, int>>> links;
    for (std::size_t i = 0; i < c.flows.size(); ++i) {
      const auto [src, dst] = c.flows[i];
      const FabricPath p = ecmp_route(topo, src, dst, roce_flow(src, dst, static_cast<std::uint16_t>(sport + i)));
      links.emplace_back();
      for (std::size_t k = 1; k + 1 < p.cables.size(); ++k) links.back().insert({p.cables[k], p.nodes[k]});
    }
    std::vector<bool> shares(c.flows.size(), false);
    for (std::size_t i = 0; i < links.size(); ++i)
      for (const auto& l : links[i]) {
        int n = 0;
        for (const auto& other : links) n += static_cast<int>(other.count(l));
        if (n >= 3) shares[i] = true;
      }
    const bool any = std::find(shares.begin(), shares.end(), true) != shares.end();
    if ((any && with_collision >= 2) || (!any && without >= 1)) continue;
    (any ? with_collision : without)++;
    c.base.fabric.udp_sport = sport;
    const TrafficResult t = run_traffic(c);
    EXPECT_EQ(t.out_of_order, 0u);
    EXPECT_TRUE(t.fabric.conserved);
    if (any)
      EXPECT_LT(t.aggregate_bps, 0.9 * t.ideal_aggregate_bps) << sport;
    else
      EXPECT_GE(t.aggregate_bps, 0.95 * t.ideal_aggregate_bps) << sport;
  }
  EXPECT_EQ(with_collision, 2);
  EXPECT_EQ(without, 1);
}

TEST(Traffic, SprayingReachesTheAggregateEcmpDoesNot) {
  // B_eff < B_agg under ECMP hash collisions; per-packet spraying spreads the load.
  for (std::uint64_t seed : {1, 2, 3}) {
    TrafficConfig c;
    c.base.topology = LatTopology::fabric;
    c.base.size = Bytes(65536);
    c.base.iters = 60;
    c.base.seed = seed;
    c.tx_depth = 16;
    c.pattern = "permutation";
    c.base.profile.rc.ooo_placement = true;  // multipath NICs place reordered packets
    const TrafficResult ecmp = run_traffic(c);
    c.base.fabric.routing = "spray";
    const TrafficResult spray = run_traffic(c);
    EXPECT_EQ(ecmp.out_of_order, 0u);  // one path per flow never reorders
    EXPECT_GT(spray.out_of_order, 0u);
    EXPECT_EQ(spray.invariant_violations, 0);
    EXPECT_GE(spray.aggregate_bps, 0.95 * spray.ideal_aggregate_bps) << seed;
    EXPECT_LT(ecmp.aggregate_bps, 0.85 * spray.aggregate_bps) << seed;
  }
}

namespace {

// 8 senders in pods 1 and 2 send to h0; a victim h12 -> h1 shares the aggregation
// -> edge0.0 links with the incast but not its congested port (edge0.0 -> h0).
TrafficConfig incast_with_victim(bool lossless, bool with_incast) {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.size = Bytes(65536);
  c.base.iters = 40;
  c.tx_depth = 8;
  c.base.profile.sw.lossless = lossless;
  c.base.profile.sw.buffer = Bytes(2 * 1024 * 1024);  // a shallow-buffer switch: 8 x 512 KiB in flight overflow it
  if (with_incast)
    for (int h = 4; h < 12; ++h) c.flows.emplace_back(h, 0);
  c.flows.emplace_back(12, 1);
  return c;
}

const PortStats* port(const TrafficResult& r, const std::string& name) {
  for (const PortStats& p : r.fabric.ports)
    if (p.port == name) return &p;
  return nullptr;
}

}  // namespace

TEST(Traffic, PfcIncastIsLosslessAndBlocksTheVictim) {
  const TrafficResult alone = run_traffic(incast_with_victim(true, false));
  const TrafficResult r = run_traffic(incast_with_victim(true, true));
  EXPECT_EQ(r.fabric.dropped, 0u);
  EXPECT_EQ(r.fabric.lossless_drops, 0u);
  EXPECT_TRUE(r.fabric.conserved);
  EXPECT_EQ(r.fabric.in_flight, 0u);
  for (const FlowResult& f : r.flows) EXPECT_EQ(f.completed, 40);
  // edge0.0 pauses the aggregation switches feeding it; the pause spreads to the senders' NICs.
  std::uint64_t edge_pauses = 0, nic_paused = 0;
  for (const char* p : {"edge0.0->agg0.0", "edge0.0->agg0.1"}) edge_pauses += port(r, p)->pause_tx;
  for (int h = 4; h < 12; ++h) {
    const std::string nic = "h" + std::to_string(h) + "->edge" + std::to_string(h / 4) + "." + std::to_string(h % 4 / 2);
    ASSERT_NE(port(r, nic), nullptr) << nic;
    nic_paused += port(r, nic)->pause_rx;
  }
  EXPECT_GT(edge_pauses, 0u);
  EXPECT_GT(nic_paused, 0u);
  EXPECT_EQ(port(r, "edge0.0->h1")->pause_rx, 0u);  // hosts never pause the fabric
  // Head-of-line blocking: the victim's destination link is idle, yet it is slowed down by
  // the pauses on the links it shares with the incast.
  const double victim_alone = alone.flows.back().goodput_bps, victim = r.flows.back().goodput_bps;
  EXPECT_GT(victim_alone, 0.95 * alone.ideal_aggregate_bps);
  EXPECT_LT(victim, 0.5 * victim_alone);
  EXPECT_LT(port(r, "edge0.0->h1")->utilisation, 0.5);
}

TEST(Traffic, LossyIncastDropsOnTheWayIntoTheIncastPort) {
  const TrafficResult r = run_traffic(incast_with_victim(false, true));
  EXPECT_GT(r.fabric.dropped, 0u);
  EXPECT_EQ(r.fabric.lossless_drops, 0u);
  EXPECT_TRUE(r.fabric.conserved);
  EXPECT_EQ(r.fabric.pause_frames, 0u);
  // Every drop is on the way down into h0's pod: at h0's edge port, and at the core and
  // aggregation ports funnelling 800 Gb/s into edge0.0's two uplinks (which the victim shares).
  std::uint64_t on_the_way = 0;
  for (const PortStats& p : r.fabric.ports) {
    const std::string to = p.port.substr(p.port.find("->") + 2);
    if (to == "h0" || to == "edge0.0" || to == "agg0.0" || to == "agg0.1") on_the_way += p.drops;
  }
  EXPECT_EQ(on_the_way, r.fabric.dropped);
  EXPECT_GT(port(r, "edge0.0->h0")->drops, 0u);
  EXPECT_EQ(port(r, "edge0.0->h1")->drops, 0u);
  std::uint64_t flow_drops = 0;
  for (const FlowResult& f : r.flows) flow_drops += f.dropped;
  EXPECT_EQ(flow_drops, r.fabric.dropped);
  for (const FlowResult& f : r.flows) EXPECT_LE(f.completed, 40);
}

TEST(Traffic, EcmpFallsBelowSprayingOverManySeedsOnK8) {
  // K=8 (128 hosts) random permutations; ECMP's hash collisions cost it a clear
  // share of sum(B_i) on average, spraying stays near it. Mean and spread over 6 seeds. (The
  // aggregate is total bytes / makespan, so the most collided flow sets ECMP's figure.)
  std::vector<double> ecmp, spray;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    TrafficConfig c;
    c.base.topology = LatTopology::fabric;
    c.base.fabric.k = 8;
    c.base.size = Bytes(65536);
    c.base.iters = 24;
    c.base.seed = seed;
    c.tx_depth = 8;
    c.pattern = "permutation";
    c.base.profile.rc.ooo_placement = true;  // multipath NICs place reordered packets
    const TrafficResult e = run_traffic(c);
    c.base.fabric.routing = "spray";
    const TrafficResult s = run_traffic(c);
    EXPECT_TRUE(e.fabric.conserved && s.fabric.conserved);
    EXPECT_EQ(e.fabric.lossless_drops + s.fabric.lossless_drops, 0u);
    ecmp.push_back(e.aggregate_bps / e.ideal_aggregate_bps);
    spray.push_back(s.aggregate_bps / s.ideal_aggregate_bps);
  }
  auto mean = [](const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m += x;
    return m / static_cast<double>(v.size());
  };
  std::printf("k=8 permutation, 6 seeds: ECMP mean %.3f [%.3f..%.3f], spray mean %.3f [%.3f..%.3f]\n", mean(ecmp),
              *std::min_element(ecmp.begin(), ecmp.end()), *std::max_element(ecmp.begin(), ecmp.end()), mean(spray),
              *std::min_element(spray.begin(), spray.end()), *std::max_element(spray.begin(), spray.end()));
  EXPECT_LT(mean(ecmp), mean(spray) - 0.15);
  EXPECT_GT(*std::min_element(spray.begin(), spray.end()), 0.85);
  EXPECT_LT(*std::max_element(ecmp.begin(), ecmp.end()), *std::min_element(spray.begin(), spray.end()));
}

TEST(Traffic, LeafSpineOversubscriptionCapsCrossLeafTraffic) {
  // Leaves 4:1 oversubscribed (8 hosts at 100 Gb/s under 2 spine uplinks of 100 Gb/s): the 8
  // hosts of leaf 0 sending to the 8 of leaf 1 share 200 Gb/s of uplinks, a quarter of sum(B_i)
  // however evenly the packets are sprayed; the same 8 flows inside leaf 0 run at line rate.
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "leaf-spine";
  c.base.fabric.leaves = 2;
  c.base.fabric.spines = 2;
  c.base.fabric.hosts_per_leaf = 8;
  c.base.fabric.routing = "spray";
  c.base.profile.rc.ooo_placement = true;
  c.base.size = Bytes(65536);
  c.base.iters = 100;
  c.tx_depth = 8;
  for (int i = 0; i < 8; ++i) c.flows.push_back({i, 8 + i});
  const TrafficResult cross = run_traffic(c);
  EXPECT_TRUE(cross.fabric.conserved);
  EXPECT_NEAR(cross.aggregate_bps / cross.ideal_aggregate_bps, 0.25, 0.02);
  for (const PortStats& p : cross.fabric.ports) {
    if (p.port.rfind("leaf0->spine", 0) == 0) {
      EXPECT_GT(p.tx_packets, 0u) << p.port;  // both uplinks carry it
    }
  }
  c.flows.clear();
  for (int i = 0; i < 8; ++i) c.flows.push_back({i, (i + 1) % 8});
  const TrafficResult inside = run_traffic(c);
  EXPECT_GT(inside.aggregate_bps, 0.95 * inside.ideal_aggregate_bps);
}

// Regression: an all-to-all on a k=32 fat-tree listed its 67 M flows (556 MB) before refusing
// them, and on k=40 ended in std::bad_alloc; the count is now computed before anything is built.
TEST(Traffic, TooManyFlowsAreRefusedBeforeTheyAreListed) {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "fat-tree";
  c.base.fabric.k = 40;
  c.pattern = "alltoall";
  try {
    run_traffic(c);
    ADD_FAILURE() << "16 000 hosts all-to-all ran";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "the pattern has 255984000 flows (limit 20000)");
  }
}

TEST(Traffic, AHostsJitterDoesNotDependOnAnotherHostsTraffic) {
  // nic.tx_jitter draws from the sending host's own stream: a flow between two other hosts,
  // on other ports of the switch, leaves h1 -> h0's messages exactly as they were.
  auto run = [](bool beside) {
    TrafficConfig c;
    c.base.topology = LatTopology::fabric;
    c.base.fabric.topology = "single-switch";
    c.base.fabric.hosts = 4;
    c.base.size = Bytes(65536);
    c.base.iters = 20;
    c.base.profile.nic.tx_jitter = Time::ns(300);
    c.flows = {{1, 0}};
    if (beside) c.flows.push_back({3, 2});
    const TrafficResult r = run_traffic(c);
    return r.flows.at(0).goodput_bps;
  };
  const double alone = run(false);
  EXPECT_GT(alone, 0);
  EXPECT_EQ(run(true), alone);
}
