// Flowlet (LetFlow): a flow keeps its next hop while its packets come closer than the timeout,
// takes a random one after a longer gap, starts at ECMP's choice; and two flows that ECMP puts
// on one uplink spread over the fat-tree's paths once every message is a flowlet.
#include "lb/flowlet.hpp"

#include <gtest/gtest.h>

#include <array>
#include <set>

#include "net/ecmp.hpp"
#include "net/topology.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;

namespace {

HopChoice at(Time now, std::uint64_t flow, std::uint32_t hash, std::uint32_t count = 4, int node = 1) {
  HopChoice c;
  c.now = now;
  c.node = node;
  c.count = count;
  c.hash = hash;
  c.flow = flow;
  return c;
}

}  // namespace

TEST(Flowlet, KeepsTheNextHopUntilAGapLongerThanTheTimeout) {
  Flowlet f(Time::us(100), 64, {4, 1});
  EXPECT_EQ(f.choose(at(Time::zero(), 7, 13)), 13u % 4);  // the first flowlet: ECMP's choice
  EXPECT_EQ(f.choose(at(Time::us(50), 7, 13)), 1u);
  EXPECT_EQ(f.choose(at(Time::us(150), 7, 13)), 1u);  // a gap of exactly the timeout: same flowlet
  EXPECT_EQ(f.new_flowlets(), 0u);
  // Gaps longer than the timeout: each a new flowlet on a random next hop, kept inside it.
  std::array<int, 4> taken{};
  Time t = Time::us(150);
  for (int i = 0; i < 400; ++i) {
    t = t + Time::us(102);  // 101 us after the previous packet (at t + 1 us)
    const std::uint32_t c = f.choose(at(t, 7, 13));
    ASSERT_LT(c, 4u);
    EXPECT_EQ(f.choose(at(t + Time::us(1), 7, 13)), c);
    ++taken[c];
  }
  EXPECT_EQ(f.new_flowlets(), 400u);
  for (int n : taken) EXPECT_GT(n, 60) << "a next hop drawn " << n << " times in 400";  // ~100 each
}

TEST(Flowlet, DeterministicPerSeedAndAFlowOnAnotherFlowsSlotStartsAtEcmp) {
  Flowlet a(Time::us(1), 64, {4, 9}), b(Time::us(1), 64, {4, 9}), other(Time::us(1), 64, {4, 10});
  bool seed_matters = false;
  for (int i = 0; i < 50; ++i) {
    const Time t = Time::us(2 * i);
    const std::uint32_t x = a.choose(at(t, 3, 5)), y = b.choose(at(t, 3, 5)), z = other.choose(at(t, 3, 5));
    EXPECT_EQ(x, y);
    seed_matters = seed_matters || x != z;
  }
  EXPECT_TRUE(seed_matters);
  // Flow 4 hashes to flow 3's slot (5 and 69 share the low six bits): it takes its own ECMP hop.
  EXPECT_EQ(a.choose(at(Time::us(200), 4, 69, 4)), 69u % 4);
  EXPECT_EQ(a.choose(at(Time::us(200), 4, 69, 3)), 69u % 4);  // and keeps it (69 % 4 < 3)
}

TEST(Flowlet, SpreadsTwoFlowsThatEcmpPutsOnOneUplink) {
  // Flows h0 -> h14 and h1 -> h15 whose ECMP routes share a cable, each sending at line rate: ECMP
  // gives each half the shared cable. Streaming, no packet follows its flow's previous one by
  // 100 us, so the default timeout leaves every flow on ECMP's path; a timeout shorter than the
  // packets' spacing (0.33 us at 100 Gb/s) makes every packet a flowlet on a random path.
  TopologyParams tp;
  tp.name = "fat-tree";
  const Topology topo = build_topology(tp);
  std::uint16_t sport = 49152;
  for (;; sport += 2) {
    const FabricPath a = ecmp_route(topo, 0, 14, roce_flow(0, 14, sport));
    const FabricPath b = ecmp_route(topo, 1, 15, roce_flow(1, 15, static_cast<std::uint16_t>(sport + 1)));
    std::set<int> cables(a.cables.begin() + 1, a.cables.end() - 1);
    bool shared = false;
    for (std::size_t i = 1; i + 1 < b.cables.size(); ++i) shared = shared || cables.count(b.cables[i]) > 0;
    if (shared) break;
  }
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.udp_sport = sport;
  c.base.size = Bytes(65536);
  c.base.iters = 100;
  c.tx_depth = 8;
  c.flows = {{0, 14}, {1, 15}};
  c.base.profile.rc.ooo_placement = true;  // packets of different flowlets may arrive out of order
  const TrafficResult ecmp = run_traffic(c);
  c.base.fabric.routing = "flowlet";
  const TrafficResult lazy = run_traffic(c);  // 100 us timeout: no gap is that long
  c.base.profile.sw.flowlet_timeout = Time::ns(100);
  const TrafficResult eager = run_traffic(c);
  EXPECT_EQ(lazy.aggregate_bps, ecmp.aggregate_bps);  // one flowlet per flow: ECMP's paths exactly
  EXPECT_EQ(lazy.events, ecmp.events);
  EXPECT_GT(eager.aggregate_bps, 1.3 * ecmp.aggregate_bps);
  for (const TrafficResult* r : {&ecmp, &lazy, &eager}) {
    EXPECT_TRUE(r->fabric.conserved);
    EXPECT_EQ(r->fabric.dropped, 0u);
    for (const FlowResult& f : r->flows) EXPECT_EQ(f.completed, 100);
  }
}
