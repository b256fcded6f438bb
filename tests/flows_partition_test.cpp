// Open-loop flows partitioned into logical processes (FlowsConfig::threads): a flow's QP is built
// between windows before its start, its WRITE posts in its source's LP, and its QP is freed
// between windows once idle. WebSearch and Hadoop loads with DCQCN or HPCC give the same report
// on 1, 2 and 4 threads, every flow completes, QPs are freed during the run, and the report is
// one scheduler's but for the events counted; what a partitioned run cannot keep is refused.
// Over ranks (a RankExchange: MPI under mpirun, here threads of this process) every rank's
// report is the threads' one, byte for byte.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "io/flows_report.hpp"
#include "rdmasim/flows.hpp"
#include "thread_ranks.hpp"

using namespace rdmasim;

namespace {

FlowsConfig pods(const std::string& cdf, const std::string& cc, Time span) {
  FlowsConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "fat-tree";
  c.base.fabric.k = 4;
  c.base.fabric.cc = cc;
  c.flows = poisson_flows(flow_size_cdf(cdf), 16, Rate::gbps(100), 0.5, span, 0, 3);
  return c;
}

FlowsResult run(FlowsConfig c, int threads) {
  c.threads = threads;
  return run_flows(c);
}

}  // namespace

TEST(FlowsPartition, AnyNumberOfThreadsGivesTheSameReport) {
  for (const auto& [cdf, cc] : {std::pair{"websearch", "dcqcn"}, std::pair{"hadoop", "hpcc"}}) {
    const FlowsConfig c = pods(cdf, cc, Time::us(300));
    const FlowsResult one = run(c, 1);
    ASSERT_GT(one.flows.size(), 20U) << cdf;
    EXPECT_EQ(one.completed, static_cast<std::int64_t>(one.flows.size())) << cdf;
    EXPECT_EQ(one.invariant_violations, 0);
    EXPECT_EQ(one.failed_qps, 0);
    // QPs are freed between windows as their flows finish: never all held at once.
    EXPECT_LT(one.peak_qps_held, static_cast<std::int64_t>(one.flows.size())) << cdf;
    EXPECT_LE(one.peak_qps, one.peak_qps_held) << cdf;  // a QP is held while its flow is in progress
    const std::string json = flows_json(one).dump();
    for (int threads : {2, 4}) EXPECT_EQ(flows_json(run(c, threads)).dump(), json) << cdf << " on " << threads << " threads";
    // One scheduler runs the same events in the same order (Scheduler's ties) but counts its
    // PFC deadlock checks as events (an LP makes them between windows).
    auto without_events = [](const FlowsResult& r) {
      auto j = flows_json(r);
      j.erase("events");
      return j.dump();
    };
    EXPECT_TRUE(without_events(run(c, 0)) == without_events(one)) << cdf << ": the partitioned flows differ from one scheduler's";
  }
}

TEST(FlowsPartition, FlowsArrivingAfterAnIdleStretchStillStartOnTime) {
  // Two flows far apart: the windows skip the idle stretch, and the second still posts at its
  // start (its QP built before the window it falls in).
  FlowsConfig c = pods("websearch", "none", Time::us(1));
  c.flows = {FlowArrival{0, 15, Bytes(65536), Time::zero(), -1}, FlowArrival{3, 12, Bytes(65536), Time::us(500), -1}};
  const FlowsResult seq = run(c, 0), two = run(c, 2);
  ASSERT_EQ(two.completed, 2);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(two.flows[i].fct, seq.flows[i].fct) << i;
  EXPECT_EQ(two.flows[1].slowdown, 1.0);
}

TEST(FlowsPartition, APfcLogIsRefused) {
  FlowsConfig c = pods("websearch", "none", Time::us(50));
  c.log_pfc = true;
  c.threads = 2;
  try {
    run_flows(c);
    FAIL() << "a PFC log was kept partitioned";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--pfc-out"), std::string::npos) << e.what();
  }
}

