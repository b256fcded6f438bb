// `rdmasim all_reduce`, `all_gather`, ...: nccl-tests' *_perf programs on the simulator (rdmasim/nccl_test.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli_common.hpp"
#include "rdmasim/nccl_test.hpp"

namespace rdmasim::cli {

void add_collective_options(CLI::App& app, ScenarioOptions& o);

}  // namespace rdmasim::cli
