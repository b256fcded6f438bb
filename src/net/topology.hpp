// Topology: the hosts, switches and cables of a fabric, built by registered builders.
//
// A topology is an undirected graph: nodes are hosts (tier 0) or switches (tier 1 = edge /
// leaf, 2 = aggregation / spine, 3 = core); every cable joins two nodes and has a rate and a
// length. Builders (back-to-back, single-switch, leaf-spine, fat-tree, ring, and for GPU
// servers rail-optimized and multi-plane: net/server_topologies.hpp) are registered by name
// with a description; an unknown name lists the valid ones. A cable between switches may
// restrict transit (routing never sends frames across it the other way, or at all): the ring's
// clockwise routing makes its cables one-way for transit, so flows wrap around and create the
// cyclic buffer dependency of a PFC deadlock; its up-down routing never crosses the wrap-around
// cable (deadlock-free). Host cables always carry both ways. A host is one NIC port; a server
// with several NICs (and a NIC with one port per plane) is several hosts that share a server
// number ("s3.nic5", "s3.nic5.p1"). Invariants: hosts are numbered 0..hosts()-1 in node order,
// a server's hosts consecutively; every host has exactly one cable (to its NIC port); each
// plane is connected, and no cable joins two planes (a topology without planes is plane 0).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "rdmasim/units.hpp"

