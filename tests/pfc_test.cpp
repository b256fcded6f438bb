// PFC pathologies: a ring whose routing wraps around is a cyclic
// buffer dependency — a stride pattern deadlocks it, and the waits-for check reports exactly
// the ring's queues; the PFC watchdog (drops counted apart from every other drop) or
// deadlock-free up-down routing lets the same traffic complete; an ordinary PFC incast, whose
// pauses are transient and acyclic, is never reported.
#include <gtest/gtest.h>

#include <stdexcept>

#include "net/ecmp.hpp"
#include "net/topology.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;

namespace {

TrafficConfig ring_stride(const char* routing, std::int64_t iters) {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "ring";
  c.base.fabric.switches = 4;
  c.base.fabric.ring_routing = routing;
  c.base.size = Bytes(65536);
  c.base.iters = iters;
  c.pattern = "stride";
  c.stride = 2;
  c.tx_depth = 16;
  return c;
}

std::int64_t completed(const TrafficResult& r) {
  std::int64_t n = 0;
  for (const FlowResult& f : r.flows) n += f.completed;
  return n;
}

const PortStats* port(const TrafficResult& r, const std::string& name) {
  for (const PortStats& p : r.fabric.ports)
    if (p.port == name) return &p;
  return nullptr;
}

}  // namespace

TEST(PfcRing, ClockwiseRoutesWrapAroundAndUpDownNeverCrossesTheWrapCable) {
  TopologyParams p;
  p.name = "ring";
  p.switches = 4;
  const Topology cw = build_topology(p);
  EXPECT_EQ(cw.host_count(), 4);
  EXPECT_EQ(cw.switch_count(), 4);
  auto names = [](const Topology& t, const FabricPath& path) {
    std::string s;
    for (int n : path.nodes) s += (s.empty() ? "" : " ") + t.nodes()[static_cast<std::size_t>(n)].name;
    return s;
  };
  EXPECT_EQ(names(cw, ecmp_route(cw, 2, 0, roce_flow(2, 0, 1))), "h2 sw2 sw3 sw0 h0");
  EXPECT_EQ(names(cw, ecmp_route(cw, 0, 3, roce_flow(0, 3, 1))), "h0 sw0 sw1 sw2 sw3 h3");  // no shortcut back
  p.ring_routing = "up-down";
  const Topology ud = build_topology(p);
  EXPECT_EQ(names(ud, ecmp_route(ud, 2, 0, roce_flow(2, 0, 1))), "h2 sw2 sw1 sw0 h0");
  EXPECT_EQ(names(ud, ecmp_route(ud, 0, 3, roce_flow(0, 3, 1))), "h0 sw0 sw1 sw2 sw3 h3");
  p.switches = 2;
  EXPECT_THROW(build_topology(p), std::invalid_argument);
  p.switches = 4;
  p.ring_routing = "shortest";
  EXPECT_THROW(build_topology(p), std::invalid_argument);
}

TEST(PfcDeadlock, RingStrideDeadlocksAndTheCycleIsTheRingsQueues) {
  const TrafficResult r = run_traffic(ring_stride("clockwise", 200));
  ASSERT_EQ(r.fabric.deadlocks, 1u);
  ASSERT_EQ(r.fabric.deadlock_reports.size(), 1u);
  const PfcDeadlock& d = r.fabric.deadlock_reports[0];
  ASSERT_EQ(d.cycle.size(), 4u);
  const char* ring[] = {"sw0->sw1", "sw1->sw2", "sw2->sw3", "sw3->sw0"};
  double newest = 1e18;
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(d.cycle[i].port, ring[i]);
    EXPECT_EQ(d.cycle[i].priority, 3);  // switch.data_tc
    EXPECT_EQ(d.cycle[i].queued_bytes, d.cycle[0].queued_bytes);  // the ring is symmetric
    EXPECT_GT(d.cycle[i].queued_bytes, 64 * 1024);
    EXPECT_GE(d.cycle[i].paused_us, 1000.0);
    newest = std::min(newest, d.cycle[i].paused_us);
  }
  EXPECT_DOUBLE_EQ(newest, 1000.0);  // declared the moment the last pause of the cycle is 1 ms old
  EXPECT_GT(d.detected_at_us, 1000.0);
  // Stopped cleanly: nothing lost, every frame still accounted in flight, no message completes.
  EXPECT_TRUE(r.fabric.conserved);
  EXPECT_EQ(r.fabric.dropped, 0u);
  EXPECT_EQ(r.fabric.lossless_drops, 0u);
  EXPECT_EQ(r.fabric.watchdog_drops, 0u);
  EXPECT_GT(r.fabric.in_flight, 0u);
  EXPECT_EQ(completed(r), 0);
  EXPECT_EQ(r.failed_qps, 0);
  EXPECT_EQ(r.timeouts, 0u);  // detected long before the first RC timeout (4.096 us x 2^14)
}

