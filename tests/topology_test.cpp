#include "net/topology.hpp"

#include <gtest/gtest.h>

#include "sim_rig.hpp"

#include <set>
#include <stdexcept>

#include "net/next_hops.hpp"
#include "net/routing.hpp"

using namespace rdmasim;

using rdmasim::testing::fat_tree;

TEST(Topology, FatTreeCounts) {
  for (int k : {4, 8}) {
    const Topology t = fat_tree(k);
    EXPECT_EQ(t.host_count(), k * k * k / 4) << k;
    EXPECT_EQ(t.switch_count(), 5 * k * k / 4) << k;
    EXPECT_EQ(static_cast<int>(t.cables().size()), 3 * k * k * k / 4) << k;
    EXPECT_EQ(t.bisection, Rate::gbps(100LL * k * k * k / 8));
    for (int h = 0; h < t.host_count(); ++h) EXPECT_EQ(t.nodes()[static_cast<std::size_t>(t.host_node(h))].cables.size(), 1u);
  }
}

TEST(Topology, LeafSpineAndSingleSwitch) {
  TopologyParams p;
  p.name = "leaf-spine";
  p.leaves = 4;
  p.spines = 2;
  p.hosts_per_leaf = 8;  // 8 x 100G down, 2 x 100G up: 4:1 oversubscribed
  const Topology t = build_topology(p);
  EXPECT_EQ(t.host_count(), 32);
  EXPECT_EQ(t.switch_count(), 6);
  EXPECT_EQ(t.cables().size(), 32u + 8u);
  EXPECT_EQ(t.bisection, Rate::gbps(400));  // 2 leaves x 2 uplinks
  p.name = "single-switch";
  p.hosts = 8;
  const Topology s = build_topology(p);
  EXPECT_EQ(s.host_count(), 8);
  EXPECT_EQ(s.switch_count(), 1);
  EXPECT_EQ(s.find_host("h7"), 7);
  EXPECT_EQ(s.find_host("h8"), -1);
  EXPECT_EQ(s.find_host("x"), -1);
}

TEST(Topology, BadParameters) {
  TopologyParams p;
  p.name = "fat-tree";
  p.k = 5;
  EXPECT_THROW(build_topology(p), std::invalid_argument);
  p.name = "torus";
  try {
    build_topology(p);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("valid: back-to-back, single-switch, leaf-spine, fat-tree"), std::string::npos);
  }
}

TEST(Routing, FatTreeHopsAndEqualCostPaths) {
  for (int k : {4, 8}) {
    const Topology t = fat_tree(k);
    const int half = k / 2;
    // h0 and h1 share edge0.0; h0 and h(half) share pod 0; h0 and the first host of pod 1.
    const auto same_edge = equal_cost_paths(t, 0, 1);
    const auto same_pod = equal_cost_paths(t, 0, half);
    const auto cross_pod = equal_cost_paths(t, 0, half * half);
    ASSERT_EQ(same_edge.size(), 1u);
    EXPECT_EQ(same_edge[0].links(), 2);
    EXPECT_EQ(same_edge[0].switches(), 1);
    EXPECT_EQ(static_cast<int>(same_pod.size()), half);
    EXPECT_EQ(same_pod[0].links(), 4);
    EXPECT_EQ(static_cast<int>(cross_pod.size()), half * half);
    for (const auto& p : cross_pod) {
      EXPECT_EQ(p.links(), 6);
      EXPECT_EQ(t.nodes()[static_cast<std::size_t>(p.nodes[3])].tier, 3);  // through a core switch
    }
  }
}

TEST(Routing, HopHistogramOverAllPairs) {
  const Topology t = fat_tree(4);  // 16 hosts: per host 1 same-edge, 2 same-pod, 12 cross-pod
  const auto h = hop_histogram(t);
  EXPECT_EQ(h.at(2), 16 * 1);
  EXPECT_EQ(h.at(4), 16 * 2);
  EXPECT_EQ(h.at(6), 16 * 12);
  EXPECT_EQ(h.size(), 3u);
}

TEST(NextHopTable, CandidatesAreTheEqualCostNextHopsInCableOrder) {
  const Topology t = rdmasim::testing::fat_tree(4);
  const NextHopTable hops(t);
  // Every equal-cost path from h0 to h15 starts with one of edge0.0's candidates; k/2 of them.
  const int edge = hops.attachment(0);
  EXPECT_EQ(t.nodes()[static_cast<std::size_t>(edge)].name, "edge0.0");
  const auto up = hops.towards(edge, 15);
  ASSERT_EQ(up.ports.size(), 2u);
  std::set<int> second;
  for (const FabricPath& p : equal_cost_paths(t, 0, 15)) second.insert(NextHopTable::port_of(t, p.cables[1], p.nodes[1]));
  EXPECT_EQ(second, std::set<int>(up.ports.begin(), up.ports.end()));
  EXPECT_LT(up.ports[0], up.ports[1]);  // cable order
  // At the destination's edge switch: the host's own cable.
  const auto down = hops.towards(hops.attachment(15), 15);
  ASSERT_EQ(down.ports.size(), 1u);
  EXPECT_EQ(down.ports[0], hops.host_port(15) ^ 1);
  EXPECT_EQ(down.max_rate_bps, Rate::gbps(100).bits_per_sec());
}
