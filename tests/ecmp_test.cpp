#include "net/ecmp.hpp"

#include <gtest/gtest.h>

#include "sim_rig.hpp"

#include <set>

#include "rdmasim/latency.hpp"

using namespace rdmasim;

using rdmasim::testing::fat_tree;

TEST(Ecmp, RouteIsOneOfTheEqualCostPathsAndDeterministic) {
  const Topology t = fat_tree(4);
  const auto all = equal_cost_paths(t, 0, 15);
  for (std::uint16_t sport = 49152; sport < 49152 + 32; ++sport) {
    const FlowKey k = roce_flow(0, 15, sport);
    const FabricPath r = ecmp_route(t, 0, 15, k);
    bool found = false;
    for (const auto& p : all) found = found || p.nodes == r.nodes;
    EXPECT_TRUE(found);
    EXPECT_EQ(ecmp_route(t, 0, 15, k).nodes, r.nodes);
  }
}

TEST(Ecmp, SourcePortEntropySpreadsFlowsOverAllPaths) {
  const Topology t = fat_tree(4);
  std::set<std::vector<int>> used;
  for (std::uint16_t sport = 49152; sport < 49152 + 64; ++sport) used.insert(ecmp_route(t, 0, 15, roce_flow(0, 15, sport)).nodes);
  EXPECT_EQ(used.size(), 4u);  // (k/2)^2 cross-pod paths
}

TEST(Ecmp, HashCoversEveryField) {
  const FlowKey a = roce_flow(0, 1, 1000);
  FlowKey b = a;
  b.src_port = 1001;
  EXPECT_NE(ecmp_hash(a, 5), ecmp_hash(b, 5));
  EXPECT_NE(ecmp_hash(a, 5), ecmp_hash(a, 6));
  b = a;
  b.dst_addr = 3;
  EXPECT_NE(ecmp_hash(a, 5), ecmp_hash(b, 5));
}

TEST(Ecmp, LatencyGrowsPerSwitchHop) {
  // Cross-node latency grows switch hop by switch hop.
  LatConfig c;
  c.topology = LatTopology::fabric;
  c.iters = 20;
  double prev = 0;
  const Profile& p = c.profile;
  const Time per_two_switches =
      (p.sw.pipeline + serialization_time(p.sw.cut_through_bytes, p.link.rate) +
       Time::ps(p.sw.fabric_length_mm * 1'000'000'000 / p.link.velocity_mps)) * 2;
  for (int to : {1, 2, 4}) {  // same edge, same pod, other pod
    c.fabric.to = to;
    const LatResult r = run_latency(c);
    EXPECT_EQ(r.invariant_violations, 0);
    if (prev > 0) {
      EXPECT_DOUBLE_EQ(r.stats.typical_ps - prev, static_cast<double>(per_two_switches.count_ps())) << to;
    }
    prev = r.stats.typical_ps;
    EXPECT_EQ(r.routes.size(), 2u);
  }
}

// Without a closed form (net/clos_routes.hpp), the set-up's routing searches the graph once per
// attachment switch, however many flows: every host's distances are its edge switch's + 1, and
// equal a search from the host itself.
TEST(Ecmp, RoutesSearchOncePerAttachmentSwitchAndMatchASearchFromTheHost) {
  for (int k : {4, 8, 12}) {
    Topology t = fat_tree(k);
    t.set_transit(0, CableTransit::both);  // a new routing memo, without the closed form
    const int hosts = t.host_count();
    for (int src = 0; src < hosts; ++src) {
      const int dst = (src + hosts / 2 + 1) % hosts;
      ecmp_route(t, src, dst, roce_flow(src, dst, 49152));
      ecmp_route(t, dst, src, roce_flow(dst, src, 49152));
    }
    const DistanceCache& memo = t.distance_cache();
    EXPECT_EQ(memo.searches, k * k / 2) << "k=" << k;  // the edge switches
    EXPECT_EQ(memo.visits, memo.searches * static_cast<std::int64_t>(t.nodes().size())) << "k=" << k;
    for (int h : {0, hosts / 3, hosts - 1}) {
      const std::vector<int> direct = distances_to(t, t.host_node(h));
      const HostDistances via = distances_to_host(t, h);
      for (std::size_t n = 0; n < t.nodes().size(); ++n) ASSERT_EQ(via[n], direct[n]) << "k=" << k << " host " << h;
    }
    EXPECT_EQ(memo.searches, k * k / 2);  // the hosts' edge switches were searched already
  }
}

// A ring whose routing forbids some crossings: the host's view through its switch still equals a
// search from the host.
TEST(Ecmp, HostDistancesFollowOneWayCables) {
  TopologyParams p;
  p.name = "ring";
  p.switches = 4;
  p.ring_routing = "clockwise";
  const Topology t = build_topology(p);
  for (int h = 0; h < t.host_count(); ++h) {
    const std::vector<int> direct = distances_to(t, t.host_node(h));
    const HostDistances via = distances_to_host(t, h);
    for (std::size_t n = 0; n < t.nodes().size(); ++n) ASSERT_EQ(via[n], direct[n]) << "host " << h << " node " << n;
  }
}
