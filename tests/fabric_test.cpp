// The packet-level fabric against a fake client: routing decisions (ECMP equals ecmp_route,
// spray covers every path), PFC (pauses sent and obeyed, no lossless drop), lossy drops at the
// overflowing egress, ECN marking thresholds, InfiniBand credits, counters and conservation;
// adaptive routing balances the uplinks that ECMP collides on.
#include "sim/fabric.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>

#include "core/pool.hpp"
#include "net/ecmp.hpp"
#include "net/wire_format.hpp"
#include "sim_rig.hpp"

using namespace rdmasim;

namespace {

struct Client final : FabricClient {
  explicit Client(Pool<Packet>& p) : pool(p) {}
  void arrived(Packet& p) override {
    got.push_back(p.stamp);
    ledger_ok = ledger_ok && p.ledger.total() == p.stamp;  // injected at 0 with an empty ledger
    pool.release(&p);
  }
  void dropped(Packet& p) override {
    ++drops;
    pool.release(&p);
  }
  Pool<Packet>& pool;
  std::vector<Time> got;
  int drops = 0;
  bool ledger_ok = true;
};

struct Rig {
  explicit Rig(Topology t, FabricOptions o = {}) : topo(std::make_shared<const Topology>(std::move(t))), fabric(sched, topo, o, 7) {}
  /// `n` MTU-sized packets of one message from `src` to `dst` (UDP source port `sport`), now.
  FabricFlow& send(int src, int dst, int n, std::uint16_t sport = 49152, Bytes payload = Bytes(4096)) {
    FabricFlow& f = fabric.add_flow(src, dst, roce_flow(src, dst, sport), client);
    Message& m = *messages.acquire();
    m.id = ++ids;
    for (int i = 0; i < n; ++i) {
      Packet& p = *packets.acquire();
      p.msg = &m;
      p.payload = payload;
      p.wire = frame_wire_bytes(FrameKind::roce_write, FramePos::middle, payload, LinkLayer::roce);
      p.stamp = sched.now();
      fabric.inject(p, f);
    }
    return f;
  }
  const PortCounters& port(const std::string& name) const {
    for (int i = 0; i < fabric.port_count(); ++i)
      if (fabric.port_name(i) == name) return fabric.counters(i);
    throw std::invalid_argument("no port " + name);
  }
  Scheduler sched;
  Pool<Packet> packets;
  Pool<Message> messages;
  std::shared_ptr<const Topology> topo;
  Fabric fabric;
  Client client{packets};
  std::uint64_t ids = 0;
};

Topology single_switch(int hosts) {
  TopologyParams p;
  p.name = "single-switch";
  p.hosts = hosts;
  return build_topology(p);
}

}  // namespace

TEST(Fabric, EcmpFollowsTheRouteTheHashesGive) {
  for (std::uint16_t sport = 49152; sport < 49152 + 12; ++sport) {
    Rig r(rdmasim::testing::fat_tree(4));
    r.send(0, 15, 1, sport);
    r.sched.run();
    const FabricPath want = ecmp_route(*r.topo, 0, 15, roce_flow(0, 15, sport));
    std::set<int> used, expect;
    for (int i = 0; i < r.fabric.port_count(); ++i)
      if (r.fabric.counters(i).tx_packets > 0) used.insert(i);
    for (std::size_t k = 0; k < want.cables.size(); ++k) {
      const Cable& c = r.topo->cables()[static_cast<std::size_t>(want.cables[k])];
      expect.insert(want.cables[k] * 2 + (c.a == want.nodes[k] ? 0 : 1));
    }
    EXPECT_EQ(used, expect) << sport;
    EXPECT_EQ(r.fabric.delivered(), 1u);
    EXPECT_TRUE(r.client.ledger_ok);
  }
}

TEST(Fabric, SprayCoversEveryEqualCostPathOncePerCycle) {
  FabricOptions o;
  o.routing = "spray";
  Rig r(rdmasim::testing::fat_tree(4), o);
  r.send(0, 15, 8);
  r.sched.run();
  // Cross-pod k=4: 4 paths, one per core switch; 8 packets = two per core.
  for (const char* core : {"core0", "core1", "core2", "core3"})
    EXPECT_EQ(r.port(std::string(core) + "->agg3." + (core[4] < '2' ? "0" : "1")).tx_packets, 2u) << core;
  EXPECT_EQ(r.fabric.delivered(), 8u);
}

