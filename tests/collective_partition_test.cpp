// Collectives partitioned into logical processes (CollectiveConfig::threads): each rank runs in
// its server's (or host's) LP, what a step waits for from another LP arrives as a fabric
// crossing, and the iteration's barrier is found between windows. The nccl-tests JSON is the
// same on 1, 2 and 4 threads for rings, alltoall and broadcast, with GPUDirect and staged, with
// PXN over a rail-optimized fabric of several scalable units; but for the events counted it is
// one scheduler's, with DCQCN and a link going down too; a cut of one LP is one scheduler; a
// server whose NICs the cut splits is refused. Over ranks (a RankExchange: MPI under mpirun, here
// threads of this process, tests/thread_ranks.hpp) every rank's report is the threads' one on
// 2 and 3 ranks. A size whose steps carry no data between LPs is refused.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "io/nccl_report.hpp"
#include "rdmasim/nccl_test.hpp"
#include "thread_ranks.hpp"

using namespace rdmasim;

namespace {

CollectiveConfig pods(CollOp op, int gpus) {
  CollectiveConfig c;
  c.base.fabric.topology = "fat-tree";
  c.base.fabric.k = 4;
  c.op = op;
  c.gpus = gpus;
  c.min_bytes = 1 << 20;
  c.max_bytes = 2 << 20;
  c.iters = 2;
  c.warmup = 1;
  return c;
}

// 8 DGX H100 in 4 scalable units of 2: four LPs, each a unit's 8 rail leaves with its servers.
CollectiveConfig rails() {
  CollectiveConfig c;
  c.base.fabric.topology = "rail-optimized";
  c.base.fabric.server = "dgx-h100";
  c.base.fabric.servers = 8;
  c.base.fabric.servers_per_su = 2;
  c.base.fabric.spines = 4;
  c.gpus = 8;
  c.min_bytes = c.max_bytes = 8 << 20;
  c.iters = 2;
  c.warmup = 1;
  return c;
}

std::string report(CollectiveConfig c, int threads) {
  c.threads = threads;
  const CollectiveResult r = run_collective(c);
  EXPECT_EQ(r.wrong, 0);
  return collective_json(r).dump();
}

void expect_same_on_any_threads(const CollectiveConfig& c, const std::string& what) {
  const std::string one = report(c, 1);
  EXPECT_EQ(report(c, 2), one) << what;
  EXPECT_EQ(report(c, 4), one) << what;
}

double time_us(CollectiveConfig c, int threads) {
  c.threads = threads;
  return run_collective(c).rows.at(0).time_us;
}

}  // namespace

TEST(CollectivePartition, RingsAlltoallAndBroadcastAreTheSameOnAnyNumberOfThreads) {
  expect_same_on_any_threads(pods(CollOp::all_reduce, 2), "all_reduce, 2 GPUs a host (peer copies)");
  expect_same_on_any_threads(pods(CollOp::alltoall, 1), "alltoall");
  expect_same_on_any_threads(pods(CollOp::broadcast, 1), "broadcast");
  CollectiveConfig staged = pods(CollOp::all_gather, 1);
  staged.gpudirect = false;
  expect_same_on_any_threads(staged, "all_gather staged through host memory");
}

TEST(CollectivePartition, RailsWithPxnAcrossScalableUnitsAreTheSameOnAnyNumberOfThreads) {
  expect_same_on_any_threads(rails(), "all_reduce on 64 GPUs, PXN");
  CollectiveConfig staged = rails();
  staged.gpudirect = false;
  staged.pxn = false;
  expect_same_on_any_threads(staged, "all_reduce on 64 GPUs, staged, no PXN");
  EXPECT_EQ(time_us(rails(), 2), time_us(rails(), 0));
}

// The partitioned collective is one scheduler's, row for row, but for the events counted (an LP
// starts its ranks' iteration in an event of its own): a frame crossing a cable is tied to its
// sending (Scheduler::tie), and the next iteration starts a barrier (the longest cable's
// propagation, no shorter than a window) after the last finish in both (docs/parallel.md). The
// alltoall meets the last iteration's ACKs, DCQCN's timers run between iterations.
TEST(CollectivePartition, ItIsOneSchedulersRun) {
  const auto without_events = [](CollectiveConfig c, int threads) {
    c.threads = threads;
    auto j = collective_json(run_collective(c));
    for (auto& row : j["results"]) row.erase("events");
    return j.dump();
  };
  CollectiveConfig dcqcn = pods(CollOp::all_reduce, 1);
  dcqcn.base.fabric.cc = "dcqcn";
  dcqcn.base.fabric.outages = {{"agg0.1", "core2", Time::us(20), Time::us(60)}};
  for (const auto& [c, what] : {std::pair{pods(CollOp::all_reduce, 1), "all_reduce"}, std::pair{pods(CollOp::alltoall, 1), "alltoall"},
                                std::pair{dcqcn, "all_reduce with DCQCN, agg0.1-core2 down 20-60 us"}}) {
    const std::string one_scheduler = without_events(c, 0);
    EXPECT_NE(one_scheduler.find("\"busbw_GBps\""), std::string::npos);
    EXPECT_NE(one_scheduler.find("\"wrong\":0"), std::string::npos) << what;
    for (int threads : {1, 2, 4})
      EXPECT_TRUE(without_events(c, threads) == one_scheduler) << what << " on " << threads << " threads differs from one scheduler's";
  }
}

