// Traffic patterns: who sends to whom in `rdmasim bw --pattern NAME` (scenario key
// workload.pattern). A pattern is a registered component — a name, a description, its source,
// and two functions of the hosts of the topology and the run's configuration: how many flows it
// has (computed without listing them, so a run can refuse a pattern too large before it
// allocates anything) and the flows themselves, (source host, destination host) pairs.
// Built-ins: permutation, incast, alltoall, stride (src/workload/traffic_patterns.cpp). A
// program that links the library registers its own with register_traffic_pattern before it
// runs anything; an unknown name lists the registered ones.
// Invariants: count(c, hosts) == flows(c, hosts).size(); hosts are 0..hosts-1, no flow from a
// host to itself; flows() depends only on its arguments (the seed is c.base.seed).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rdmasim {

struct TrafficConfig;
using FlowList = std::vector<std::pair<int, int>>;

struct TrafficPatternSpec {
  std::string name;
  std::string description;
  std::string source;       // where the pattern comes from ("" for none)
  std::string params;       // the scenario keys it reads besides the topology ("workload.incast")
  std::function<std::uint64_t(const TrafficConfig&, int hosts)> count;
  /// Throws std::invalid_argument for a configuration the pattern cannot serve.
  std::function<FlowList(const TrafficConfig&, int hosts)> flows;
  /// How many flows share the most loaded link (sizes a live view's first sample slice);
  /// null: each flow has its own.
  std::function<int(const TrafficConfig&)> sharing = nullptr;
};

/// The registered patterns, in registration order (built-ins first).
std::vector<const TrafficPatternSpec*> traffic_patterns();
/// Throws std::invalid_argument naming the registered patterns for an unknown name.
const TrafficPatternSpec& traffic_pattern(std::string_view name);
/// Adds a pattern; throws std::invalid_argument for an empty or taken name.
void register_traffic_pattern(TrafficPatternSpec spec);

}  // namespace rdmasim
