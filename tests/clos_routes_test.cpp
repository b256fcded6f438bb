#include "net/clos_routes.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "net/ecmp.hpp"
#include "net/next_hops.hpp"
#include "net/routing.hpp"
#include "sim_rig.hpp"

using namespace rdmasim;

namespace {

Topology leaf_spine(int leaves, int spines, int hosts_per_leaf) {
  TopologyParams p;
  p.name = "leaf-spine";
  p.leaves = leaves;
  p.spines = spines;
  p.hosts_per_leaf = hosts_per_leaf;
  return build_topology(p);
}

// The same fabric without its closed form: routing searches the graph (set_transit starts a
// new routing memo; a host cable carries both ways already).
Topology searched(const Topology& t) {
  Topology copy = t;
  copy.set_transit(0, CableTransit::both);
  return copy;
}

std::vector<Topology> clos_fabrics() {
  std::vector<Topology> v;
  for (int k : {2, 4, 6, 8}) v.push_back(rdmasim::testing::fat_tree(k));
  v.push_back(leaf_spine(1, 1, 1));
  v.push_back(leaf_spine(4, 2, 4));
  v.push_back(leaf_spine(3, 5, 2));
  v.push_back(leaf_spine(6, 1, 3));
  return v;
}

}  // namespace

// For every node and attachment switch: the closed form's hops are the graph search's distance,
// and a switch's next ports are exactly those towards a closer switch, in its cable order.
TEST(ClosRoutes, HopsAndNextPortsEqualTheGraphSearch) {
  for (const Topology& t : clos_fabrics()) {
    ASSERT_NE(t.distance_cache().clos, nullptr) << t.name;
    const ClosRoutes& clos = *t.distance_cache().clos;
    const auto& nodes = t.nodes();
    for (std::size_t e = 0; e < nodes.size(); ++e) {
      if (nodes[e].kind != NodeKind::switch_ || nodes[e].tier != 1) continue;
      ASSERT_TRUE(clos.attachment(static_cast<int>(e)));
      const std::vector<int> d = distances_to(t, static_cast<int>(e));
      for (std::size_t n = 0; n < nodes.size(); ++n) {
        ASSERT_EQ(clos.hops(static_cast<int>(n), static_cast<int>(e)), d[n]) << t.name << " " << nodes[n].name << " to " << nodes[e].name;
        if (nodes[n].kind != NodeKind::switch_ || n == e) continue;
        std::vector<std::int32_t> want;
        for (int c : nodes[n].cables) {
          const int m = t.cables()[static_cast<std::size_t>(c)].other(static_cast<int>(n));
          if (nodes[static_cast<std::size_t>(m)].kind == NodeKind::switch_ && d[static_cast<std::size_t>(m)] == d[n] - 1)
            want.push_back(NextHopTable::port_of(t, c, static_cast<int>(n)));
        }
        const auto got = clos.next_ports(static_cast<int>(n), static_cast<int>(e));
        ASSERT_EQ(std::vector<std::int32_t>(got.begin(), got.end()), want) << t.name << " " << nodes[n].name << " to " << nodes[e].name;
      }
    }
  }
}

// What the fabric forwards by (NextHopTable) and what the set-up predicts (ecmp_route) are the
// same with and without the closed form, for every switch, host pair and a spread of entropy.
TEST(ClosRoutes, ForwardingAndPredictionMatchTheSearchedFabric) {
  for (const Topology& t : clos_fabrics()) {
    const Topology s = searched(t);
    ASSERT_EQ(s.distance_cache().clos, nullptr);
    const NextHopTable fast(t), slow(s);
    for (std::size_t n = 0; n < t.nodes().size(); ++n) {
      if (t.nodes()[n].kind != NodeKind::switch_) continue;
      for (int h = 0; h < t.host_count(); ++h) {
        const auto a = fast.towards(static_cast<int>(n), h), b = slow.towards(static_cast<int>(n), h);
        ASSERT_EQ(std::vector<std::int32_t>(a.ports.begin(), a.ports.end()), std::vector<std::int32_t>(b.ports.begin(), b.ports.end()))
            << t.name << " " << t.nodes()[n].name << " to h" << h;
        ASSERT_EQ(a.max_rate_bps, b.max_rate_bps);
      }
    }
    for (int a = 0; a < t.host_count(); ++a)
      for (int b = 0; b < t.host_count(); ++b) {
        if (a == b) continue;
        for (std::uint16_t sport : {49152, 49153, 50000, 61234}) {
          const FlowKey k = roce_flow(a, b, sport);
          ASSERT_EQ(ecmp_route(t, a, b, k).cables, ecmp_route(s, a, b, k).cables) << t.name << " h" << a << " to h" << b;
        }
      }
    EXPECT_EQ(t.distance_cache().searches, 0) << t.name;  // none of this searched the graph
  }
}

// The routing set-up is linear in hosts on a fat-tree: building the closed form and the
// forwarding view, then routing a permutation (every host to the one half the fabric away)
// through the prediction and the forwarding view, looks at no more than 16 things per host at
// k = 8, 16 and 24 — a table of switches x edge switches would be 2.5k per host (20 to 60) and
// a search per edge switch 5k/8 + k^2/8 (13 to 87).
TEST(ClosRoutes, TheRoutingSetUpIsLinearInHosts) {
  for (int k : {8, 16, 24}) {
    const Topology t = rdmasim::testing::fat_tree(k);
    const NextHopTable table(t);
    const int hosts = t.host_count();
    for (int src = 0; src < hosts; ++src) {
      const int dst = (src + hosts / 2) % hosts;
      const FabricPath p = ecmp_route(t, src, dst, roce_flow(src, dst, 49152));
      for (std::size_t i = 1; i + 1 < p.nodes.size(); ++i) ASSERT_FALSE(table.towards(p.nodes[i], dst).ports.empty());
    }
    const std::int64_t ops = t.distance_cache().clos->build_steps() + table.build_steps() + t.distance_cache().visits;
    EXPECT_EQ(t.distance_cache().searches, 0) << "k=" << k;
    // 9 per host building the closed form (each cable's two ends, and the upper tiers' again),
    // 5 per host and one per switch building the view.
    EXPECT_EQ(ops, 14 * static_cast<std::int64_t>(hosts) + 5 * k * k / 4) << "k=" << k;
    EXPECT_LE(ops, 16 * static_cast<std::int64_t>(hosts)) << "k=" << k;
  }
}
