// Fabric runs partitioned into logical processes (TrafficConfig::threads): a fat-tree's pods
// run on 1, 2 or 4 worker threads with the same result, byte for byte in the JSON report —
// RC WRITE flows with PFC, ECN and DCQCN (or HPCC, whose telemetry reaches the sender from
// every LP), a permutation and an incast whose pauses reach the core, and lossy runs that
// recover by RC. What a partitioned run cannot do is refused by name.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <tuple>

#include "io/command_report.hpp"
#include "rdmasim/traffic.hpp"
#include "net/topology_file.hpp"
#include "path/link.hpp"
#include "sim/fabric_partition.hpp"
#include "partition_configs.hpp"
#include "sim_rig.hpp"

using namespace rdmasim;
using namespace rdmasim::test;

namespace {

std::string report(TrafficConfig c, int threads) {
  c.threads = threads;
  return traffic_report_json(run_traffic(c), nullptr).dump();
}

// The report but for the events counted: one scheduler counts its PFC deadlock checks as
// events, an LP makes them between windows.
std::string without_events(TrafficConfig c, int threads) {
  c.threads = threads;
  return test::without_events(run_traffic(c));
}

}  // namespace

TEST(FabricCut, PodsWithTheirHostsAndTheCoreDealtToThem) {
  const Topology t = rdmasim::testing::fat_tree(4);
  const FabricPartition p = partition_fabric(t, 200'000'000);
  EXPECT_EQ(p.lps, 4);
  EXPECT_EQ(p.lookahead, Time::ns(50));  // a 10 m switch-to-switch cable
  for (std::size_t n = 0; n < t.nodes().size(); ++n) {
    const Node& node = t.nodes()[n];
    if (node.pod >= 0 && node.kind == NodeKind::switch_) {
      EXPECT_EQ(p.lp_of_node[n], node.pod) << node.name;
    }
    if (node.name.rfind("core", 0) == 0) {
      EXPECT_EQ(p.lp_of_node[n], std::stoi(node.name.substr(4)) % 4) << node.name;
    }
  }
  for (int h = 0; h < 16; ++h) EXPECT_EQ(p.lp_of_node[static_cast<std::size_t>(t.host_node(h))], h / 4) << h;
  TopologyParams one;
  one.name = "single-switch";
  one.hosts = 4;
  EXPECT_EQ(longest_propagation(t, 200'000'000), Time::ns(50));
  const Topology star = build_topology(one);
  const FabricPartition single = partition_fabric(star, 200'000'000);
  EXPECT_EQ(single.lps, 1);
  // No cable across: the longest cable's (a 3 m host cable), which a collective's barrier
  // between iterations is (no window may be longer).
  EXPECT_EQ(single.lookahead, longest_propagation(star, 200'000'000));
  EXPECT_EQ(single.lookahead, Time::ns(15));
}

TEST(TrafficPartition, AnyNumberOfThreadsGivesTheSameReport) {
  for (const std::string pattern : {"permutation", "incast"}) {
    const TrafficConfig c = pods(pattern, 4);
    const std::string one = report(c, 1);
    const TrafficResult r = [&] {
      TrafficConfig t = c;
      t.threads = 1;
      return run_traffic(t);
    }();
    expect_pods_ran(r, pattern, 20);
    for (int threads : {2, 4}) EXPECT_EQ(report(c, threads), one) << pattern << " on " << threads << " threads";
  }
}

// A ring whose stride routing wraps around deadlocks under PFC: partitioned (a switch and its
// hosts per LP), the check between windows finds the same four-queue cycle on any number of
// threads, and the run ends there.
TEST(TrafficPartition, APfcDeadlockIsFoundBetweenWindows) {
  TrafficConfig c = ring_deadlock();
  TrafficResult plain = run_traffic(c);
  ASSERT_EQ(plain.fabric.deadlocks, 1u);
  c.threads = 1;
  const TrafficResult one = run_traffic(c);
  ASSERT_EQ(one.fabric.deadlocks, 1u);
  ASSERT_EQ(one.fabric.deadlock_reports[0].cycle.size(), 4u);
  // Found at the end of the first window past the unpartitioned check's time.
  const double at = one.fabric.deadlock_reports[0].detected_at_us, want = plain.fabric.deadlock_reports[0].detected_at_us;
  EXPECT_GE(at, want);
  EXPECT_LT(at, want + 1.0);  // well within a microsecond (a window is one ring cable's propagation)
  const std::string report = traffic_report_json(one, nullptr).dump();
  for (int threads : {2, 4}) {
    c.threads = threads;
    EXPECT_EQ(traffic_report_json(run_traffic(c), nullptr).dump(), report) << threads << " threads";
  }
}

