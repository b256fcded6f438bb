// The options of an experiment as given (strings and integers, the command line's and the
// scenario files' shared vocabulary) and their one conversion into validated run
// configurations: LatConfig (lat, budget, demo), BwConfig (bw), TrafficConfig (bw --pattern),
// CollectiveConfig (allreduce), FlowsConfig (flows). Values are kept as given so that every check happens in one
// place and produces one clear message (std::invalid_argument naming the option); the command
// line, scenario files, `compare`, `sweep` and the HTTP API all convert through here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rdmasim/nccl_test.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/flows.hpp"
#include "rdmasim/scenario.hpp"
#include "rdmasim/traffic.hpp"

namespace rdmasim::config {

/// A time given as perftest does (plain seconds: "5", "0.002") or with a unit ("2ms"); bad
/// text is std::invalid_argument naming `option` (nullptr: the caller names it).
Time parse_seconds_or_time(const std::string& text, const char* option);

/// The registered RDMA rate controls' and load balancers' names, and "a | b | c" for help texts.
std::vector<std::string> rate_control_names();
std::vector<std::string> load_balancer_names();
std::string choices_text(const std::vector<std::string>& names);
/// Throws std::invalid_argument naming the problem.
LatConfig to_config(const ScenarioOptions& o);
/// bw's two-host test: the one mapping from options (-t, -q, -b, -D/-f, -o, -l, -Q, -r,
/// --recv-delay) to a BwConfig, for the command, `compare`, `sweep` and the HTTP API alike.
/// Throws std::invalid_argument for a contradiction (-D 0, -n with -D, -f without -D, ...).
BwConfig to_bw_config(const ScenarioOptions& o);
/// bw --pattern: the same for the many-flow test; refuses the two-host test's options.
TrafficConfig to_traffic_config(const ScenarioOptions& o);
/// --mem/--use-cuda/--gpudirect/--staging-chunk, --rx-usecs/--rx-frames/--adaptive-rx and the
/// connection options into `c` (called by to_config).
void apply_gpu_options(const ScenarioOptions& o, LatConfig& c);
/// perftest -a: 2, 4, ..., 2^23.
std::vector<std::int64_t> all_sizes();

/// nccl-tests sizes: a number with an optional K, M or G suffix (powers of 1024).
std::int64_t parse_nccl_size(const std::string& v, const char* flag);
/// Throws std::invalid_argument naming the flag.
CollectiveConfig to_collective_config(const ScenarioOptions& o);
/// The whole file, or nothing when it cannot be opened (scenario, flow and CDF files).
std::optional<std::string> read_text_file(const std::string& path);
/// `flows`: the fabric and the flow list — read from --flow-file, or drawn (Poisson arrivals
/// from --cdf at --load for -D / --flows; the topology's hosts, the link rate and --seed).
/// Throws std::invalid_argument naming the option (and the file and line of a bad file).
FlowsConfig to_flows_config(const ScenarioOptions& o);

}  // namespace rdmasim::config
