// Rail-optimized and multi-plane fabrics of GPU servers, two sizes each: node and cable counts,
// names, rail isolation (rail leaves meet only through spines), planes that share no cable, the
// equal-cost path counts per kind of pair, the topo report's rail rows, and a flow across
// planes refused with a clear message.
#include "net/server_topologies.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <set>
#include <stdexcept>

#include "io/topo_report.hpp"
#include "model/path.hpp"
#include "net/routing.hpp"

using namespace rdmasim;

namespace {

struct Shape {
  int servers, nics, su, spines, planes;
};

Topology build(const Shape& s) {
  TopologyParams p;
  p.name = s.planes == 1 ? "rail-optimized" : "multi-plane";
  p.servers = s.servers;
  p.nics_per_server = s.nics;
  p.servers_per_su = s.su;
  p.spines = s.spines;
  p.planes = s.planes;
  return build_topology(p);
}

// Nodes reachable from `from` without entering a spine (tier 2) or passing through a host.
std::set<int> below_spines(const Topology& t, int from) {
  std::set<int> seen{from};
  std::deque<int> q{from};
  while (!q.empty()) {
    const int n = q.front();
    q.pop_front();
    if (t.nodes()[static_cast<std::size_t>(n)].kind == NodeKind::host && n != from) continue;
    for (int c : t.nodes()[static_cast<std::size_t>(n)].cables) {
      const int m = t.cables()[static_cast<std::size_t>(c)].other(n);
      if (t.nodes()[static_cast<std::size_t>(m)].tier == 2 || !seen.insert(m).second) continue;
      q.push_back(m);
    }
  }
  return seen;
}

int port(const Topology& t, const Shape& s, int server, int nic, int plane = 0) {
  return t.server_hosts(server).at(static_cast<std::size_t>(nic * s.planes + plane));
}

void check(const Shape& s) {
  SCOPED_TRACE("servers " + std::to_string(s.servers) + " planes " + std::to_string(s.planes));
  const Topology t = build(s);
  const int units = (s.servers + s.su - 1) / s.su;
  EXPECT_EQ(t.host_count(), s.servers * s.nics * s.planes);
  EXPECT_EQ(t.switch_count(), s.planes * (units * s.nics + s.spines));
  EXPECT_EQ(static_cast<int>(t.cables().size()), s.planes * (units * s.nics * s.spines + s.servers * s.nics));
  EXPECT_EQ(t.server_count(), s.servers);
  EXPECT_EQ(t.planes(), s.planes);
  const std::string suffix = s.planes > 1 ? ".p1" : "";
  const std::string last_nic = "s3.nic" + std::to_string(s.nics - 1) + suffix;
  const int h = t.find_host(last_nic);
  EXPECT_EQ(h, (3 * s.nics + s.nics - 1) * s.planes + (s.planes > 1 ? 1 : 0));
  EXPECT_EQ(t.nodes()[static_cast<std::size_t>(t.host_node(h))].name, last_nic);
  EXPECT_EQ(t.find_host("s3.nic99"), -1);
  // Rail isolation: below the spines a rail leaf reaches only its own NIC ports, all on its rail
  // and unit.
  int leaves = 0;
  for (int n = 0; n < static_cast<int>(t.nodes().size()); ++n) {
    const Node& leaf = t.nodes()[static_cast<std::size_t>(n)];
    if (leaf.tier != 1) continue;
    ++leaves;
    const std::set<int> reach = below_spines(t, n);
    EXPECT_EQ(static_cast<int>(reach.size()), 1 + std::min(s.su, s.servers - leaf.pod * s.su)) << leaf.name;
    for (int m : reach) {
      const Node& x = t.nodes()[static_cast<std::size_t>(m)];
      EXPECT_EQ(x.rail, leaf.rail) << x.name;
      EXPECT_EQ(x.plane, leaf.plane) << x.name;
    }
  }
  EXPECT_EQ(leaves, s.planes * units * s.nics);
  // No cable joins two planes; a plane's ports reach each other and no other plane's.
  for (const Cable& c : t.cables())
    EXPECT_EQ(t.nodes()[static_cast<std::size_t>(c.a)].plane, t.nodes()[static_cast<std::size_t>(c.b)].plane);
  const std::vector<int> d = distances_to(t, t.host_node(port(t, s, 0, 0)));
  for (int x = 0; x < t.host_count(); ++x)
    EXPECT_EQ(d[static_cast<std::size_t>(t.host_node(x))] >= 0, t.nodes()[static_cast<std::size_t>(t.host_node(x))].plane == 0);
  // Equal-cost paths: same rail and unit, one leaf; same rail in another unit or another rail,
  // through any of the plane's spines.
  const auto paths = [&t](int a, int b) { return equal_cost_paths(t, a, b); };
  auto p = paths(port(t, s, 0, 0), port(t, s, 1, 0));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].links(), 2);
  p = paths(port(t, s, 0, 0), port(t, s, 0, 1));
  EXPECT_EQ(p.size(), static_cast<std::size_t>(s.spines));
  EXPECT_EQ(p[0].links(), 4);
  p = paths(port(t, s, 0, 2), port(t, s, s.su, 2));  // server su is in the second unit
  EXPECT_EQ(p.size(), static_cast<std::size_t>(s.spines));
  EXPECT_EQ(p[0].links(), 4);
}

}  // namespace