TEST(TrafficPartition, WhatAPartitionedRunCannotDoIsRefused) {
  auto refused = [](TrafficConfig c, const std::string& what) {
    c.threads = 2;
    try {
      run_traffic(c);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  TrafficConfig c = pods("permutation", 4);
  c.base.transport = Transport::tcp;
  c.base.test = TestKind::send;
  refused(c, "--transport tcp");
  c = pods("permutation", 4);
  c.base.fabric.routing = "adaptive";
  refused(c, "load balancer 'adaptive'");
}

// A partitioned run is one scheduler's run, report for report, but for the events counted: each
// frame crossing a cable is tied to its sending (Scheduler::tie), so the events of one instant
// run in one order whatever the cut — on a fat-tree's identical cables, where frames of an
// incast reach a switch at once from several LPs. A DCQCN incast with PFC and ECN, a DCQCN
// permutation, an HPCC incast (its far switches' telemetry handed over between windows), an
// incast under PFC alone, and a k=8 permutation, with and without a link going down.
TEST(TrafficPartition, ItIsOneSchedulersRun) {
  for (const auto& [pattern, cc, k] : {std::tuple{"incast", "dcqcn", 4}, std::tuple{"permutation", "dcqcn", 4}, std::tuple{"incast", "hpcc", 4},
                                       std::tuple{"incast", "none", 4}, std::tuple{"permutation", "dcqcn", 8}}) {
    TrafficConfig c = pods(pattern, k);
    c.base.fabric.cc = cc;
    if (k == 8) c.base.iters = 5;
    const std::string one_scheduler = without_events(c, 0);
    if (std::string(pattern) == "incast") {
      EXPECT_NE(one_scheduler.find("\"pause_tx\":"), std::string::npos);
    }
    for (int threads : {2, 4})
      EXPECT_TRUE(without_events(c, threads) == one_scheduler)
          << "the partitioned k=" << k << " " << pattern << " with " << cc << " on " << threads << " threads differs from one scheduler's";
  }
  // And with a link between pod 0 and a core switch of another LP going down for 40 us.
  TrafficConfig down = pods("permutation", 8);
  down.base.iters = 5;
  down.base.fabric.outages = {{"agg0.1", "core4", Time::us(20), Time::us(60)}};
  down.base.profile.sw.route_convergence = Time::us(10);
  const std::string one_scheduler = without_events(down, 0);
  EXPECT_NE(one_scheduler.find("\"link_drops\":"), std::string::npos);
  EXPECT_TRUE(without_events(down, 2) == one_scheduler) << "the partitioned k=8 permutation with a link down differs";
}

// HPCC's in-band telemetry: every switch egress on a flow's path reports to its sender, the
// egresses of other LPs between windows. A 15-to-1 incast across the pods gives the same report
// on 1, 2 and 4 threads, with one scheduler's PFC pause frames: the reports of the far pod's
// switches, where the incast queues, reach the senders before the ACKs they ride on.
TEST(TrafficPartition, HpccHearsEverySwitchOnAnyNumberOfThreads) {
  TrafficConfig c = pods("incast", 4);
  c.base.fabric.cc = "hpcc";
  const auto pauses = [](const TrafficResult& r) {
    std::uint64_t n = 0;
    for (const PortStats& p : r.fabric.ports) n += p.pause_tx;
    return n;
  };
  const std::uint64_t one_scheduler = pauses(run_traffic(c));
  c.threads = 1;
  const TrafficResult partitioned = run_traffic(c);
  EXPECT_EQ(partitioned.failed_qps, 0);
  EXPECT_GT(one_scheduler, 0u);
  EXPECT_EQ(pauses(partitioned), one_scheduler);
  const std::string one = traffic_report_json(partitioned, nullptr).dump();
  for (int threads : {2, 4}) EXPECT_EQ(report(c, threads), one) << threads << " threads";
}

// Lost frames: each is counted where it is lost and its transport hears of it in its far host's
// LP, the longest cable's propagation later (partitioned or not). A lossy class overflowing under
// an incast, and cables that corrupt frames (data and ACKs, so the requester loses ACKs that its
// responder, in another LP, cannot see: the requester marks its resends), recover by RC and
// give the same report on any number of threads, and one scheduler's.
TEST(TrafficPartition, LostFramesAreRecoveredTheSameOnAnyNumberOfThreads) {
  const TrafficConfig overflow = lossy_incast();  // a small lossy buffer drops under the incast
  const TrafficConfig corrupt = corrupting();
  // Five messages a flow: a flow loses its last message's ACK, which no later ACK covers; its
  // requester times out and marks its resend, and the responder (in another LP) answers that
  // duplicate.
  TrafficConfig last_ack = corrupt;
  last_ack.base.iters = 5;
  for (TrafficConfig c : {overflow, corrupt, last_ack}) {
    c.threads = 1;
    const TrafficResult r = run_traffic(c);
    EXPECT_EQ(r.invariant_violations, 0);
    EXPECT_EQ(r.failed_qps, 0);
    EXPECT_TRUE(r.fabric.conserved);
    EXPECT_GT(r.fabric.dropped, 0u);
    EXPECT_GT(r.retransmitted, 0u);
    std::uint64_t dropped = 0, acks_lost = 0;
    for (const FlowResult& f : r.flows) {
      EXPECT_EQ(f.completed, c.base.iters) << f.src << "->" << f.dst;
      dropped += f.dropped;
      acks_lost += f.rc.acks_lost;
    }
    EXPECT_EQ(dropped, r.fabric.dropped);  // every loss reached its flow
    if (c.base.fabric.loss > 0) {
      EXPECT_GT(acks_lost, 0u);
    }
    const std::string one = traffic_report_json(r, nullptr).dump();
    for (int threads : {2, 4}) EXPECT_EQ(report(c, threads), one) << c.pattern << " on " << threads << " threads";
    EXPECT_TRUE(without_events(c, 0) == without_events(c, 1)) << c.pattern << ": one scheduler's run differs";
  }
}

// A link going down and back up: each end changes in its own LP (agg0.1 in pod 0, core2 dealt
// to another), the frames on it are lost, every LP's switches converge on the tables planned
// for the two changes, RC recovers, and the report is the same on any number of threads, and
// one scheduler's (a frame on the wire when the link goes down is counted where it arrives).
TEST(TrafficPartition, ALinkGoingDownIsTheSameOnAnyNumberOfThreads) {
  for (const std::string pattern : {"permutation", "incast"}) {
    TrafficConfig c = pods(pattern, 4);
    c.base.fabric.outages = {{"agg0.1", "core2", Time::us(20), Time::us(60)}};
    c.base.profile.sw.route_convergence = Time::us(10);
    c.threads = 1;
    const TrafficResult r = run_traffic(c);
    EXPECT_EQ(r.failed_qps, 0);
    EXPECT_EQ(r.fabric.link_changes, 2u);
    EXPECT_EQ(r.fabric.reroutes, 2u);
    EXPECT_GT(r.fabric.link_drops, 0u) << pattern;
    EXPECT_EQ(r.fabric.dropped, r.fabric.link_drops);
    EXPECT_EQ(r.fabric.lossless_drops, 0u);
    EXPECT_TRUE(r.fabric.conserved);
    for (const FlowResult& f : r.flows) EXPECT_EQ(f.completed, 20) << f.src << "->" << f.dst;
    const std::string one = traffic_report_json(r, nullptr).dump();
    for (int threads : {2, 4}) EXPECT_EQ(report(c, threads), one) << pattern << " on " << threads << " threads";
    EXPECT_TRUE(without_events(c, 0) == without_events(c, 1)) << pattern << ": one scheduler's run differs";
  }
}
