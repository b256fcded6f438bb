// Regressions: where the command line and the scenario path (run, compare, sweep, the HTTP API)
// once disagreed. Each test names the bug it guards against. The CLI side is in
// drift_regressions_test.sh.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "error_text.hpp"
#include "rdmasim/bandwidth.hpp"
#include "config/scenario.hpp"
#include "config/scenario_runs.hpp"

using namespace rdmasim;
using namespace rdmasim::cli;

namespace {

const char* kQ4 = R"(name = "q4"
command = "bw"
[workload]
size = "64KiB"
iters = 200
qps = 4
bidirectional = true
)";

double metric(const std::vector<Metric>& m, const std::string& name) {
  const auto it = std::find_if(m.begin(), m.end(), [&](const Metric& x) { return x.name == name; });
  if (it == m.end()) throw std::logic_error("no metric " + name);
  return it->value;
}

using rdmasim::testing::error_text;

// 200 64 KiB WRITEs per QP, configured by hand (not through the mapping under test).
BwResult by_hand(int qps, bool bidirectional, int tx_depth = 128) {
  ScenarioOptions o;
  o.size = 65536;
  o.iters = 200;
  BwConfig b;
  b.base = to_config(o);
  b.qps = qps;
  b.bidirectional = bidirectional;
  b.tx_depth = tx_depth;
  return run_bandwidth(b);
}

}  // namespace

// compare/sweep/POST /api/runs echoed workload.qps and workload.bidirectional and ran one QP one way.
TEST(DriftRegression, CompareHonoursQpsAndBidirectional) {
  const BwResult want = by_hand(4, true);
  EXPECT_NEAR(want.msg_rate_mpps, 0.3732, 5e-5);  // perftest -q 4 -b: both directions' rates added
  const std::vector<Metric> m = rdmasim::run(parse_scenario(kQ4, "q4.toml")).metrics;
  EXPECT_EQ(metric(m, "msg_rate_Mpps"), want.msg_rate_mpps);
  EXPECT_EQ(metric(m, "bw_avg_Gbps"), want.bw_avg_bps / 1e9);
}

TEST(DriftRegression, SweepOverQpsGivesDifferentRows) {
  // One message in flight per QP: one QP leaves a third of the link idle, four fill it (with a deep
  // window the link caps both alike and the rows could not tell the key was ignored).
  Scenario base = parse_scenario(kQ4, "q4.toml");
  apply_override(base, "workload.bidirectional=false");
  apply_override(base, "workload.tx_depth=1");
  const SweepTable t = run_sweep(base, {parse_sweep_param("workload.qps=1,4")}, 2);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(metric(t.rows[0], "msg_rate_Mpps"), by_hand(1, false, 1).msg_rate_mpps);
  EXPECT_EQ(metric(t.rows[1], "msg_rate_Mpps"), by_hand(4, false, 1).msg_rate_mpps);
  EXPECT_GT(metric(t.rows[1], "msg_rate_Mpps"), 1.4 * metric(t.rows[0], "msg_rate_Mpps"));
}

TEST(DriftRegression, DurationKeysReachTheRun) {
  Scenario s = parse_scenario("command = \"bw\"\n[workload]\nsize = \"64KiB\"\nduration = \"200us\"\nmargin = \"20us\"\n",
                               "d.toml");
  const BwConfig b = to_bw_config(s.options);
  EXPECT_EQ(b.duration, Time::us(200));
  EXPECT_EQ(b.margin, Time::us(20));
  // Duration and iterations are two ways to say when to stop: refused together, as -D with -n.
  apply_override(s, "workload.iters=100");
  EXPECT_EQ(error_text([&] { to_bw_config(s.options); }),
            "-n/--iters and -D/--duration (workload.iters, workload.duration): give one (a duration run posts until "
            "the time is up)");
}

// -D 0 was taken as "no duration" and ran --iters messages.
TEST(DriftRegression, ZeroDurationIsRefused) {
  ScenarioOptions o;
  o.duration = "0";
  EXPECT_EQ(error_text([&] { to_bw_config(o); }), "-D/--duration: must be more than 0, got \"0\"");
  o.duration.clear();
  o.margin = "1ms";
  EXPECT_EQ(error_text([&] { to_bw_config(o); }), "-f/--margin: needs -D/--duration");
}

// A -D window too short for a rate was refused by `rdmasim bw` only; run() (compare, sweep, the
// API) reported a rate from fewer than two completions.
TEST(DriftRegression, TooShortADurationIsRefusedByRunToo) {
  Scenario s = parse_scenario("command = \"bw\"\n[workload]\nsize = \"1MiB\"\nduration = \"20us\"\n", "d.toml");
  EXPECT_EQ(error_text([&] { run(s); }),
            "-D/--duration: 0 messages completed inside the measured window (after -f/--margin, before the end less "
            "the margin); a rate needs two: run longer");
  apply_override(s, "workload.duration=1ms");
  EXPECT_GT(run(s).metric("bw_avg_Gbps"), 90);
}

// A pattern scenario silently ran one QP per flow whatever workload.qps said.
TEST(DriftRegression, PatternRefusesTheTwoHostKeys) {
  Scenario s = parse_scenario(
      "command = \"bw\"\n[workload]\npattern = \"permutation\"\nqps = 2\n[network]\ntopology = \"single-switch\"\n", "p.toml");
  EXPECT_NE(error_text([&] { rdmasim::run(s).metrics; }).find("-q/--qp, --cores, -b/--bidirectional and -D/--duration are for the two-host"),
            std::string::npos);
}

// `[foo]` (an unknown, empty table) was accepted and ignored.
TEST(DriftRegression, UnknownEmptyTableIsAnError) {
  EXPECT_EQ(error_text([] { parse_scenario("command = \"lat\"\n[foo]\n", "f.toml"); }),
            "f.toml:2:1: foo: unknown key (valid at the top level: name, description, command, seed, profile, "
            "host_profile, workload, toggles, network, params, memory, coalescing, connection, outputs)");
  EXPECT_EQ(error_text([] { parse_scenario("command = \"lat\"\n[workload.bogus]\n", "f.toml"); }),
            "f.toml:2:1: workload.bogus: unknown table");
  EXPECT_EQ(error_text([] { parse_scenario("{\"command\": \"lat\", \"params\": {\"nope\": {}}}", "body", true); }),
            "body: params.nope: unknown table");
  // Empty tables where keys belong are fine.
  EXPECT_NO_THROW(parse_scenario("command = \"lat\"\n[workload]\n[params]\n[params.switch]\n", "f.toml"));
  EXPECT_NO_THROW(parse_scenario("{\"command\": \"lat\", \"workload\": {}, \"params\": {\"link\": {}}}", "body", true));
}
