// ClosRoutes: the shortest paths of a fat-tree or a leaf-spine in closed form, so routing needs
// no graph search on them.
//
// Such a fabric is at most three tiers: attachment switches (edge / leaf, tier 1) with their
// hosts, tier 2 (aggregation / spine) and tier 3 (core); a pod groups a fat-tree's tiers 1-2
// (a leaf-spine is one pod, pod -1). Shortest paths go up to the lowest tier that reaches the
// destination and down again: from a host, 1 hop to its own switch, 3 within its pod, 5 across
// pods; a tier-1 switch goes up (every uplink: they are all equally close), a tier-2 switch goes
// down to the destination in its pod and up otherwise, a core down to the destination's pod.
// So a switch's next hops towards any attachment switch are either its uplinks or one down
// port, both kept per switch: O(cables) to build and to hold, O(1) per question — where a
// search per attachment switch costs O(switches x nodes).
//
// Invariants (tested against the graph search for every node and attachment switch of several
// fat-trees and leaf-spines): hops() equals the search's distance and next_ports() the ports
// on a shortest path in the switch's cable order (ECMP's order). Built from a topology as its
// builder made it; the builder hands it to the topology's routing memo, which connect() and
// set_transit() replace (routing then searches the graph).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "net/topology.hpp"

namespace rdmasim {

class ClosRoutes {
 public:
  /// From a fat-tree's or leaf-spine's tiers, pods and cables; throws std::logic_error if they
  /// are not one (a switch whose lower neighbours do not sort into distinct pods / positions).
  explicit ClosRoutes(const Topology& t);

  /// Whether `node` is an attachment switch (the `to` of the questions below).
  bool attachment(int node) const { return tier_[static_cast<std::size_t>(node)] == 1; }
  /// Cable hops from any node to attachment switch `to`.
  int hops(int node, int to) const;
  /// Ports of switch `at` (not `to`) on the shortest paths to attachment switch `to`, in `at`'s
  /// cable order; a port is cable * 2 + 0 at the cable's node a, + 1 at its node b.
  std::span<const std::int32_t> next_ports(int at, int to) const;
  /// Cable ends looked at while building: the whole set-up's work (2 per cable).
  std::int64_t build_steps() const { return build_steps_; }

 private:
  std::vector<std::int8_t> tier_;
  std::vector<std::int32_t> pod_;
  std::vector<std::int32_t> key_;      // tier 1: position among its pod's tier-1 switches; hosts: their switch
  std::vector<std::int32_t> up_at_;    // per node: its uplinks' first index in ports_ (n + 1's is the end)
  std::vector<std::int32_t> down_at_, down_len_;  // per node: its down table in ports_
  std::vector<std::int32_t> ports_;    // uplink lists, then down tables (by position or pod; -1: none)
  std::int64_t build_steps_ = 0;
};

}  // namespace rdmasim