namespace rdmasim {

enum class NodeKind : std::uint8_t { host, switch_ };

struct Node {
  NodeKind kind = NodeKind::host;
  int tier = 0;          // 0 host, 1 edge/leaf, 2 aggregation/spine, 3 core
  int pod = -1;          // fat-tree pod, -1 where it does not apply
  std::string name;      // "h0", "edge0.1", "agg1.0", "core3", "leaf2", "spine0", "sw0", "s3.nic5"
  std::vector<int> cables;  // indices into Topology::cables()
  int server = -1;       // hosts of a multi-NIC server: its number, else -1
  int rail = -1;         // a server's NIC index (its rail), or a rail leaf's rail, else -1
  int plane = 0;         // the independent fabric this node is part of
};

/// Frames lost on a cable in a burst: every frame arriving in [from, to), or, one-shot
/// (to <= from), the first frame arriving at or after `from`.
struct DropWindow {
  Time from{}, to{};
  bool one_shot() const { return to <= from; }
};

/// Which way routing may send frames across a switch-to-switch cable.
enum class CableTransit : std::uint8_t { both, a_to_b, none };

struct Cable {
  int a = 0, b = 0;      // node indices
  Rate rate{};
  std::int64_t length_mm = 0;
  double loss = 0;       // probability that a frame arrives corrupted (FCS error), either direction
  std::vector<std::uint64_t> drops_from_a, drops_from_b;  // frames lost by count (1-based, ascending)
  std::vector<DropWindow> windows_from_a, windows_from_b;  // frames lost by arrival time (by `from`)
  CableTransit transit = CableTransit::both;
  Time down_at = Time::max(), up_at = Time::max();  // link fault: down from down_at until up_at
  int other(int n) const { return n == a ? b : a; }
  /// The egress port of this cable (index `self`) at its node `from`: self * 2 + 0 at a, + 1 at b
  /// (the port ids of the fabric, its forwarding view and routes).
  int port_at(int self, int from) const { return self * 2 + (from == a ? 0 : 1); }
  /// Routing may send frames from node `from` across this cable.
  bool can_cross(int from) const {
    return transit == CableTransit::both || (transit == CableTransit::a_to_b && from == a);
  }
};

struct TopologyParams {
  std::string name = "back-to-back";
  int k = 4;                 // fat-tree arity (even)
  int hosts = 2;             // single-switch
  int leaves = 4, spines = 2, hosts_per_leaf = 4;  // leaf-spine
  int switches = 4, hosts_per_switch = 1;  // ring
  std::string ring_routing = "clockwise";  // ring: clockwise | up-down
  Rate host_rate = Rate::gbps(100);
  Rate fabric_rate = Rate::gbps(100);
  std::int64_t host_length_mm = 3'000;     // host to first switch
  std::int64_t fabric_length_mm = 10'000;  // between switches
  int servers = 4, nics_per_server = 8, servers_per_su = 32, planes = 2;  // rail-optimized, multi-plane
  std::string file_name, file_text;        // file: the topology file (net/topology_file.hpp) and its text
  std::int64_t velocity_mps = 200'000'000;  // file: turns a link's delay into cable length
};

class ClosRoutes;

/// Routing's memo of one topology (net/routing.hpp): hop distances to each attachment switch,
/// searched once each — or, for a fat-tree or leaf-spine as built, its routes in closed form
/// (net/clos_routes.hpp) and no search. Shared by copies of a topology until one of them
/// changes its cables.
struct DistanceCache {
  std::shared_ptr<const ClosRoutes> clos;   // set by the fat-tree and leaf-spine builders
  std::mutex mutex;
  std::map<int, std::vector<int>> to_node;  // node -> every node's hops to it
  std::int64_t searches = 0;                // graph searches run
  std::int64_t visits = 0;                  // nodes those searches expanded
};

class Topology {
 public:
  /// A host with server >= 0 belongs to that server (servers numbered from 0, in node order).
  int add_node(NodeKind kind, int tier, int pod, std::string name, int server = -1, int rail = -1, int plane = 0);
  int connect(int a, int b, Rate rate, std::int64_t length_mm);
  /// The cable joining the nodes named `a` and `b` ("edge0.0", "agg0.1", "h3"); -1 if none.
  int find_cable(std::string_view a, std::string_view b) const;
  /// Troubleshooting: a link trained down to a lower rate, or one that corrupts frames.
  void degrade(int cable, Rate rate) { cables_.at(static_cast<std::size_t>(cable)).rate = rate; }
  void set_loss(int cable, double p) { cables_.at(static_cast<std::size_t>(cable)).loss = p; }
  void set_transit(int cable, CableTransit t) {
    cables_.at(static_cast<std::size_t>(cable)).transit = t;
    distance_cache_ = std::make_shared<DistanceCache>();  // the routes change
  }
  /// The cable goes down at `down` and back up at `up` (Time::max(): stays down).
  void set_outage(int cable, Time down, Time up) {
    Cable& c = cables_.at(static_cast<std::size_t>(cable));
    c.down_at = down;
    c.up_at = up;
  }
  /// Loses the frames numbered `frames` (1-based) of those crossing `cable` from node `from`.
  void drop_frames(int cable, int from, std::vector<std::uint64_t> frames);
  /// Loses the frames crossing `cable` from node `from` that arrive in window `w`.
  void drop_window(int cable, int from, DropWindow w);

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Cable>& cables() const { return cables_; }
  /// The egress port of node `from` toward node `to`: "from->to" (a switch's "edge0.0->h0").
  std::string egress_name(int from, int to) const;
  /// Every egress port's name: a->b then b->a, cable by cable.
  std::vector<std::string> egress_port_names() const;
  int host_count() const { return static_cast<int>(hosts_.size()); }
  int switch_count() const { return static_cast<int>(nodes_.size() - hosts_.size()); }
  /// Node index of host h (0-based).
  int host_node(int h) const { return hosts_.at(static_cast<std::size_t>(h)); }
  /// Host index of a host's name ("h5", "s3.nic5", "s3.nic5.p1") or its number; -1 if none.
  int find_host(std::string_view name) const;
  /// "h3" or "3": 3; anything else -1 (whatever the topology holds).
  static int host_number(std::string_view name);
  /// Multi-NIC servers: how many, and the hosts (NIC ports) of server s, in order.
  int server_count() const { return static_cast<int>(servers_.size()); }
  /// Server s's NICs: its ports over the planes (every server has one port per NIC and plane).
  int server_nics(int s) const { return static_cast<int>(server_hosts(s).size()) / planes_; }
  /// A server's NIC port: "s3.nic5", or "s3.nic5.p1" where NICs have one port per plane.
  static std::string port_name(std::string_view server, int nic, int plane, int planes);
  /// The server a port name belongs to: "s3" of "s3.nic5.p1".
  static std::string_view server_of_port(std::string_view port) { return port.substr(0, port.rfind(".nic")); }
  const std::vector<int>& server_hosts(int s) const { return servers_.at(static_cast<std::size_t>(s)); }
  int planes() const { return planes_; }
  /// Routing's memo (net/routing.hpp); connect() and set_transit() start a new one.
  DistanceCache& distance_cache() const { return *distance_cache_; }

  std::string name;
  std::string description;
  Rate bisection{};          // bisection bandwidth (builder's closed form; 0: unknown, a file's fabric)
  std::vector<int> node_ids;  // read from an HPCC topology.txt: the host of each node id (-1: a switch)

 private:
  std::vector<Node> nodes_;
  std::vector<Cable> cables_;
  std::vector<int> hosts_;
  std::vector<std::vector<int>> servers_;
  int planes_ = 1;
  std::shared_ptr<DistanceCache> distance_cache_ = std::make_shared<DistanceCache>();
};

struct TopologyBuilder {
  std::string name;
  std::string description;
  Topology (*build)(const TopologyParams&);
};

const std::vector<TopologyBuilder>& topology_builders();
/// Builds by name; throws std::invalid_argument for an unknown name (listing the valid ones)
/// or bad parameters (odd k, zero counts).
Topology build_topology(const TopologyParams& p);

}  // namespace rdmasim