TEST(PfcDeadlock, TheThresholdIsHonouredAndZeroTurnsDetectionOff) {
  TrafficConfig c = ring_stride("clockwise", 200);
  c.base.profile.sw.deadlock_detect = Time::ms(3);
  const TrafficResult slow = run_traffic(c);
  ASSERT_EQ(slow.fabric.deadlocks, 1u);
  double newest = 1e18;
  for (const DeadlockHop& h : slow.fabric.deadlock_reports[0].cycle) newest = std::min(newest, h.paused_us);
  EXPECT_DOUBLE_EQ(newest, 3000.0);
  // Off: nobody notices; the QPs time out retry_cnt times and fail, the frames stay stuck.
  c.base.profile.sw.deadlock_detect = Time::zero();
  const TrafficResult off = run_traffic(c);
  EXPECT_EQ(off.fabric.deadlocks, 0u);
  EXPECT_EQ(off.failed_qps, 4);
  EXPECT_EQ(completed(off), 0);
  EXPECT_GT(off.fabric.in_flight, 0u);
  EXPECT_TRUE(off.fabric.conserved);
  for (const FlowResult& f : off.flows) EXPECT_EQ(f.rc.status, "RETRY_EXC_ERR");
}

TEST(PfcWatchdog, BreaksTheDeadlockAndItsDropsAreCountedApart) {
  TrafficConfig c = ring_stride("clockwise", 20);
  c.base.profile.sw.pfc_watchdog = Time::us(200);
  c.base.profile.sw.pfc_watchdog_restore = Time::us(20);
  const TrafficResult r = run_traffic(c);
  EXPECT_EQ(r.fabric.deadlocks, 0u);
  EXPECT_EQ(completed(r), 4 * 20);
  for (const FlowResult& f : r.flows) EXPECT_EQ(f.rc.status, "ok");
  EXPECT_TRUE(r.fabric.conserved);
  EXPECT_EQ(r.fabric.in_flight, 0u);
  EXPECT_GT(r.fabric.watchdog_storms, 0u);
  EXPECT_GT(r.fabric.watchdog_drops, 0u);
  // Every drop was the watchdog's, at the ring's queues only; none is a lossless-class drop.
  EXPECT_EQ(r.fabric.lossless_drops, 0u);
  EXPECT_EQ(r.fabric.dropped, r.fabric.watchdog_drops);
  std::uint64_t by_port = 0, storms = 0, flow_drops = 0;
  for (const PortStats& p : r.fabric.ports) {
    EXPECT_EQ(p.drops, 0u) << p.port;
    if (p.watchdog_drops > 0) {
      EXPECT_EQ(p.port.rfind("sw", 0), 0u) << p.port;
    }
    by_port += p.watchdog_drops;
    storms += p.watchdog_storms;
  }
  for (const FlowResult& f : r.flows) flow_drops += f.dropped;
  EXPECT_EQ(by_port, r.fabric.watchdog_drops);
  EXPECT_EQ(storms, r.fabric.watchdog_storms);
  EXPECT_EQ(flow_drops, r.fabric.dropped);
  EXPECT_GT(r.retransmitted, 0u);  // go-back-N resends what the watchdog dropped
  EXPECT_EQ(port(r, "sw0->sw1")->watchdog_storms, port(r, "sw2->sw3")->watchdog_storms);
}

TEST(PfcDeadlock, UpDownRoutingCompletesTheSameTraffic) {
  const TrafficResult r = run_traffic(ring_stride("up-down", 200));
  EXPECT_EQ(r.fabric.deadlocks, 0u);
  EXPECT_EQ(completed(r), 4 * 200);
  EXPECT_EQ(r.fabric.dropped, 0u);
  EXPECT_EQ(r.fabric.in_flight, 0u);
  EXPECT_EQ(port(r, "sw3->sw0"), nullptr);  // the wrap cable carries nothing
  EXPECT_EQ(port(r, "sw0->sw3"), nullptr);
  EXPECT_EQ(r.flows[2].route, "h2 -> sw2 -> sw1 -> sw0 -> h0");
}