TEST(Fabric, AdaptiveRoutingTakesTheLessQueuedUplink) {
  // Two flows out of edge0.0 whose hashes put them on the same uplink: ECMP sends every packet
  // of both there (the other uplink idles); adaptive routing sends each packet to the uplink
  // with less queued, so the two carry about half each and the queue stays short.
  const auto topo = rdmasim::testing::fat_tree(4);
  const auto uplink = [&](int src, int dst, std::uint16_t sport) {
    return ecmp_route(topo, src, dst, roce_flow(src, dst, sport)).nodes[2];  // the aggregation switch
  };
  std::uint16_t a = 49152, b = 49153;
  while (uplink(1, 15, b) != uplink(0, 14, a)) ++b;
  const int n = 200;
  const auto run = [&](const std::string& routing) {
    FabricOptions o;
    o.routing = routing;
    Rig r(rdmasim::testing::fat_tree(4), o);
    r.send(0, 14, n, a);
    r.send(1, 15, n, b);
    r.sched.run();
    EXPECT_EQ(r.fabric.delivered(), 2u * n);
    return std::pair{r.port("edge0.0->agg0.0"), r.port("edge0.0->agg0.1")};
  };
  const auto [e0, e1] = run("ecmp");
  EXPECT_EQ(std::min(e0.tx_packets, e1.tx_packets), 0u);
  EXPECT_EQ(std::max(e0.tx_packets, e1.tx_packets), 2u * n);
  const auto [a0, a1] = run("adaptive");
  EXPECT_NEAR(static_cast<double>(a0.tx_packets), n, n / 10.0);
  EXPECT_EQ(a0.tx_packets + a1.tx_packets, 2u * n);
  EXPECT_LT(std::max(a0.max_queue_bytes, a1.max_queue_bytes), std::max(e0.max_queue_bytes, e1.max_queue_bytes) / 4);
}

TEST(Fabric, PfcPausesTheSendersAndNeverDrops) {
  Rig r(single_switch(3));
  r.send(1, 0, 200);
  r.send(2, 0, 200);
  r.sched.run();
  EXPECT_EQ(r.fabric.dropped(), 0u);
  EXPECT_EQ(r.fabric.lossless_drops(), 0u);
  EXPECT_EQ(r.fabric.delivered(), 400u);
  EXPECT_EQ(r.fabric.in_flight(), 0u);
  // The switch paused both senders' NICs (XOFF and XON pairs), and they obeyed.
  for (const char* h : {"1", "2"}) {
    const PortCounters& sw = r.port(std::string("sw0->h") + h);
    const PortCounters& nic = r.port(std::string("h") + h + "->sw0");
    EXPECT_GT(sw.pause_tx, 0u) << h;
    EXPECT_EQ(sw.pause_tx % 2, 0u) << h;
    EXPECT_EQ(nic.pause_rx, sw.pause_tx) << h;
    EXPECT_GT(nic.paused, Time::zero()) << h;
  }
  // The egress to h0 never holds much more than both ingress ports' XOFF thresholds + headroom.
  const PortCounters& out = r.port("sw0->h0");
  EXPECT_EQ(out.tx_packets, 400u);
  EXPECT_LE(out.max_queue_bytes, 2 * (SwitchParams{}.pfc_xoff.count() + r.fabric.headroom(0)));
  // The bottleneck never idled: the last packet leaves 400 frame times after the first arrives.
  const Time frame = serialization_time(frame_wire_bytes(FrameKind::roce_write, FramePos::middle, Bytes(4096), LinkLayer::roce),
                                        Rate::gbps(100));
  EXPECT_LE(r.client.got.back() - r.client.got.front(), frame * 400);
}

TEST(Fabric, LossyClassDropsAtTheOverflowingEgress) {
  FabricOptions o;
  o.sw.lossless = false;
  o.sw.buffer = Bytes(256 * 1024);
  Rig r(single_switch(3), o);
  r.send(1, 0, 300);
  r.send(2, 0, 300);
  r.sched.run();
  EXPECT_GT(r.fabric.dropped(), 0u);
  EXPECT_EQ(r.fabric.lossless_drops(), 0u);
  EXPECT_EQ(static_cast<std::uint64_t>(r.client.drops), r.fabric.dropped());
  EXPECT_EQ(r.port("sw0->h0").drops, r.fabric.dropped());  // all of them, at the incast port
  EXPECT_EQ(r.fabric.injected(), r.fabric.delivered() + r.fabric.dropped());
  EXPECT_EQ(r.port("sw0->h1").pause_tx + r.port("sw0->h2").pause_tx, 0u);
  // Dynamic threshold: the queue stays below alpha x free buffer (alpha 1: half the buffer).
  EXPECT_LE(r.port("sw0->h0").max_queue_bytes, 128 * 1024 + 4200);
}

