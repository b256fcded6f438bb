// perftest's and nccl-tests' non-key flags: the texts the command line prints and the docs list.
#include "config/tool_habits.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "config/scenario_keys.hpp"

using namespace rdmasim::config;

namespace {
const ToolHabit& habit(const std::string& flags) {
  for (const ToolHabit& h : tool_habits())
    if (h.flags == flags) return h;
  throw std::out_of_range(flags);
}
}  // namespace

TEST(ToolHabits, EachKindSaysWhatItDoes) {
  const ToolHabit& dev = habit("-d,--ib-dev");
  EXPECT_EQ(habit_note(dev, "mlx5_0"), "-d mlx5_0: ignored (the simulated NIC is the profile's: --profile)");
  EXPECT_EQ(habit_flags_text(dev), "--ib-dev (-d) DEV");
  EXPECT_EQ(habit_commands_text(dev), "lat, bw");
  EXPECT_EQ(habit_note(habit("--cpu_util"), ""), "--cpu_util: ignored (the simulated hosts' CPU use is always printed)");
  const ToolHabit& conn = habit("-c,--connection");
  EXPECT_EQ(habit_error(conn, "UD"), "--connection: UD: rdmasim models RC (reliable connected) QPs only");
  EXPECT_EQ(habit_help(conn), "perftest's connection type: RC (the one modelled; others are refused)");
  EXPECT_EQ(habit_error(habit("--run_infinitely"), ""),
            "--run_infinitely: a simulation needs an end: give -n/--iters (bw also takes -D/--duration, simulated time)");
  EXPECT_EQ(habit_commands_text(habit("-o,--op")), "allreduce");
}

namespace {
std::vector<std::string> names_of(const std::string& flags) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at <= flags.size();) {
    const std::size_t comma = std::min(flags.find(',', at), flags.size());
    out.push_back(flags.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}
}  // namespace

// No flag name is taken twice in a command, by two habits or by a habit and a key.
TEST(ToolHabits, NoFlagTakenTwiceInACommand) {
  for (unsigned bit : {kLat, kBw, kAllreduce}) {
    std::set<std::string> names;
    for (const ScenarioKey& k : scenario_keys()) {
      if ((k.commands & bit) == 0 || k.flags.empty()) continue;
      for (const std::string& n : names_of(k.flags))
        if (n.rfind("--", 0) == 0 || (k.long_only & bit) == 0) {
          EXPECT_TRUE(names.insert(n).second) << n;
        }
    }
    for (const ToolHabit& h : tool_habits()) {
      if ((h.commands & bit) == 0) continue;
      for (const std::string& n : names_of(h.flags)) EXPECT_TRUE(names.insert(n).second) << bit << " " << n;
    }
  }
}
