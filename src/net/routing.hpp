// Equal-cost paths: every shortest path (in cables) between two hosts of a topology — what
// ECMP can choose from. Hosts are never transit nodes (each has a single cable).
#pragma once

#include <cstddef>
#include <map>
#include <vector>

#include "net/clos_routes.hpp"
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

/// Cable distance from every node to host `h`: its attachment switch's distances + 1 (a host has
/// one cable, so every path to it ends there). For a fat-tree or leaf-spine as built, in closed
/// form (net/clos_routes.hpp); else searched once per attachment switch and kept in the
/// topology's memo — a run's flows to the hosts of one edge switch share one search. A view:
/// valid while `t` lives.
class HostDistances {
 public:
  /// `to` holds every node's hops to the host's attachment switch (offset 1) or to the host
  /// itself (offset 0).
  HostDistances(const std::vector<int>* to, int host_node, int offset) : to_(to), host_(host_node), offset_(offset) {}
  /// Through the closed form: hops to attachment switch `attach`, + 1.
  HostDistances(const ClosRoutes* clos, int host_node, int attach) : clos_(clos), host_(host_node), offset_(1), attach_(attach) {}
  int operator[](std::size_t n) const {
    if (static_cast<int>(n) == host_) return 0;
    const int d = clos_ ? clos_->hops(static_cast<int>(n), attach_) : (*to_)[n];
    return d < 0 ? -1 : d + offset_;
  }

 private:
  const std::vector<int>* to_ = nullptr;
  const ClosRoutes* clos_ = nullptr;
  int host_, offset_, attach_ = -1;
};
HostDistances distances_to_host(const Topology& t, int h);
/// distances_to(t, node), searched once and kept in the topology's memo (valid while `t` lives).
const std::vector<int>& cached_distances_to(const Topology& t, int node);

/// All shortest paths from host `src` to host `dst`, in a deterministic order (lowest cable
/// index first at every branch), at most `limit`. src == dst gives one empty path.
std::vector<FabricPath> equal_cost_paths(const Topology& t, int src, int dst, std::size_t limit = 4096);

/// Histogram over all ordered host pairs (src != dst): links on a shortest path -> pairs.
std::map<int, std::int64_t> hop_histogram(const Topology& t);

}  // namespace rdmasim
