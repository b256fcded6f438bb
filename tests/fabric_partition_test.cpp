// The packet-level fabric partitioned over a ParallelRun (Fabric::partition): a fat-tree's
// pods and its core switches in LPs of their own, frames and PFC frames crossing between them.
// The same run on 1, 2 and 4 worker threads gives the same arrivals, to the picosecond, and the
// same counters on every port, also with a link going down under the traffic; one LP holding
// every node is the unpartitioned fabric, event for event; what cannot be partitioned is
// refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/parallel_run.hpp"
#include "core/pool.hpp"
#include "net/ecmp.hpp"
#include "net/wire_format.hpp"
#include "sim/fabric.hpp"
#include "sim_rig.hpp"

using namespace rdmasim;

namespace {

// One flow's end: its arrivals, recorded in the destination host's LP only. Packets stay in
// the test's pool (released at the end): a pool is not shared between LPs.
struct FlowEnd final : FabricClient {
  explicit FlowEnd(const Scheduler* const* s) : sched(s) {}
  void arrived(Packet&) override { got.push_back((*sched)->now()); }
  void dropped(Packet&) override { drops.fetch_add(1, std::memory_order_relaxed); }
  const Scheduler* const* sched;  // the destination's scheduler
  std::vector<Time> got;
  std::atomic<int> drops{0};
};

// Fat-tree k=4: pod p (its edge and aggregation switches and their hosts) in LP p, the core
// switches in LP 4.
std::vector<int> pods_and_core(const Topology& t) {
  std::vector<int> lp(t.nodes().size(), 4);
  for (std::size_t n = 0; n < t.nodes().size(); ++n)
    if (t.nodes()[n].pod >= 0) lp[n] = t.nodes()[n].pod;
  for (int h = 0; h < t.host_count(); ++h) {  // (hosts carry their pod too; checked here)
    const int node = t.host_node(h);
    const Cable& c = t.cables()[static_cast<std::size_t>(t.nodes()[static_cast<std::size_t>(node)].cables.at(0))];
    EXPECT_EQ(lp[static_cast<std::size_t>(node)], lp[static_cast<std::size_t>(c.a == node ? c.b : c.a)]) << node;
  }
  return lp;
}

struct Outcome {
  std::vector<std::vector<Time>> arrivals;  // by flow
  std::vector<PortCounters> ports;
  std::uint64_t delivered = 0, crossings = 0, events = 0;
  int drops = 0;
  bool operator==(const Outcome& o) const {
    if (arrivals != o.arrivals || delivered != o.delivered || events != o.events || drops != o.drops) return false;
    for (std::size_t i = 0; i < ports.size(); ++i) {
      const PortCounters &a = ports[i], &b = o.ports[i];
      if (a.tx_packets != b.tx_packets || a.rx_packets != b.rx_packets || a.max_queue_bytes != b.max_queue_bytes ||
          a.queue_byte_ps != b.queue_byte_ps || a.drops != b.drops || a.ecn_marked != b.ecn_marked ||
          a.pause_tx != b.pause_tx || a.pause_rx != b.pause_rx || a.paused != b.paused)
        return false;
    }
    return true;
  }
};

struct Traffic {
  int src, dst, frames;
};

// An incast into h0 from every host of the other pods plus a permutation, all injected at 0.
std::vector<Traffic> mixed() {
  std::vector<Traffic> t;
  for (int h = 4; h < 16; ++h) t.push_back({h, 0, 24});
  for (int h = 0; h < 16; ++h) t.push_back({h, (h + 5) % 16, 12});
  return t;
}

// Deadlock detection off: the unpartitioned fabric would schedule its checks as events (which
// a partitioned one runs between windows), and these runs compare the two event for event.
FabricOptions quiet() {
  FabricOptions o;
  o.sw.deadlock_detect = Time::zero();
  return o;
}

// `lp_of_node` empty: the unpartitioned fabric on one scheduler.
Outcome run(const std::vector<Traffic>& traffic, int threads, std::vector<int> lp_of_node, FabricOptions o = quiet(),
            const Topology& topology = rdmasim::testing::fat_tree(4)) {
  auto topo = std::make_shared<const Topology>(topology);
  const int lps = lp_of_node.empty() ? 1 : *std::max_element(lp_of_node.begin(), lp_of_node.end()) + 1;
  ParallelRun pr(lps, Time::ns(40));
  Scheduler plain;
  Fabric fabric(lp_of_node.empty() ? plain : pr.scheduler(0), topo, o, 7);
  if (!lp_of_node.empty()) fabric.partition(pr, lp_of_node);
  std::vector<const Scheduler*> sched_of_host;
  for (int h = 0; h < topo->host_count(); ++h)
    sched_of_host.push_back(lp_of_node.empty() ? &plain : &pr.scheduler(lp_of_node[static_cast<std::size_t>(topo->host_node(h))]));
  Pool<Packet> packets;
  Pool<Message> messages;
  std::vector<std::unique_ptr<FlowEnd>> ends;
  std::vector<Packet*> all;
  for (std::size_t i = 0; i < traffic.size(); ++i) {
    const Traffic& t = traffic[i];
    ends.push_back(std::make_unique<FlowEnd>(&sched_of_host[static_cast<std::size_t>(t.dst)]));
    FabricFlow& f = fabric.add_flow(t.src, t.dst, roce_flow(t.src, t.dst, static_cast<std::uint16_t>(49152 + i)), *ends.back());
    Message& m = *messages.acquire();
    m.id = i + 1;
    for (int k = 0; k < t.frames; ++k) {
      Packet& p = *packets.acquire();
      p.msg = &m;
      p.payload = Bytes(4096);
      p.wire = frame_wire_bytes(FrameKind::roce_write, FramePos::middle, p.payload, LinkLayer::roce);
      all.push_back(&p);
      fabric.inject(p, f);
    }
  }
  if (lp_of_node.empty()) plain.run();
  else pr.run(threads);
  fabric.check_invariants();
  Outcome r;
  for (auto& e : ends) {
    r.arrivals.push_back(e->got);
    r.drops += e->drops.load();
  }
  for (int i = 0; i < fabric.port_count(); ++i) r.ports.push_back(fabric.counters(i));
  r.delivered = fabric.delivered();
  r.crossings = lp_of_node.empty() ? 0 : pr.crossings();
  r.events = lp_of_node.empty() ? plain.executed() : pr.executed();
  for (Packet* p : all) packets.release(p);
  return r;
}

std::uint64_t total(const Outcome& o, std::uint64_t PortCounters::*m) {
  std::uint64_t n = 0;
  for (const PortCounters& c : o.ports) n += c.*m;
  return n;
}

}  // namespace

