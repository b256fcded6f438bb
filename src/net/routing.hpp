// Equal-cost paths: every shortest path (in cables) between two hosts of a topology — what
// ECMP can choose from. Hosts are never transit nodes (each has a single cable).
#pragma once

#include <cstddef>
#include <map>
#include <vector>

#include "net/topology.hpp"

namespace rdmasim {

struct FabricPath {
  std::vector<int> nodes;   // from source host to destination host
  std::vector<int> cables;  // nodes.size() - 1 cables, in order
  int switches() const { return static_cast<int>(nodes.size()) - 2; }
  int links() const { return static_cast<int>(cables.size()); }
};

/// Cable distance from every node to `dst_node` (-1 where unreachable), crossing cables only
/// the ways their transit allows.
std::vector<int> distances_to(const Topology& t, int dst_node);

/// All shortest paths from host `src` to host `dst`, in a deterministic order (lowest cable
/// index first at every branch), at most `limit`. src == dst gives one empty path.
std::vector<FabricPath> equal_cost_paths(const Topology& t, int src, int dst, std::size_t limit = 4096);

/// Histogram over all ordered host pairs (src != dst): links on a shortest path -> pairs.
std::map<int, std::int64_t> hop_histogram(const Topology& t);

}  // namespace rdmasim