TEST(Fabric, EcnMarksByQueueDepth) {
  auto marks = [](Bytes kmin, Bytes kmax, double pmax, bool ecn) {
    FabricOptions o;
    o.sw.ecn = ecn;
    o.sw.ecn_kmin = kmin;
    o.sw.ecn_kmax = kmax;
    o.sw.ecn_pmax = pmax;
    Rig r(single_switch(3), o);
    r.send(1, 0, 50);
    r.send(2, 0, 50);
    r.sched.run();
    EXPECT_EQ(r.port("sw0->h0").ecn_marked, r.fabric.stats(Time::zero()).ecn_marked);
    return r.port("sw0->h0").ecn_marked;
  };
  const std::uint64_t all = marks(Bytes(0), Bytes(1), 0.0, true);  // every packet that finds a queue
  EXPECT_GT(all, 40u);
  EXPECT_LT(all, 100u);  // not the ones that found the queue empty
  EXPECT_EQ(marks(Bytes(0), Bytes(1), 0.0, false), 0u);
  EXPECT_EQ(marks(Bytes(10'000'000), Bytes(10'000'000), 1.0, true), 0u);  // queue never that deep
  const std::uint64_t some = marks(Bytes(0), Bytes(10'000'000), 0.5, true);  // p = 0.5 * q / 10 MB: tiny
  EXPECT_LT(some, all);
}

TEST(Fabric, EcnDrawsAtAPortDoNotDependOnOtherPortsTraffic) {
  // Each port draws its RED marks from a stream of its own: an incast into h4 that shares no
  // port with the incast into h0 leaves h0's marks as they were, mark for mark.
  auto run = [](bool second_incast) {
    FabricOptions o;
    o.sw.ecn_kmin = Bytes(0);
    o.sw.ecn_kmax = Bytes(400'000);
    o.sw.ecn_pmax = 1.0;
    Rig r(single_switch(6), o);
    r.send(1, 0, 40);
    if (second_incast) r.send(3, 4, 40);
    r.send(2, 0, 40);
    if (second_incast) r.send(5, 4, 40);
    r.sched.run();
    if (second_incast) {
      EXPECT_GT(r.port("sw0->h4").ecn_marked, 0u);
    }
    return r.port("sw0->h0").ecn_marked;
  };
  const std::uint64_t alone = run(false);
  const std::uint64_t beside = run(true);
  EXPECT_GT(alone, 0u);
  EXPECT_LT(alone, 60u);  // a draw decided the others
  EXPECT_EQ(beside, alone);
}

TEST(Fabric, InfinibandCreditsAreLosslessWithoutPause) {
  FabricOptions o;
  o.layer = LinkLayer::ib;
  o.sw.ib_vl_buffer = Bytes(3 * 4200);
  Rig r(single_switch(3), o);
  r.send(1, 0, 100);
  r.send(2, 0, 100);
  r.sched.run();
  EXPECT_EQ(r.fabric.dropped(), 0u);
  EXPECT_EQ(r.fabric.delivered(), 200u);
  EXPECT_EQ(r.fabric.stats(Time::zero()).pause_frames, 0u);
  // With three frames of credit per VL the switch holds at most 2 x 3 frames.
  EXPECT_LE(r.port("sw0->h0").max_queue_bytes, 6 * 4200);
  EXPECT_GT(r.port("h1->sw0").paused, Time::zero());  // senders waited for credits
}

TEST(Fabric, HeadroomTooSmallForTheCableIsAnError) {
  FabricOptions o;
  o.sw.pfc_headroom = Bytes(1000);
  try {
    Rig r(single_switch(2), o);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("switch.pfc_headroom"), std::string::npos) << e.what();
  }
}

TEST(Fabric, LossyCableCorruptsFramesAtTheReceiver) {
  Topology t = single_switch(2);
  const int cable = t.find_cable("sw0", "h1");
  ASSERT_GE(cable, 0);
  EXPECT_EQ(t.find_cable("h1", "sw0"), cable);
  EXPECT_EQ(t.find_cable("h0", "h1"), -1);
  t.set_loss(cable, 0.1);
  Rig r(std::move(t));
  r.send(0, 1, 2000);
  r.sched.run();
  const std::uint64_t bad = r.port("h1->sw0").rx_errors;  // counted where the frame is received
  EXPECT_GT(bad, 120u);
  EXPECT_LT(bad, 280u);
  EXPECT_EQ(r.fabric.dropped(), bad);
  EXPECT_EQ(r.fabric.lossless_drops(), 0u);  // corruption is not a buffer drop
  EXPECT_EQ(r.fabric.delivered() + bad, 2000u);
  EXPECT_EQ(r.port("sw0->h1").tx_packets, 2000u);
}

