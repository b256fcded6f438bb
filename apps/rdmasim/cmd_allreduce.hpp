// `rdmasim allreduce`: nccl-tests all_reduce_perf on the simulator (rdmasim/allreduce.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli_common.hpp"
#include "rdmasim/allreduce.hpp"

namespace rdmasim::cli {

/// The allreduce command's defaults: 8 hosts on one switch, nccl-tests' -n 20.
void set_allreduce_defaults(LatOptions& o);
void add_allreduce_options(CLI::App& app, LatOptions& o);
/// nccl-tests sizes: a number with an optional K, M or G suffix (powers of 1024).
std::int64_t parse_nccl_size(const std::string& v, const char* flag);
/// Throws std::invalid_argument naming the flag.
AllReduceConfig to_allreduce_config(const LatOptions& o);

}  // namespace rdmasim::cli
