#include "net/server_topologies.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace rdmasim {
namespace {

std::string text(std::initializer_list<std::string> parts) {  // appended: GCC 12's -Wrestrict (PR105651)
  std::string s;
  for (const std::string& x : parts) s += x;
  return s;
}
std::string n(int i) { return std::to_string(i); }

Topology build(const TopologyParams& p, int planes, const char* what) {
  const std::string w(what);
  if (p.servers < 1 || p.servers > 100'000) throw std::invalid_argument(w + ": servers must be 1..100000");
  if (p.nics_per_server < 1 || p.nics_per_server > 16) throw std::invalid_argument(w + ": NICs per server must be 1..16");
  if (p.servers_per_su < 1 || p.servers_per_su > 10'000) throw std::invalid_argument(w + ": servers per SU must be 1..10000");
  if (p.spines < 1 || p.spines > 10'000) throw std::invalid_argument(w + ": spines must be 1..10000");
  const int units = (p.servers + p.servers_per_su - 1) / p.servers_per_su;
  const std::int64_t leaves = static_cast<std::int64_t>(units) * p.nics_per_server;
  const std::int64_t cables = planes * (leaves * p.spines + static_cast<std::int64_t>(p.servers) * p.nics_per_server);
  if (cables > 1'000'000) throw std::invalid_argument(w + ": at most 1000000 cables, got " + std::to_string(cables));
  const bool multi = planes > 1;
  const std::string plane_prefix = "plane";
  Topology t;
  // leaf[plane][unit * nics + rail]
  std::vector<std::vector<int>> leaf(static_cast<std::size_t>(planes));
  for (int pl = 0; pl < planes; ++pl) {
    const std::string pre = multi ? text({plane_prefix, n(pl), "."}) : std::string();
    std::vector<int> spine;
    for (int s = 0; s < p.spines; ++s) spine.push_back(t.add_node(NodeKind::switch_, 2, -1, text({pre, "spine", n(s)}), -1, -1, pl));
    for (int u = 0; u < units; ++u)
      for (int r = 0; r < p.nics_per_server; ++r) {
        const int l = t.add_node(NodeKind::switch_, 1, u, text({pre, "su", n(u), ".rail", n(r)}), -1, r, pl);
        for (int s : spine) t.connect(l, s, p.fabric_rate, p.fabric_length_mm);
        leaf[static_cast<std::size_t>(pl)].push_back(l);
      }
  }
  for (int s = 0; s < p.servers; ++s) {
    const int u = s / p.servers_per_su;
    for (int r = 0; r < p.nics_per_server; ++r)
      for (int pl = 0; pl < planes; ++pl) {
        const int h = t.add_node(NodeKind::host, 0, u, Topology::port_name(text({"s", n(s)}), r, pl, planes), s, r, pl);
        t.connect(h, leaf[static_cast<std::size_t>(pl)][static_cast<std::size_t>(u * p.nics_per_server + r)], p.host_rate,
                  p.host_length_mm);
      }
  }
  // Per plane: half its ports at line rate, or half its leaves' uplinks.
  const std::int64_t ports = static_cast<std::int64_t>(p.servers) * p.nics_per_server;
  const std::int64_t down = p.host_rate.bits_per_sec() * (ports / 2);
  const std::int64_t up = p.fabric_rate.bits_per_sec() * (leaves / 2) * p.spines;
  t.bisection = Rate::bps(std::min(down, up) * planes);
  return t;
}

}  // namespace

Topology rail_optimized(const TopologyParams& p) { return build(p, 1, "rail-optimized"); }

Topology multi_plane(const TopologyParams& p) {
  if (p.planes < 2 || p.planes > 8) throw std::invalid_argument("multi-plane: planes must be 2..8");
  return build(p, p.planes, "multi-plane");
}

}  // namespace rdmasim
