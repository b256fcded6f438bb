// `rdmasim topo`: a topology's summary, a host pair's equal-cost paths with their hop counts
// and unloaded one-way RDMA WRITE latency (with ledger), and the hop-count histogram; for
// fabrics of multi-NIC servers, the servers, rails, planes, NIC placement and the path
// diversity seen from each rail.
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

/// Path diversity seen from one rail of a server fabric (plane 0): equal-cost paths and links
/// from server 0's NIC on the rail to a NIC of the same rail in its unit, on the same rail in
/// another unit, and to server 0's next rail (0 paths where the fabric has no such pair).
struct RailRow {
  int rail = 0;
  int leaves = 0;  // rail leaves (one per unit and plane)
  std::size_t same_unit = 0, other_unit = 0, next_rail = 0;  // paths
  int same_unit_links = 0, other_unit_links = 0, next_rail_links = 0;
};

struct TopoReport {
  const Topology* topology = nullptr;
  int from = -1, to = -1;
  std::vector<PathLatency> paths;          // empty without a pair
  std::map<int, std::int64_t> hops;        // empty without --hops
  int units = 0;                           // server fabrics: scalable units
  std::vector<RailRow> rails;              // server fabrics: one row per rail
  std::string gpu_paths;                   // a --server's GPUs: each one's NIC and PCIe path ("" without)
};

/// `c` gives the message (size, MTU, profile, toggles) whose latency is computed per path.
TopoReport make_topo_report(const Topology& t, std::optional<std::pair<int, int>> pair, bool hops, const LatConfig& c);
void print_topo(std::FILE* out, const TopoReport& r);
nlohmann::ordered_json topo_json(const TopoReport& r);

}  // namespace rdmasim
