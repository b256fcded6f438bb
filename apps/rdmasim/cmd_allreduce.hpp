// `rdmasim allreduce`: nccl-tests all_reduce_perf on the simulator (rdmasim/allreduce.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli_common.hpp"
#include "rdmasim/allreduce.hpp"

namespace rdmasim::cli {

struct AllReduceOptions {
  LatOptions lat;                 // topology, fabric size, MTU, link layer, profile, --set, seed, --json
  std::string algo = "ring";
  int nodes = 0;
  int gpus = 1;
  std::string gpudirect = "on";
  std::string min_bytes = "32M", max_bytes = "32M";
  std::int64_t step_factor = 2;
  int iters = 20, warmup = 1;
  AllReduceOptions();
};

void add_allreduce_options(CLI::App& app, AllReduceOptions& o);
/// nccl-tests sizes: a number with an optional K, M or G suffix (powers of 1024).
std::int64_t parse_nccl_size(const std::string& v, const char* flag);
/// Throws std::invalid_argument naming the flag.
AllReduceConfig to_allreduce_config(const AllReduceOptions& o);

}  // namespace rdmasim::cli
