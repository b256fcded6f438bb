// The built-in traffic patterns (rdmasim/traffic_pattern.hpp) and their registry: one
// registration line per pattern, in the order `rdmasim list` shows them.
#include <algorithm>
#include <stdexcept>

#include "core/random.hpp"
#include "core/registry.hpp"
#include "rdmasim/traffic.hpp"
#include "rdmasim/traffic_pattern.hpp"

namespace rdmasim {
namespace {

std::uint64_t one_per_host(const TrafficConfig&, int hosts) { return static_cast<std::uint64_t>(hosts); }

// A random derangement (no host sends to itself), from the run's seed.
FlowList permutation(const TrafficConfig& c, int hosts) {
  RandomStream rng(c.base.seed, "traffic.permutation");
  std::vector<int> p(static_cast<std::size_t>(hosts));
  for (;;) {
    for (int i = 0; i < hosts; ++i) p[static_cast<std::size_t>(i)] = i;
    for (int i = hosts - 1; i > 0; --i)
      std::swap(p[static_cast<std::size_t>(i)], p[static_cast<std::size_t>(rng.uniform_u64(0, static_cast<std::uint64_t>(i)))]);
    bool ok = true;
    for (int i = 0; i < hosts; ++i) ok = ok && p[static_cast<std::size_t>(i)] != i;
    if (ok) break;
  }
  FlowList f;
  for (int i = 0; i < hosts; ++i) f.emplace_back(i, p[static_cast<std::size_t>(i)]);
  return f;
}

FlowList incast(const TrafficConfig& c, int hosts) {
  if (c.incast_senders < 1 || c.incast_senders >= hosts)
    throw std::invalid_argument("incast: senders must be 1.." + std::to_string(hosts - 1));
  FlowList f;
  for (int i = 1; i <= c.incast_senders; ++i) f.emplace_back(i, 0);
  return f;
}

FlowList stride(const TrafficConfig& c, int hosts) {
  if (c.stride < 1 || c.stride >= hosts) throw std::invalid_argument("stride: must be 1.." + std::to_string(hosts - 1));
  FlowList f;
  for (int i = 0; i < hosts; ++i) f.emplace_back(i, (i + c.stride) % hosts);
  return f;
}

FlowList alltoall(const TrafficConfig&, int hosts) {
  FlowList f;
  for (int i = 0; i < hosts; ++i)
    for (int j = 0; j < hosts; ++j)
      if (i != j) f.emplace_back(i, j);
  return f;
}

Registry<TrafficPatternSpec>& registry() {
  static Registry<TrafficPatternSpec> r = [] {
    Registry<TrafficPatternSpec> x("traffic pattern");
    x.add({"permutation", "every host sends to another, a random derangement per seed", "", "seed", one_per_host,
           permutation});
    x.add({"incast", "hosts 1..N send to h0", "", "workload.incast",
           [](const TrafficConfig& c, int) { return static_cast<std::uint64_t>(std::max(c.incast_senders, 0)); }, incast,
           [](const TrafficConfig& c) { return c.incast_senders; }});
    x.add({"alltoall", "every host to every other host", "", "",
           [](const TrafficConfig&, int hosts) {
             const auto h = static_cast<std::uint64_t>(hosts);
             return h * (h - 1);
           },
           alltoall});
    x.add({"stride", "host i sends to host (i + K) mod hosts (on a ring: flows wrap around)", "", "workload.stride",
           one_per_host, stride});
    return x;
  }();
  return r;
}

}  // namespace

std::vector<const TrafficPatternSpec*> traffic_patterns() { return registry().pointers(); }

const TrafficPatternSpec& traffic_pattern(std::string_view name) { return registry().get(name); }

void register_traffic_pattern(TrafficPatternSpec spec) { registry().add(std::move(spec)); }

}  // namespace rdmasim
