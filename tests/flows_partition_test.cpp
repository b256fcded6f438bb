// Open-loop flows partitioned into logical processes (FlowsConfig::threads): a flow's QP is built
// between windows before its start, its WRITE posts in its source's LP, and its QP is freed
// between windows once idle. WebSearch and Hadoop loads with DCQCN or HPCC give the same report
// on 1, 2 and 4 threads, every flow completes, QPs are freed during the run, and the report is
// one scheduler's but for the events counted; what a partitioned run cannot keep is refused.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "io/flows_report.hpp"
#include "rdmasim/flows.hpp"

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
