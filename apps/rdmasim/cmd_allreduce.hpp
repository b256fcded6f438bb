// `rdmasim allreduce`: nccl-tests all_reduce_perf on the simulator (rdmasim/allreduce.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli_common.hpp"
#include "rdmasim/allreduce.hpp"

namespace rdmasim::cli {

void add_allreduce_options(CLI::App& app, ScenarioOptions& o);

}  // namespace rdmasim::cli