TEST(FabricPartition, PodsOnAnyNumberOfThreadsGiveTheSameRun) {
  const Topology t = rdmasim::testing::fat_tree(4);
  const std::vector<int> lps = pods_and_core(t);
  const Outcome one = run(mixed(), 1, lps);
  // The incast pauses across the cut: PFC frames crossed as well as data frames.
  EXPECT_EQ(one.delivered, 12u * 24 + 16u * 12);
  EXPECT_EQ(one.drops, 0);
  EXPECT_GT(one.crossings, 0u);
  EXPECT_GT(total(one, &PortCounters::pause_tx), 0u);
  std::uint64_t core_pauses = 0;
  for (int i = 0; i < static_cast<int>(one.ports.size()); ++i)
    if (t.nodes()[static_cast<std::size_t>(t.cables()[static_cast<std::size_t>(i / 2)].a)].name.rfind("core", 0) == 0 ||
        t.nodes()[static_cast<std::size_t>(t.cables()[static_cast<std::size_t>(i / 2)].b)].name.rfind("core", 0) == 0)
      core_pauses += one.ports[static_cast<std::size_t>(i)].pause_rx;
  EXPECT_GT(core_pauses, 0u) << "no PFC frame crossed between a pod and the core";
  EXPECT_GT(total(one, &PortCounters::ecn_marked), 0u);
  for (int threads : {2, 4}) EXPECT_TRUE(run(mixed(), threads, lps) == one) << threads << " threads";
}

