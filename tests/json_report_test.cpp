// Same seed => byte-identical JSON; a different seed changes jittered runs.
#include "io/json_report.hpp"

#include <gtest/gtest.h>

using namespace rdmasim;

namespace {
std::string run_json(std::uint64_t seed) {
  LatConfig c;
  c.profile = make_profile("seed-demo");
  c.iters = 300;
  c.seed = seed;
  return lat_json({run_latency(c)}).dump(2);
}
}  // namespace

TEST(JsonReport, SameSeedIsByteIdentical) {
  EXPECT_EQ(run_json(7), run_json(7));
  EXPECT_NE(run_json(7), run_json(8));
}

TEST(JsonReport, CarriesPerftestKeysAndExactLedger) {
  LatConfig c;
  c.iters = 50;
  const LatResult r = run_latency(c);
  const auto j = lat_json({r});
  const auto& o = j["results"][0];
  EXPECT_EQ(o["MsgSize"], 2);
  EXPECT_EQ(o["n_iterations"], 50);
  for (const char* k : {"t_min", "t_max", "t_typical", "t_avg", "t_stdev", "percentile_99", "percentile_99.9"})
    EXPECT_TRUE(o.contains(k)) << k;
  double sum = 0;
  for (auto& [k, v] : o["ledger_ps"].items()) sum += v.get<double>();
  EXPECT_DOUBLE_EQ(sum, o["exact_ps"]["t_avg"].get<double>());
  EXPECT_EQ(j["config"]["parameters"]["link.rate"], "100Gbps");
  EXPECT_EQ(j["report"], "RTT/2");
}

TEST(JsonReport, BudgetJson) {
  LatConfig c;
  const BudgetResult b = run_budget(c);
  const auto j = budget_json(b);
  EXPECT_EQ(j["rtt_ps"].get<std::int64_t>(), b.rtt.total().count_ps());
  EXPECT_EQ(j["formulas"]["message_wire_bytes"], 102);
}

// bw --json with --post-list: each result's batching carries the client's costs per message,
// the QP's send engine among them, and the bound of the busiest.
TEST(JsonReport, BatchingCarriesTheEngineAndTheBound) {
  BwConfig b;
  b.base.size = Bytes(2);
  b.base.iters = 2000;
  b.post_list = 32;
  const BwResult r = run_bandwidth(b);
  const nlohmann::ordered_json j = bw_json(b, {r})["results"][0]["batching"];
  EXPECT_EQ(j["engine_ns_per_msg"], 130.0);
  EXPECT_EQ(j["bound_Mpps"], 1e6 / 130'000.0);
  EXPECT_EQ(j["cpu_ns_per_msg"], r.cost.cpu_ps / 1e3);
}
