// NextHopTable: for every switch and destination host, the fabric ports that lie on a shortest
// path (what a switch's forwarding table holds, equal-cost next hops included), in the cable
// order ecmp_route uses, so hashing over them picks what ecmp_route predicts.
//
// Port ids: cable * 2 + 0 at the cable's node a, + 1 at node b. Hosts hang off exactly one
// node (their attachment); the table is kept per attachment node, not per host, and a switch
// reaches a host attached to itself through that host's cable. A fat-tree or leaf-spine as
// built answers from its closed form (net/clos_routes.hpp) and holds no table: O(cables) to
// build; any other fabric gets a table of switches x attachment nodes from one graph search
// per attachment node.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "net/clos_routes.hpp"
#include "net/topology.hpp"

namespace rdmasim {

class NextHopTable {
 public:
  explicit NextHopTable(const Topology& t);

  /// Port id of `c` at node `n`.
  static int port_of(const Topology& t, int c, int n) { return t.cables()[static_cast<std::size_t>(c)].port_at(c, n); }
  /// The host's NIC port (towards its attachment node).
  int host_port(int host) const { return host_port_.at(static_cast<std::size_t>(host)); }
  /// The node the host hangs off.
  int attachment(int host) const { return attach_[static_cast<std::size_t>(host)]; }

  struct Hops {
    std::span<const std::int32_t> ports;  // egress ports at `node` towards the host
    std::int64_t max_rate_bps = 0;        // the fastest of their cables
  };
  /// Egress ports at switch `node` towards `dst_host` (its attachment's port if it is the
  /// attachment itself).
  Hops towards(int node, int dst_host) const;
  /// Nodes, hosts, cables and table entries' cables looked at while building (its work).
  std::int64_t build_steps() const { return build_steps_; }

 private:
  struct Entry {
    std::uint32_t offset = 0, count = 0;  // a list in ports_, shared by entries with the same next hops
  };
  std::shared_ptr<const ClosRoutes> clos_;  // the closed form, when the topology has one
  std::int64_t build_steps_ = 0;
  std::vector<int> host_port_, attach_, attach_slot_;
  std::vector<int> switch_index_;    // per node: its index among the switches (-1: a host)
  std::vector<std::int64_t> host_rate_;
  int slots_ = 0;
  std::vector<Entry> entries_;       // [switch index * slots_ + slot]: switches only, hosts need none
  std::vector<std::int32_t> ports_;  // referenced by entries_
  std::vector<std::int64_t> port_rate_;  // per port id: its cable's rate
};

}  // namespace rdmasim