TEST(CollectivePartition, OneLpIsOneScheduler) {
  // One scalable unit with its spines is a cut of one LP: the same events in the same order
  // as one scheduler (an alltoall's incasts are where an order of simultaneous events shows).
  CollectiveConfig c = rails();
  c.op = CollOp::alltoall;
  c.base.fabric.servers = 4;
  c.base.fabric.servers_per_su = 4;
  c.min_bytes = c.max_bytes = 16 << 20;
  c.iters = 1;
  c.warmup = 0;
  // The whole report but the events: one scheduler's PFC deadlock checks are events, an LP's
  // run between windows.
  const auto without_events = [](const CollectiveResult& r) {
    auto j = collective_json(r);
    for (auto& row : j["results"]) row.erase("events");
    return j.dump();
  };
  const CollectiveResult one = run_collective(c);
  c.threads = 1;
  EXPECT_EQ(without_events(run_collective(c)), without_events(one));
}

TEST(CollectivePartition, AServerTheCutSplitsIsRefused) {
  // Two leaves outside any pod are two LPs; each server has a NIC on each.
  CollectiveConfig c;
  c.base.fabric.topology = "file";
  c.base.fabric.topology_file = "split.topo";
  c.base.fabric.topology_text =
      "rdmasim-topology 1\nswitch leaf0\nswitch leaf1\nswitch spine0 tier=2\n"
      "server s0 nics=2\nserver s1 nics=2\n"
      "link leaf0 spine0 rate=100Gbps length=10m\nlink leaf1 spine0 rate=100Gbps length=10m\n"
      "link s0.nic0 leaf0 rate=100Gbps length=2m\nlink s0.nic1 leaf1 rate=100Gbps length=2m\n"
      "link s1.nic0 leaf0 rate=100Gbps length=2m\nlink s1.nic1 leaf1 rate=100Gbps length=2m\n";
  c.gpus = 2;
  c.min_bytes = c.max_bytes = 1 << 20;
  c.iters = 1;
  c.warmup = 0;
  EXPECT_EQ(run_collective(c).wrong, 0);  // one scheduler runs it
  c.threads = 2;
  try {
    run_collective(c);
    FAIL() << "a split server ran partitioned";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("server s0 lie in different logical processes"), std::string::npos) << e.what();
  }
}

// Over 2 and 3 ranks, each building the whole run and running the ranks of its LPs, every
// rank's report is the threads' run's, byte for byte (the events counted too: they are summed
// over the ranks): transfers to a rank another process runs travel there as records, every
// LP's finishes are swapped between windows, and the ranks' data, bytes sent and copy time are
// joined at the end (#wrong 0 checks the data every rank holds).
TEST(CollectiveRanks, EveryRankReportsTheThreadsRun) {
  CollectiveConfig staged = pods(CollOp::all_gather, 1);
  staged.gpudirect = false;
  CollectiveConfig dcqcn = pods(CollOp::all_reduce, 1);
  dcqcn.base.fabric.cc = "dcqcn";
  dcqcn.base.fabric.outages = {{"agg0.1", "core2", Time::us(20), Time::us(60)}};
  CollectiveConfig units = rails();
  units.iters = 1;
  units.min_bytes = units.max_bytes = 2 << 20;
  for (const auto& [c, what] : {std::pair{pods(CollOp::all_reduce, 2), "all_reduce, 2 GPUs a host"}, std::pair{pods(CollOp::alltoall, 1), "alltoall"},
                                std::pair{pods(CollOp::broadcast, 1), "broadcast"}, std::pair{staged, "all_gather staged"},
                                std::pair{dcqcn, "all_reduce with DCQCN and a link down"}, std::pair{units, "all_reduce on 64 GPUs, PXN"}}) {
    const CollectiveConfig& config = c;  // (clang before 16 cannot capture a structured binding in a lambda)
    const std::string threads = report(config, 1);
    for (int n : {2, 3}) {  // (4 ranks: tests/mpi_fabric_test.sh)
      const RankRuns runs = run_on_thread_ranks(n, [&](RankExchange& me) { return collective_json(run_collective(config, &me)).dump(); });
      for (int r = 0; r < n; ++r) {
        EXPECT_EQ(runs.errors[static_cast<std::size_t>(r)], "") << what << ": rank " << r << " of " << n;
        EXPECT_TRUE(runs.reports[static_cast<std::size_t>(r)] == threads) << what << ": rank " << r << " of " << n << " differs from threads";
      }
    }
  }
}

TEST(CollectiveRanks, ThreadsOverRanksAndStepsWithoutDataAreRefused) {
  const auto refusal = [](const CollectiveConfig& c) {
    const RankRuns runs = run_on_thread_ranks(2, [&](RankExchange& me) { return collective_json(run_collective(c, &me)).dump(); });
    EXPECT_EQ(runs.errors[0], runs.errors[1]);  // every rank refuses alike, before any exchange
    return runs.errors[0];
  };
  CollectiveConfig threads = pods(CollOp::all_reduce, 1);
  threads.threads = 2;
  EXPECT_EQ(refusal(threads), "--threads: over MPI ranks, one thread per rank");
  // 16 ranks, 16 bytes: 4 floats over 16 chunks. A step without data arrives the instant it is
  // sent (one scheduler runs it), which no partitioned run can hand to another LP.
  CollectiveConfig tiny = pods(CollOp::all_reduce, 1);
  tiny.min_bytes = tiny.max_bytes = 16;
  EXPECT_EQ(run_collective(tiny).wrong, 0);
  const std::string why = " all_reduce of 16 bytes has steps without data (its 16 chunks do not all hold an element), and "
                          "such a step cannot reach another logical process at once: run larger sizes (-b)";
  EXPECT_EQ(refusal(tiny), "over MPI ranks:" + why);
  tiny.threads = 2;
  EXPECT_THROW(
      try { run_collective(tiny); } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "--threads:" + why);
        throw;
      },
      std::invalid_argument);
}