TEST(ServerTopologies, RailOptimizedTwoSizes) {
  check({8, 8, 4, 4, 1});
  check({128, 8, 32, 32, 1});  // a DGX SuperPOD of 4 scalable units: 1,024 NICs, 32 leaves
  const Topology t = build({128, 8, 32, 32, 1});
  EXPECT_EQ(t.nodes()[static_cast<std::size_t>(t.host_node(0))].name, "s0.nic0");
  EXPECT_EQ(t.nodes()[static_cast<std::size_t>(t.host_node(1023))].name, "s127.nic7");
  EXPECT_EQ(t.bisection, Rate::gbps(100 * 512));  // non-blocking: 32 leaf ports up, 32 down
}

TEST(ServerTopologies, MultiPlaneTwoSizes) {
  check({4, 4, 2, 2, 2});
  check({16, 8, 8, 4, 4});
  const Topology t = build({4, 4, 2, 2, 2});
  EXPECT_EQ(t.nodes()[static_cast<std::size_t>(t.host_node(1))].name, "s0.nic0.p1");
}

TEST(ServerTopologies, BadShapesAreClearErrors) {
  const auto error = [](Shape s) {
    try {
      build(s);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error({0, 8, 4, 4, 1}), "rail-optimized: servers must be 1..100000");
  EXPECT_EQ(error({4, 17, 4, 4, 1}), "rail-optimized: NICs per server must be 1..16");
  EXPECT_EQ(error({4, 8, 4, 4, 9}), "multi-plane: planes must be 2..8");
  EXPECT_EQ(error({100000, 16, 1, 10000, 1}), "rail-optimized: at most 1000000 cables, got 16001600000");
}

TEST(ServerTopologies, TopoReportShowsEachRailsPathDiversity) {
  const Topology t = build({8, 4, 4, 3, 1});
  const TopoReport r = make_topo_report(t, std::nullopt, false, LatConfig{});
  EXPECT_EQ(r.units, 2);
  ASSERT_EQ(r.rails.size(), 4u);
  for (const RailRow& x : r.rails) {
    EXPECT_EQ(x.leaves, 2);
    EXPECT_EQ(x.same_unit, 1u);
    EXPECT_EQ(x.same_unit_links, 2);
    EXPECT_EQ(x.other_unit, 3u);
    EXPECT_EQ(x.other_unit_links, 4);
    EXPECT_EQ(x.next_rail, 3u);
    EXPECT_EQ(x.next_rail_links, 4);
  }
}

TEST(ServerTopologies, AFlowAcrossPlanesIsRefused) {
  LatConfig c;
  c.topology = LatTopology::fabric;
  c.fabric.topology = "multi-plane";
  c.fabric.servers = 2;
  c.fabric.nics_per_server = 2;
  const auto topo = FabricNetwork::make_topology(c);
  try {
    FabricNetwork(topo, c.profile, fabric_options(c), topo->find_host("s0.nic0.p0"), topo->find_host("s1.nic0.p1"), 49152);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "no path from s0.nic0.p0 to s1.nic0.p1: they are on different planes (plane 0 and 1; each plane "
                           "is a fabric of its own)");
  }
  EXPECT_NO_THROW(FabricNetwork(topo, c.profile, fabric_options(c), topo->find_host("s0.nic0.p1"),
                                topo->find_host("s1.nic1.p1"), 49152));
}
