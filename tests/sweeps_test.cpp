// The runs a command makes from one scenario (config/sweeps.hpp) and `compare`'s table
// (config/scenario_runs.hpp): every expansion checked before any runs, rows equal to the
// single runs they stand for.
#include "config/sweeps.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "config/options.hpp"
#include "config/scenario_runs.hpp"
#include "error_text.hpp"
#include "io/command_report.hpp"

using namespace rdmasim;
using namespace rdmasim::config;
using rdmasim::testing::error_text;

namespace {
Scenario lat(const std::string& extra = "") {
  return parse_scenario("command = \"lat\"\n[workload]\niters = 20\n" + extra, "s.toml");
}
}  // namespace

TEST(Sweeps, PerSizeExpandsAllSizesInOrder) {
  Scenario s = lat();
  apply_override(s, "workload.all=true");
  const std::vector<Scenario> runs = per_size(s);
  const std::vector<std::int64_t> sizes = all_sizes();
  ASSERT_EQ(runs.size(), sizes.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].options.size, sizes[i]);
    EXPECT_FALSE(runs[i].options.all);
  }
  EXPECT_EQ(per_size(lat()).size(), 1u);
}

TEST(Sweeps, CoalescingRowsAreTheSingleRuns) {
  const Scenario s = lat("transport = \"tcp\"\nsize = \"64KiB\"\n");
  EXPECT_EQ(error_text([&] { run_coalescing(s, {1, 0}); }), "--frames: each value must be 1..65535, got 0");
  const std::vector<CoalescingRow> rows = run_coalescing(s, {1, 8});
  ASSERT_EQ(rows.size(), 2u);
  Scenario one = s;
  one.options.rx_frames = 8;
  const LatResult want = std::get<LatResult>(run(one).detail);
  EXPECT_EQ(rows[1].frames, 8);
  EXPECT_EQ(rows[1].result.stats.avg_ps, want.stats.avg_ps);
  EXPECT_EQ(rows[1].usecs, want.config.profile.nic.rx_usecs);
}

TEST(Sweeps, LossSweepRefusesWhatItCannotRun) {
  Scenario s = parse_scenario("command = \"bw\"\n[workload]\nsize = \"64KiB\"\niters = 50\nloss_sweep = [0.0]\n", "l.toml");
  EXPECT_EQ(error_text([&] { run_loss_sweep(s); }), "--loss-sweep: needs a switched --topology");
  apply_override(s, "network.topology=single-switch");
  apply_override(s, "workload.qps=2");
  EXPECT_EQ(error_text([&] { run_loss_sweep(s); }),
            "--loss-sweep runs one QP one way for --iters messages: drop -q/--cores/-b/-D");
  apply_override(s, "workload.qps=1");
  const std::vector<LossRow> rows = run_loss_sweep(s);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].loss, 0.0);
  EXPECT_EQ(rows[0].rdma.config.base.transport, Transport::rdma);
  EXPECT_EQ(rows[0].tcp_sim.config.base.transport, Transport::tcp);
}

TEST(Sweeps, CompareNeedsTwoSchemesOfOneCommand) {
  const std::string dir = ::testing::TempDir();
  const std::string a = dir + "/cmp_a.toml", b = dir + "/cmp_b.toml";
  std::ofstream(a) << "name = \"a\"\ncommand = \"lat\"\n[workload]\niters = 20\n";
  std::ofstream(b) << "command = \"budget\"\n";
  EXPECT_EQ(error_text([&] { run_compare({a}, {}, {}); }), "compare: give two or more scenarios, or one with --vs");
  EXPECT_EQ(error_text([&] { run_compare({a, b}, {}, {}); }), "compare: " + b + " runs a different command than " + a);
  const CompareTable t = run_compare({a}, {"workload.size=4096"}, {"workload.iters=10"});
  ASSERT_EQ(t.names.size(), 2u);
  EXPECT_EQ(t.names[0], "a");
  EXPECT_EQ(t.failures, (std::vector<std::string>{"", ""}));
  Scenario want = load_with_overrides(a, {"workload.iters=10", "workload.size=4096"});
  EXPECT_EQ(t.columns[1].size(), run(want).metrics.size());
}

// A budget under loss refuses a size below the MTU before it prints anything.
TEST(Sweeps, BudgetReportRefusesBeforePrinting) {
  Scenario s = parse_scenario("command = \"budget\"\n[network]\ntopology = \"single-switch\"\nloss = 0.001\n", "b.toml");
  const BudgetResult b = std::get<BudgetResult>(run(s).detail);
  std::FILE* out = std::tmpfile();
  EXPECT_THROW(print_budget_report(out, b, false), std::invalid_argument);
  EXPECT_EQ(std::ftell(out), 0);
  std::fclose(out);
}

TEST(Sweeps, ARowIsLabelledByItsParameterValues) {
  SweepTable t;
  t.params = {"workload.qps", "network.mtu"};
  t.rows_params = {{"1", "1024"}, {"4", "4096"}};
  EXPECT_EQ(t.row_label(1), "workload.qps=4,network.mtu=4096");
}
