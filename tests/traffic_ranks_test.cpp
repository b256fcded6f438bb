// A partitioned fabric run over ranks (run_traffic with a RankExchange: MPI under `mpirun`),
// here ranks as threads of one process (tests/thread_ranks.hpp), each building the whole model
// and running its share of the LPs: frames between ranks cross as bytes and are made again
// there, and the ranks' counts are joined at the end. On 2, 3 and 4 ranks the JSON report is
// byte for byte the partitioned run's on threads and one scheduler's (a link going down: but for
// the events counted): a k=4 permutation and incast with PFC and DCQCN, losses recovered by RC,
// a link going down, and a k=8 permutation. What cannot run over ranks is refused by name.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "io/command_report.hpp"
#include "rdmasim/traffic.hpp"
#include "thread_ranks.hpp"

using namespace rdmasim;

namespace {

TrafficConfig pods(const std::string& pattern, int k) {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.k = k;
  c.base.fabric.cc = "dcqcn";
  c.base.size = Bytes(65536);
  c.base.iters = 20;
  c.tx_depth = 4;
  c.pattern = pattern;
  c.incast_senders = k * k * k / 4 - 1;
  c.base.profile.sw.deadlock_detect = Time::zero();  // it reads every LP between windows: not over ranks
  return c;
}

std::string report(const TrafficResult& r) { return traffic_report_json(r, nullptr).dump(); }

// Every rank's report (each rank's whole result).
std::vector<std::string> over_ranks(const TrafficConfig& c, int n) {
  ThreadRanks all(n);
  std::vector<std::string> out(static_cast<std::size_t>(n));
  std::vector<std::string> errors(static_cast<std::size_t>(n));
  std::vector<std::thread> ranks;
  for (int r = 0; r < n; ++r)
    ranks.emplace_back([&, r] {
      ThreadRanks::Rank me(all, r);
      try {
        out[static_cast<std::size_t>(r)] = report(run_traffic(c, nullptr, &me));
      } catch (const std::exception& e) {
        errors[static_cast<std::size_t>(r)] = e.what();
      }
    });
  for (std::thread& t : ranks) t.join();
  for (int r = 0; r < n; ++r) EXPECT_EQ(errors[static_cast<std::size_t>(r)], "") << "rank " << r << " of " << n;
  return out;
}

// Over 2, 3 and 4 ranks every rank's report is the partitioned run's on threads, byte for
// byte, and one scheduler's (but for the events of a link going down: each LP converges).
void expect_one_schedulers(TrafficConfig c, const std::string& what) {
  const std::string one = report(run_traffic(c));
  c.threads = 1;
  const std::string threads = report(run_traffic(c));
  c.threads = 0;
  if (c.base.fabric.outages.empty()) EXPECT_TRUE(threads == one) << what << ": one thread differs from one scheduler";
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
    const TrafficResult r = run_traffic(c);
    EXPECT_EQ(r.failed_qps, 0);
    for (const FlowResult& f : r.flows) EXPECT_EQ(f.completed, 20) << f.src << "->" << f.dst;
    if (pattern == "incast") {
      EXPECT_GT(r.cnps, 0u);
      std::uint64_t pauses = 0;
      for (const PortStats& p : r.fabric.ports) pauses += p.pause_tx;
      EXPECT_GT(pauses, 0u);
    }
    expect_one_schedulers(c, pattern);
  }
}

TEST(TrafficRanks, LossesRecoveredByRcAreOneSchedulersRun) {
  TrafficConfig overflow = pods("incast", 4);
  overflow.base.profile.sw.lossless = false;  // a small lossy buffer drops under the incast
  overflow.base.profile.sw.buffer = Bytes(512 * 1024);
  overflow.base.profile.sw.ecn_kmin = Bytes(32 * 1024);
  overflow.base.profile.sw.ecn_kmax = Bytes(128 * 1024);
  TrafficConfig corrupt = pods("permutation", 4);
  corrupt.base.fabric.loss = 5e-3;
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

TEST(TrafficRanks, WhatCannotRunOverRanksIsRefused) {
  const auto refusal = [](const TrafficConfig& c) {
    const std::vector<std::string> got = [&] {
      ThreadRanks all(2);
      std::vector<std::string> errors(2);
      std::vector<std::thread> ranks;
      for (int r = 0; r < 2; ++r)
        ranks.emplace_back([&, r] {
          ThreadRanks::Rank me(all, r);
          try {
            run_traffic(c, nullptr, &me);
          } catch (const std::invalid_argument& e) {
            errors[static_cast<std::size_t>(r)] = e.what();
          }
        });
      for (std::thread& t : ranks) t.join();
      return errors;
    }();
    EXPECT_EQ(got[0], got[1]);  // every rank refuses alike, before any exchange
    return got[0];
  };
  TrafficConfig deadlock = pods("permutation", 4);
  deadlock.base.profile.sw.deadlock_detect = Time::us(100);
  EXPECT_EQ(refusal(deadlock),
            "the PFC deadlock check (switch.deadlock_detect; 0 turns it off) does not run over MPI ranks (it reads every "
            "LP's switches between windows)");
  TrafficConfig hpcc = pods("incast", 4);
  hpcc.base.fabric.cc = "hpcc";
  EXPECT_EQ(refusal(hpcc),
            "in-band telemetry (a rate control reading the switches, as HPCC) does not run over MPI ranks (it reads every "
            "LP's switches between windows)");
  TrafficConfig threads = pods("permutation", 4);
  threads.threads = 2;
  EXPECT_EQ(refusal(threads), "--threads: over MPI ranks, one thread per rank");
  TrafficConfig tcp = pods("permutation", 4);
  tcp.base.transport = Transport::tcp;
  EXPECT_EQ(refusal(tcp), "over MPI ranks: kernel TCP flows (--transport tcp) do not run partitioned");
}
