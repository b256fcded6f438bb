// `rdmasim topo`: a topology's summary, a host pair's equal-cost paths with their hop counts
// and unloaded one-way RDMA WRITE latency (with ledger), and the hop-count histogram.
#pragma once

#include <cstdio>
#include <optional>

#include <nlohmann/json.hpp>

#include "net/routing.hpp"
#include "net/topology.hpp"
#include "rdmasim/latency.hpp"

namespace rdmasim {

struct PathLatency {
  FabricPath path;
  Ledger ledger;  // one-way, post to poll, unloaded (closed form)
};

struct TopoReport {
  const Topology* topology = nullptr;
  int from = -1, to = -1;
  std::vector<PathLatency> paths;          // empty without a pair
  std::map<int, std::int64_t> hops;        // empty without --hops
};

/// `c` gives the message (size, MTU, profile, toggles) whose latency is computed per path.
TopoReport make_topo_report(const Topology& t, std::optional<std::pair<int, int>> pair, bool hops, const LatConfig& c);
void print_topo(std::FILE* out, const TopoReport& r);
nlohmann::ordered_json topo_json(const TopoReport& r);

}  // namespace rdmasim