TEST(Fabric, CutThroughOnlyTowardsNextHopsNoFasterThanTheIngress) {
  // h0's cable trained down to 40G: a frame from h0 into sw0 goes on towards a faster (100G)
  // cable, so sw0 stores it whole first; a frame from h1 (100G) towards the 40G cable is
  // handed on after the cut-through bytes. The cables are otherwise alike (propagation,
  // pipeline), so the one-way times differ by a 100G frame time less the cut-through bytes'.
  Time one_way[2];
  for (int from : {0, 1}) {
    Topology t = single_switch(2);
    t.degrade(t.find_cable("sw0", "h0"), Rate::gbps(40));
    Rig r(std::move(t));
    r.send(from, 1 - from, 1);
    r.sched.run();
    ASSERT_EQ(r.client.got.size(), 1u);
    one_way[from] = r.client.got[0];
  }
  const FabricOptions o;
  ASSERT_TRUE(o.sw.cut_through);
  const Bytes frame = frame_wire_bytes(FrameKind::roce_write, FramePos::middle, Bytes(4096), LinkLayer::roce);
  EXPECT_EQ(one_way[0] - one_way[1],
            serialization_time(frame, Rate::gbps(100)) - serialization_time(o.sw.cut_through_bytes, Rate::gbps(100)));
}

TEST(Fabric, RoutingAtDepartureMatchesRoutingOnArrival) {
  // Static routes (ECMP or spray, no link fault): a frame's egress at the next switch is chosen
  // as it leaves the upstream port. A link fault anywhere, here long after the traffic, makes
  // every switch route frames as they arrive instead. Both runs are the same frame for frame:
  // congested (two incasts sharing uplinks, PFC pausing), so the queues decide the times.
  for (const char* routing : {"ecmp", "spray"}) {
    std::vector<Time> got[2];
    std::vector<PortCounters> ports[2];
    for (int faulted : {0, 1}) {
      Topology t = rdmasim::testing::fat_tree(4);
      const int cable = t.find_cable("core0", "agg0.0");
      ASSERT_GE(cable, 0);
      if (faulted) t.set_outage(cable, Time::ms(1000), Time::max());
      FabricOptions o;
      o.routing = routing;
      Rig r(std::move(t), o);
      for (int src : {0, 1, 2, 4}) r.send(src, 15, 60, static_cast<std::uint16_t>(49152 + src));
      for (int src : {3, 5}) r.send(src, 12, 60, static_cast<std::uint16_t>(49152 + src));
      r.sched.run();
      ASSERT_EQ(r.fabric.delivered(), 360u);
      EXPECT_GT(r.fabric.stats(Time::zero()).pause_frames, 0u);
      got[faulted] = r.client.got;
      for (int i = 0; i < r.fabric.port_count(); ++i) ports[faulted].push_back(r.fabric.counters(i));
    }
    EXPECT_EQ(got[0], got[1]);
    ASSERT_EQ(ports[0].size(), ports[1].size());
    for (std::size_t i = 0; i < ports[0].size(); ++i) {
      EXPECT_EQ(ports[0][i].tx_packets, ports[1][i].tx_packets) << i;
      EXPECT_EQ(ports[0][i].pause_tx, ports[1][i].pause_tx) << i;
      EXPECT_EQ(ports[0][i].max_queue_bytes, ports[1][i].max_queue_bytes) << i;
      EXPECT_EQ(ports[0][i].ecn_marked, ports[1][i].ecn_marked) << i;
      EXPECT_EQ(ports[0][i].paused, ports[1][i].paused) << i;
    }
  }
}

TEST(Fabric, DegradedCableSerializesAtItsTrainedRate) {
  Topology t = single_switch(2);
  t.degrade(t.find_cable("sw0", "h1"), Rate::gbps(40));
  Rig r(std::move(t));
  r.send(0, 1, 100);
  r.sched.run();
  const Time frame40 = serialization_time(frame_wire_bytes(FrameKind::roce_write, FramePos::middle, Bytes(4096), LinkLayer::roce),
                                          Rate::gbps(40));
  // The 40G egress is the bottleneck: one frame per 40G frame time, back to back.
  EXPECT_EQ(r.client.got.back() - r.client.got.front(), frame40 * 99);
}
