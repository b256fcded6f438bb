// A partitioned fabric run over ranks (run_traffic with a RankExchange: MPI under `mpirun`),
// here ranks as threads of one process (tests/thread_ranks.hpp), each building the whole model
// and running its share of the LPs: frames between ranks cross as bytes and are made again
// there, and the ranks' counts are joined at the end. On 2, 3 and 4 ranks the JSON report is
// byte for byte the partitioned run's on threads, which is one scheduler's but for the events
// counted: a k=4 permutation and incast with PFC and DCQCN, losses recovered by RC, a link
// going down, a k=8 permutation, and HPCC's telemetry from switches other ranks run; a PFC
// deadlock found at the same window. What cannot run over ranks is refused by name.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "io/command_report.hpp"
#include "rdmasim/traffic.hpp"
#include "partition_configs.hpp"
#include "thread_ranks.hpp"

using namespace rdmasim;
using namespace rdmasim::test;

namespace {

std::string report(const TrafficResult& r) { return traffic_report_json(r, nullptr).dump(); }

RankRuns run_ranks(const TrafficConfig& c, int n) {
  return run_on_thread_ranks(n, [&](RankExchange& me) { return report(run_traffic(c, nullptr, &me)); });
}

std::vector<std::string> over_ranks(const TrafficConfig& c, int n) {
  const RankRuns runs = run_ranks(c, n);
  for (int r = 0; r < n; ++r) EXPECT_EQ(runs.errors[static_cast<std::size_t>(r)], "") << "rank " << r << " of " << n;
  return runs.reports;
}

// Over 2, 3 and 4 ranks every rank's report is the partitioned run's on threads, byte for
// byte, which is one scheduler's but for the events counted.
void expect_one_schedulers(TrafficConfig c, const std::string& what) {
  const std::string one = without_events(run_traffic(c));
  c.threads = 1;
  const TrafficResult partitioned = run_traffic(c);
  const std::string threads = report(partitioned);
  c.threads = 0;
  EXPECT_TRUE(without_events(partitioned) == one) << what << ": one thread differs from one scheduler";
  for (int n : {2, 3, 4}) {
    const std::vector<std::string> got = over_ranks(c, n);
    for (int r = 0; r < n; ++r)
      EXPECT_TRUE(got[static_cast<std::size_t>(r)] == threads) << what << ": rank " << r << " of " << n << " differs from threads";
  }
}

}  // namespace

TEST(TrafficRanks, PermutationAndIncastWithPfcAndDcqcnAreOneSchedulersRun) {
  for (const std::string pattern : {"permutation", "incast"}) {
    const TrafficConfig c = pods(pattern, 4);
    expect_pods_ran(run_traffic(c), pattern, 20);
    expect_one_schedulers(c, pattern);
  }
}

TEST(TrafficRanks, LossesRecoveredByRcAreOneSchedulersRun) {
  const TrafficConfig overflow = lossy_incast();
  TrafficConfig corrupt = corrupting();
  corrupt.base.iters = 5;  // a flow loses its last ACK: the requester's resend is answered across ranks
  for (const TrafficConfig& c : {overflow, corrupt}) {
    const TrafficResult r = run_traffic(c);
    EXPECT_GT(r.fabric.dropped, 0u);
    EXPECT_GT(r.retransmitted, 0u);
    expect_one_schedulers(c, c.pattern + " with losses");
  }
}

TEST(TrafficRanks, ALinkGoingDownAndAK8FatTreeAreOneSchedulersRun) {
  TrafficConfig down = pods("permutation", 4);
  down.base.fabric.outages = {{"agg0.1", "core2", Time::us(20), Time::us(60)}};
  down.base.profile.sw.route_convergence = Time::us(10);
  const TrafficResult r = run_traffic(down);
  EXPECT_EQ(r.fabric.link_changes, 2u);
  EXPECT_GT(r.fabric.link_drops, 0u);
  expect_one_schedulers(down, "a link down");
  TrafficConfig k8 = pods("permutation", 8);
  k8.base.iters = 5;
  expect_one_schedulers(k8, "k=8");
}

// HPCC reads every switch egress its packets left: a report from a switch another rank runs
// crosses to the sender's rank between windows, and every sender reads its reports in the
// order threads hand them over (Fabric::hand_over_hops).
TEST(TrafficRanks, HpccsTelemetryReachesItsSendersAcrossRanks) {
  for (const std::string pattern : {"incast", "permutation"}) {
    TrafficConfig c = pods(pattern, 4);
    c.base.fabric.cc = "hpcc";
    expect_one_schedulers(c, pattern + " with HPCC");
  }
}

// The ring whose stride routing wraps around deadlocks under PFC: every rank gathers the paused
// queues of all when a check is due, finds the same four-queue cycle at the same window, and
// every rank's report is the one of threads.
TEST(TrafficRanks, APfcDeadlockIsFoundAcrossRanks) {
  TrafficConfig c = ring_deadlock();
  c.threads = 1;
  const TrafficResult one = run_traffic(c);
  ASSERT_EQ(one.fabric.deadlocks, 1u);
  ASSERT_EQ(one.fabric.deadlock_reports[0].cycle.size(), 4u);
  const std::string threads = report(one);
  c.threads = 0;
  for (int n : {2, 4}) {
    const std::vector<std::string> got = over_ranks(c, n);
    for (int r = 0; r < n; ++r) EXPECT_TRUE(got[static_cast<std::size_t>(r)] == threads) << "rank " << r << " of " << n;
  }
}

TEST(TrafficRanks, WhatCannotRunOverRanksIsRefused) {
  const auto refusal = [](const TrafficConfig& c) {
    const RankRuns runs = run_ranks(c, 2);
    EXPECT_EQ(runs.errors[0], runs.errors[1]);  // every rank refuses alike, before any exchange
    return runs.errors[0];
  };
  TrafficConfig threads = pods("permutation", 4);
  threads.threads = 2;
  EXPECT_EQ(refusal(threads), "--threads: over MPI ranks, one thread per rank");
  TrafficConfig tcp = pods("permutation", 4);
  tcp.base.transport = Transport::tcp;
  EXPECT_EQ(refusal(tcp), "over MPI ranks: kernel TCP flows (--transport tcp) do not run partitioned");
}