TEST(FabricPartition, OneLpIsTheUnpartitionedFabric) {
  const Topology t = rdmasim::testing::fat_tree(4);
  const Outcome plain = run(mixed(), 1, {});
  const Outcome one_lp = run(mixed(), 1, std::vector<int>(t.nodes().size(), 0));
  EXPECT_TRUE(one_lp == plain);
  EXPECT_EQ(one_lp.crossings, 0u);
  // Spray follows the same frames through the same queues whether the flows keep a route memo
  // (unpartitioned) or look each hop up (partitioned).
  FabricOptions spray = quiet();
  spray.routing = "spray";
  EXPECT_TRUE(run(mixed(), 1, std::vector<int>(t.nodes().size(), 0), spray) == run(mixed(), 1, {}, spray));
}

// An aggregation-to-core link goes down under the traffic and comes back: each end changes in
// its own LP, the frames on it are lost (their clients hear of it in their destination's LP),
// and every LP converges on the tables planned before the run. The same on 1, 2 and 4 threads;
// one LP loses and delivers what the unpartitioned fabric does (its events differ: each end of
// the cable and each LP's convergence are events of their own).
TEST(FabricPartition, ALinkGoingDownIsTheSameOnAnyNumberOfThreads) {
  Topology faulty = rdmasim::testing::fat_tree(4);
  int cable = -1;  // agg0.1 - core2: pod 0 (LP 0) to the core switches' LP
  for (std::size_t c = 0; c < faulty.cables().size(); ++c) {
    const std::string& a = faulty.nodes()[static_cast<std::size_t>(faulty.cables()[c].a)].name;
    const std::string& b = faulty.nodes()[static_cast<std::size_t>(faulty.cables()[c].b)].name;
    if ((a == "agg0.1" && b == "core2") || (a == "core2" && b == "agg0.1")) cable = static_cast<int>(c);
  }
  ASSERT_GE(cable, 0);
  faulty.set_outage(cable, Time::us(1), Time::us(3));
  FabricOptions o = quiet();
  o.sw.route_convergence = Time::ns(500);
  const std::vector<int> lps = pods_and_core(faulty);
  const Outcome one = run(mixed(), 1, lps, o, faulty);
  EXPECT_GT(one.drops, 0);
  EXPECT_EQ(one.delivered + static_cast<std::uint64_t>(one.drops), 12u * 24 + 16u * 12);
  for (int threads : {2, 4}) EXPECT_TRUE(run(mixed(), threads, lps, o, faulty) == one) << threads << " threads";
  Outcome plain = run(mixed(), 1, {}, o, faulty), one_lp = run(mixed(), 1, std::vector<int>(faulty.nodes().size(), 0), o, faulty);
  EXPECT_GT(plain.drops, 0);
  one_lp.events = plain.events;
  EXPECT_TRUE(one_lp == plain);
}

TEST(FabricPartition, WhatReachesAcrossLpsAtOnceIsRefused) {
  const auto topo = std::make_shared<const Topology>(rdmasim::testing::fat_tree(4));
  const std::vector<int> lps = pods_and_core(*topo);
  auto refused = [&](const FabricOptions& o, std::shared_ptr<const Topology> t, Time lookahead, const std::string& what) {
    ParallelRun pr(5, lookahead);
    Fabric f(pr.scheduler(0), t, o, 7);
    try {
      f.partition(pr, lps);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  FabricOptions adaptive = quiet();
  adaptive.routing = "adaptive";
  refused(adaptive, topo, Time::ns(40), "load balancer 'adaptive'");
  // A lookahead longer than a cable between two LPs (10 m: 50 ns) would let a frame land inside
  // the window it was sent in.
  refused(quiet(), topo, Time::ns(60), "less than the lookahead of 60000 ps");
  ParallelRun pr(5, Time::ns(40));
  Fabric f(pr.scheduler(0), topo, quiet(), 7);
  f.partition(pr, lps);
  Tracer* none = nullptr;
  EXPECT_NO_THROW(f.attach(none, nullptr));
  std::vector<PfcFrame> log;
  EXPECT_THROW(f.log_pfc(&log), std::invalid_argument);
}
