// `rdmasim run`, `compare` and `sweep`: scenario files on the command line (config/scenario.hpp,
// config/scenario_runs.hpp). `run` prints what the scenario's command prints (and with -o writes
// {schema_version, scenario, results} as JSON); `compare` one table
// with a column per scheme; `sweep` a CSV/JSON table over the cartesian product of values.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "cli_common.hpp"
#include "config/scenario.hpp"

namespace rdmasim::cli {

/// Runs a scenario as its command would (the program's lat/bw/budget handlers); with
/// `results`, also stores the command's JSON there.
using RunCommand = std::function<int(const Scenario&, nlohmann::ordered_json* results)>;
/// Adds the three subcommands. The returned function runs whichever subcommand was parsed, or
/// returns -1 when none of them was.
std::function<int()> add_scenario_commands(CLI::App& app, RunCommand run_command);

}  // namespace rdmasim::cli
