// `rdmasim run`, `compare` and `sweep`: scenario files on the command line (scenario.hpp,
// scenario_runs.hpp). `run` prints what the scenario's command prints; `compare` one table
// with a column per scheme; `sweep` a CSV/JSON table over the cartesian product of values.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

#include "scenario.hpp"

namespace rdmasim::cli {

/// Adds the three subcommands. `run_command` runs a scenario as its command would (the
/// program's lat/bw/budget handlers). The returned function runs whichever subcommand was
/// parsed, or returns -1 when none of them was.
std::function<int()> add_scenario_commands(CLI::App& app, std::function<int(const Scenario&)> run_command);

}  // namespace rdmasim::cli