TEST(PfcDeadlock, NoFalsePositiveOnAnIncastsTransientPauses) {
  TrafficConfig c;  // the incast-pfc scenario: 8 -> 1 on a k=4 fat-tree, 2 MiB switch buffers
  c.base.topology = LatTopology::fabric;
  c.base.size = Bytes(65536);
  c.base.iters = 20;
  c.pattern = "incast";
  c.incast_senders = 8;
  c.tx_depth = 8;
  c.base.profile.sw.buffer = Bytes(2 * 1024 * 1024);
  // A threshold far below the pauses' length: long pauses alone are not a deadlock, a cycle is.
  c.base.profile.sw.deadlock_detect = Time::us(2);
  const TrafficResult r = run_traffic(c);
  EXPECT_EQ(r.fabric.deadlocks, 0u);
  EXPECT_EQ(completed(r), 8 * 20);
  EXPECT_GT(r.fabric.pause_frames, 0u);
  double longest = 0;
  for (const PortStats& p : r.fabric.ports) longest = std::max(longest, p.paused_us);
  EXPECT_GT(longest, 2.0);
  EXPECT_EQ(r.fabric.lossless_drops, 0u);
  EXPECT_EQ(r.fabric.watchdog_drops, 0u);  // watchdog off: it never drops
  EXPECT_EQ(r.fabric.dropped, 0u);
}

TEST(PfcDeadlock, StrideNeedsAValidStride) {
  TrafficConfig c = ring_stride("clockwise", 1);
  c.stride = 4;
  EXPECT_THROW(run_traffic(c), std::invalid_argument);
  c.stride = 0;
  EXPECT_THROW(run_traffic(c), std::invalid_argument);
}

// A port paused because the shared buffer was full (not for its own bytes) has nothing of its
// own left to release once its frames drain: it resumed only when one of its own frames left,
// so with a 256 KiB buffer a 4 -> 1 incast stayed paused for good (28 RC timeouts, every QP in
// RETRY_EXC_ERR, 198 frames stuck). The shared buffer draining resumes every such port.
TEST(Pfc, PortsPausedForTheSharedBufferResumeWhenItDrains) {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "single-switch";
  c.base.fabric.hosts = 5;
  c.base.size = Bytes(16384);
  c.base.iters = 50;
  c.pattern = "incast";
  c.incast_senders = 4;
  c.tx_depth = 128;
  c.base.profile.sw.buffer = Bytes(256 * 1024);
  const TrafficResult r = run_traffic(c);
  EXPECT_EQ(completed(r), 4 * 50);
  EXPECT_EQ(r.failed_qps, 0);
  EXPECT_EQ(r.timeouts, 0u);
  EXPECT_EQ(r.retransmitted, 0u);
  EXPECT_EQ(r.fabric.in_flight, 0u);
  EXPECT_EQ(r.fabric.lossless_drops, 0u);
  EXPECT_GT(r.fabric.pause_frames, 0u);
}

// The headroom counts the switch's forwarding pipeline: frames already inside it when XOFF goes
// out are admitted afterwards. At 400 Gb/s a 300 ns pipeline holds 15 KB, more than the three
// frames of slack, and an 8 -> 1 incast dropped lossless frames before; at any rate it drops none.
TEST(Pfc, HeadroomHoldsThePipelineAtEveryLinkRate) {
  for (int gbps : {100, 200, 400, 800}) {
    SCOPED_TRACE(gbps);
    TrafficConfig c;
    c.base.topology = LatTopology::fabric;
    c.base.fabric.topology = "fat-tree";
    c.base.profile.link.rate = Rate::gbps(gbps);
    c.base.size = Bytes(65536);
    c.base.iters = 100;
    c.pattern = "incast";
    c.incast_senders = 8;
    const TrafficResult r = run_traffic(c);  // throws on a lossless drop
    EXPECT_EQ(r.fabric.lossless_drops, 0u);
    EXPECT_EQ(completed(r), 800);
    EXPECT_GT(r.fabric.pause_frames, 0u);
  }
}