// Over 2 and 3 ranks every process builds each flow's QP at the same window and runs its LPs'
// share; completions are swapped between windows, a QP idle over every rank is freed by all in
// the threads' order with its RC report joined, and the flows' records, ledger checks, events
// and fabric counts are joined at the end: every rank's JSON is the threads' one (the events
// counted too), with DCQCN, HPCC (its switches' telemetry crossing to the senders' ranks) and a
// link going down in a k=8 fat-tree.
TEST(FlowsRanks, EveryRankReportsTheThreadsRun) {
  FlowsConfig down;
  down.base.topology = LatTopology::fabric;
  down.base.fabric.topology = "fat-tree";
  down.base.fabric.k = 8;
  down.base.fabric.cc = "dcqcn";
  down.base.fabric.outages = {{"agg0.1", "core4", Time::us(20), Time::us(200)}};
  down.flows = poisson_flows(flow_size_cdf("websearch"), 128, Rate::gbps(100), 0.5, Time::us(100), 0, 3);
  for (const auto& [c, what] : {std::pair{pods("websearch", "dcqcn", Time::us(300)), "websearch, DCQCN, k=4"},
                                std::pair{pods("hadoop", "hpcc", Time::us(300)), "hadoop, HPCC, k=4"},
                                std::pair{down, "websearch, DCQCN, k=8, agg0.1-core4 down 20-200 us"}}) {
    // The report, and the most QPs held at once: freed during the run, as on threads.
    const auto report = [](const FlowsResult& r) { return flows_json(r).dump() + " held " + std::to_string(r.peak_qps_held); };
    const FlowsConfig& config = c;  // (clang before 16 cannot capture a structured binding in a lambda)
    const FlowsResult threads = run(config, 1);
    EXPECT_EQ(threads.completed, static_cast<std::int64_t>(threads.flows.size())) << what;
    EXPECT_LT(threads.peak_qps_held, static_cast<std::int64_t>(threads.flows.size())) << what;
    const std::string json = report(threads);
    for (int n : {2, 3}) {
      const RankRuns runs = run_on_thread_ranks(n, [&](RankExchange& me) { return report(run_flows(config, nullptr, &me)); });
      for (int r = 0; r < n; ++r) {
        EXPECT_EQ(runs.errors[static_cast<std::size_t>(r)], "") << what << ": rank " << r << " of " << n;
        EXPECT_TRUE(runs.reports[static_cast<std::size_t>(r)] == json) << what << ": rank " << r << " of " << n << " differs from threads";
      }
    }
  }
}

TEST(FlowsRanks, WhatCannotRunOverRanksIsRefused) {
  const auto refusal = [](const FlowsConfig& c) {
    const RankRuns runs = run_on_thread_ranks(2, [&](RankExchange& me) { return flows_json(run_flows(c, nullptr, &me)).dump(); });
    EXPECT_EQ(runs.errors[0], runs.errors[1]);  // every rank refuses alike, before any exchange
    return runs.errors[0];
  };
  FlowsConfig threads = pods("websearch", "dcqcn", Time::us(50));
  threads.threads = 2;
  EXPECT_EQ(refusal(threads), "--threads: over MPI ranks, one thread per rank");
  FlowsConfig pfc = pods("websearch", "dcqcn", Time::us(50));
  pfc.log_pfc = true;
  EXPECT_EQ(refusal(pfc), "over MPI ranks: a partitioned run keeps no PFC log (--pfc-out)");
}

TEST(FlowsRanks, NoFlowsIsTheThreadsEmptyReport) {
  FlowsConfig c = pods("websearch", "dcqcn", Time::us(50));
  c.flows.clear();  // no flow arrives: no fabric is built
  const std::string threads = flows_json(run(c, 1)).dump();
  const RankRuns runs = run_on_thread_ranks(2, [&](RankExchange& me) { return flows_json(run_flows(c, nullptr, &me)).dump(); });
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(runs.errors[static_cast<std::size_t>(r)], "") << "rank " << r;
    EXPECT_TRUE(runs.reports[static_cast<std::size_t>(r)] == threads) << "rank " << r;
  }
}
