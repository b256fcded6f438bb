#include "net/topology.hpp"

#include <algorithm>

#include "net/clos_routes.hpp"
#include "net/server_topologies.hpp"
#include "net/topology_file.hpp"
#include <stdexcept>

namespace rdmasim {

int Topology::add_node(NodeKind kind, int tier, int pod, std::string n, int server, int rail, int plane) {
  nodes_.push_back(Node{kind, tier, pod, std::move(n), {}, server, rail, plane});
  const int id = static_cast<int>(nodes_.size()) - 1;
  planes_ = std::max(planes_, plane + 1);
  if (kind != NodeKind::host) return id;
  hosts_.push_back(id);
  if (server >= 0) {
    if (server > server_count() || (server < server_count() - 1))
      throw std::logic_error("topology: a server's hosts must be added together, servers in order");
    if (server == server_count()) servers_.emplace_back();
    servers_.back().push_back(host_count() - 1);
  }
  return id;
}

int Topology::connect(int a, int b, Rate rate, std::int64_t length_mm) {
  // The routes change: a new memo, unless this one is unused and unshared (a builder's cables).
  if (distance_cache_.use_count() > 1 || distance_cache_->clos || distance_cache_->searches > 0)
    distance_cache_ = std::make_shared<DistanceCache>();
  cables_.push_back(Cable{a, b, rate, length_mm, 0, {}, {}, {}, {}, CableTransit::both, Time::max(), Time::max()});
  const int id = static_cast<int>(cables_.size()) - 1;
  nodes_[static_cast<std::size_t>(a)].cables.push_back(id);
  nodes_[static_cast<std::size_t>(b)].cables.push_back(id);
  return id;
}

int Topology::find_cable(std::string_view a, std::string_view b) const {
  for (std::size_t i = 0; i < cables_.size(); ++i) {
    const std::string& x = nodes_[static_cast<std::size_t>(cables_[i].a)].name;
    const std::string& y = nodes_[static_cast<std::size_t>(cables_[i].b)].name;
    if ((x == a && y == b) || (x == b && y == a)) return static_cast<int>(i);
  }
  return -1;
}

int Topology::find_host(std::string_view n) const {
  for (int h = 0; h < host_count(); ++h)  // by name first: a file's "h5" is its own
    if (nodes_[static_cast<std::size_t>(hosts_[static_cast<std::size_t>(h)])].name == n) return h;
  const int v = host_number(n);
  return v < host_count() ? v : -1;
}

std::string Topology::egress_name(int from, int to) const {
  return nodes_.at(static_cast<std::size_t>(from)).name + "->" + nodes_.at(static_cast<std::size_t>(to)).name;
}

std::vector<std::string> Topology::egress_port_names() const {
  std::vector<std::string> names;
  names.reserve(2 * cables_.size());
  for (const Cable& k : cables_) {
    names.push_back(egress_name(k.a, k.b));
    names.push_back(egress_name(k.b, k.a));
  }
  return names;
}

std::string Topology::port_name(std::string_view server, int nic, int plane, int planes) {
  std::string s(server);
  s += ".nic";
  s += std::to_string(nic);
  if (planes > 1) {
    s += ".p";
    s += std::to_string(plane);
  }
  return s;
}

int Topology::host_number(std::string_view n) {
  if (!n.empty() && n[0] == 'h') n.remove_prefix(1);
  if (n.empty() || n.size() > 7) return -1;
  int v = 0;
  for (char c : n) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

namespace {

// Built by appending: GCC 12 warns falsely (-Wrestrict, PR105651) on "literal" + std::string.
std::string num(const char* prefix, int i) {
  std::string s(prefix);
  s += std::to_string(i);
  return s;
}
std::string num2(const char* prefix, int i, int j) {
  std::string s = num(prefix, i);
  s += '.';
  s += std::to_string(j);
  return s;
}

Rate times(Rate r, std::int64_t n) { return Rate::bps(r.bits_per_sec() * n); }

Topology back_to_back(const TopologyParams& p) {
  Topology t;
  const int a = t.add_node(NodeKind::host, 0, -1, "h0");
  const int b = t.add_node(NodeKind::host, 0, -1, "h1");
  t.connect(a, b, p.host_rate, p.host_length_mm);
  t.bisection = p.host_rate;
  return t;
}

Topology single_switch(const TopologyParams& p) {
  if (p.hosts < 2 || p.hosts > 100'000) throw std::invalid_argument("single-switch: hosts must be 2..100000");
  Topology t;
  const int sw = t.add_node(NodeKind::switch_, 1, -1, "sw0");
  for (int h = 0; h < p.hosts; ++h) t.connect(t.add_node(NodeKind::host, 0, -1, num("h", h)), sw, p.host_rate, p.host_length_mm);
  t.bisection = times(p.host_rate, p.hosts / 2);
  return t;
}

Topology leaf_spine(const TopologyParams& p) {
  if (p.leaves < 1 || p.spines < 1 || p.hosts_per_leaf < 1)
    throw std::invalid_argument("leaf-spine: leaves, spines and hosts per leaf must be at least 1");
  if (static_cast<std::int64_t>(p.leaves) * (p.hosts_per_leaf + p.spines) > 1'000'000 || p.spines > 10'000)
    throw std::invalid_argument("leaf-spine: at most 1000000 cables and 10000 spines");
  Topology t;
  std::vector<int> spine;
  for (int s = 0; s < p.spines; ++s) spine.push_back(t.add_node(NodeKind::switch_, 2, -1, num("spine", s)));
  int h = 0;
  for (int l = 0; l < p.leaves; ++l) {
    const int leaf = t.add_node(NodeKind::switch_, 1, -1, num("leaf", l));
    for (int s : spine) t.connect(leaf, s, p.fabric_rate, p.fabric_length_mm);
    for (int i = 0; i < p.hosts_per_leaf; ++i)
      t.connect(t.add_node(NodeKind::host, 0, -1, num("h", h++)), leaf, p.host_rate, p.host_length_mm);
  }
  // Half the leaves talk to the other half: limited by their hosts or by their uplinks.
  const Rate down = times(p.host_rate, static_cast<std::int64_t>(p.leaves / 2) * p.hosts_per_leaf);
  const Rate up = times(p.fabric_rate, static_cast<std::int64_t>(p.leaves / 2) * p.spines);
  t.bisection = down < up ? down : up;
  t.distance_cache().clos = std::make_shared<const ClosRoutes>(t);
  return t;
}

Topology fat_tree(const TopologyParams& p) {
  const int k = p.k;
  if (k < 2 || k % 2 != 0 || k > 64) throw std::invalid_argument("fat-tree: k must be even, 2..64, got " + std::to_string(k));
  const int half = k / 2;
  Topology t;
  std::vector<int> core;
  for (int c = 0; c < half * half; ++c) core.push_back(t.add_node(NodeKind::switch_, 3, -1, num("core", c)));
  int h = 0;
  for (int pod = 0; pod < k; ++pod) {
    std::vector<int> agg;
    for (int a = 0; a < half; ++a) {
      agg.push_back(t.add_node(NodeKind::switch_, 2, pod, num2("agg", pod, a)));
      // aggregation switch a of every pod connects to core group a
      for (int c = 0; c < half; ++c) t.connect(agg.back(), core[static_cast<std::size_t>(a * half + c)], p.fabric_rate, p.fabric_length_mm);
    }
    for (int e = 0; e < half; ++e) {
      const int edge = t.add_node(NodeKind::switch_, 1, pod, num2("edge", pod, e));
      for (int a : agg) t.connect(edge, a, p.fabric_rate, p.fabric_length_mm);
      for (int i = 0; i < half; ++i)
        t.connect(t.add_node(NodeKind::host, 0, pod, num("h", h++)), edge, p.host_rate, p.host_length_mm);
    }
  }
  // Full bisection: half the hosts at line rate (when fabric rate >= host rate).
  const Rate hosts_half = times(p.host_rate, static_cast<std::int64_t>(k) * k * k / 8);
  const Rate core_cut = times(p.fabric_rate, static_cast<std::int64_t>(k) * k * k / 8);
  t.bisection = hosts_half < core_cut ? hosts_half : core_cut;
  t.distance_cache().clos = std::make_shared<const ClosRoutes>(t);
  return t;
}

// N switches in a ring (sw_i to sw_i+1, the last back to sw0), hosts on every switch.
// clockwise: frames only travel sw_i -> sw_i+1, so a flow to a switch "behind" wraps around;
// up-down: the shortest path both ways, never across the sw_N-1 - sw0 cable (a line).
Topology ring(const TopologyParams& p) {
  if (p.switches < 3 || p.switches > 10'000) throw std::invalid_argument("ring: switches must be 3..10000");
  if (p.hosts_per_switch < 1 || p.hosts_per_switch > 1'000) throw std::invalid_argument("ring: hosts per switch must be 1..1000");
  if (p.ring_routing != "clockwise" && p.ring_routing != "up-down")
    throw std::invalid_argument("ring: routing must be clockwise or up-down, got \"" + p.ring_routing + "\"");
  Topology t;
  std::vector<int> sw;
  for (int s = 0; s < p.switches; ++s) sw.push_back(t.add_node(NodeKind::switch_, 1, -1, num("sw", s)));
  int h = 0;
  for (int s = 0; s < p.switches; ++s)
    for (int i = 0; i < p.hosts_per_switch; ++i)
      t.connect(t.add_node(NodeKind::host, 0, -1, num("h", h++)), sw[static_cast<std::size_t>(s)], p.host_rate, p.host_length_mm);
  for (int s = 0; s < p.switches; ++s) {
    const int c = t.connect(sw[static_cast<std::size_t>(s)], sw[static_cast<std::size_t>((s + 1) % p.switches)], p.fabric_rate,
                            p.fabric_length_mm);
    if (p.ring_routing == "clockwise") t.set_transit(c, CableTransit::a_to_b);
    else if (s == p.switches - 1) t.set_transit(c, CableTransit::none);
  }
  // A cut into two halves crosses two cables.
  const Rate hosts_half = times(p.host_rate, static_cast<std::int64_t>(h / 2));
  const Rate cut = times(p.fabric_rate, 2);
  t.bisection = hosts_half < cut ? hosts_half : cut;
  return t;
}

}  // namespace

const std::vector<TopologyBuilder>& topology_builders() {
  static const std::vector<TopologyBuilder> b{
      {"back-to-back", "two hosts, NICs joined by one cable", back_to_back},
      {"single-switch", "N hosts on one switch (--hosts)", single_switch},
      {"leaf-spine", "two-tier Clos: every leaf to every spine (--leaves, --spines, --hosts-per-leaf)", leaf_spine},
      {"fat-tree", "three-tier k-ary fat-tree: k^3/4 hosts, 5k^2/4 switches (--k, even)", fat_tree},
      {"ring", "N switches in a ring, hosts on each (--switches, --hosts-per-switch); --ring-routing clockwise "
               "(flows wrap around: a cyclic buffer dependency) or up-down (never across the wrap cable)", ring},
      {"rail-optimized", "GPU servers with N NICs (--servers, --nics-per-server): NIC r of every server in a scalable "
                         "unit (--servers-per-su) on rail leaf r, every leaf to every spine (--spines)", rail_optimized},
      {"multi-plane", "rail-optimized servers whose NICs have one port per plane (--planes): P independent fabrics, "
                      "a flow on one of them", multi_plane},
      {"file", "any fabric from a file (--topology-file PATH): rdmasim-topology 1 (docs/topology-file.md) or the ns-3 HPCC "
               "simulator's topology.txt", [](const TopologyParams& p) {
         if (p.file_name.empty()) throw std::invalid_argument("--topology file needs --topology-file PATH");
         return read_topology_file(p.file_text, p.file_name, p.velocity_mps);
       }},
  };
  return b;
}

Topology build_topology(const TopologyParams& p) {
  std::string names;
  for (const TopologyBuilder& b : topology_builders()) {
    if (b.name == p.name) {
      Topology t = b.build(p);
      if (t.name.empty()) t.name = b.name;  // a file names its own
      if (t.description.empty()) t.description = b.description;
      return t;
    }
    names += (names.empty() ? "" : ", ") + b.name;
  }
  throw std::invalid_argument("unknown topology \"" + p.name + "\" (valid: " + names + ")");
}

void Topology::drop_window(int cable, int from, DropWindow w) {
  Cable& c = cables_.at(static_cast<std::size_t>(cable));
  std::vector<DropWindow>& v = from == c.a ? c.windows_from_a : c.windows_from_b;
  v.push_back(w);
  std::stable_sort(v.begin(), v.end(), [](const DropWindow& x, const DropWindow& y) { return x.from < y.from; });
}

void Topology::drop_frames(int cable, int from, std::vector<std::uint64_t> frames) {
  Cable& c = cables_.at(static_cast<std::size_t>(cable));
  std::sort(frames.begin(), frames.end());
  frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
  (from == c.a ? c.drops_from_a : c.drops_from_b) = std::move(frames);
}

}  // namespace rdmasim
