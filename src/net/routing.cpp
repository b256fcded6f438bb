#include "net/routing.hpp"

#include <deque>
#include <stdexcept>

namespace rdmasim {

namespace {
std::vector<int> search(const Topology& t, int dst_node, std::int64_t* visits) {
  std::vector<int> d(t.nodes().size(), -1);
  std::deque<int> q{dst_node};
  d[static_cast<std::size_t>(dst_node)] = 0;
  while (!q.empty()) {
    const int n = q.front();
    q.pop_front();
    ++*visits;
    const Node& node = t.nodes()[static_cast<std::size_t>(n)];
    if (node.kind == NodeKind::host && n != dst_node) continue;  // no transit through hosts
    for (int c : node.cables) {
      const Cable& cab = t.cables()[static_cast<std::size_t>(c)];
      const int m = cab.other(n);
      if (d[static_cast<std::size_t>(m)] < 0 && cab.can_cross(m)) {
        d[static_cast<std::size_t>(m)] = d[static_cast<std::size_t>(n)] + 1;
        q.push_back(m);
      }
    }
  }
  return d;
}
}  // namespace

std::vector<int> distances_to(const Topology& t, int dst_node) {
  std::int64_t visits = 0;
  return search(t, dst_node, &visits);
}

const std::vector<int>& cached_distances_to(const Topology& t, int node) {
  DistanceCache& memo = t.distance_cache();
  const std::lock_guard<std::mutex> lock(memo.mutex);
  auto it = memo.to_node.find(node);
  if (it == memo.to_node.end()) {
    ++memo.searches;
    it = memo.to_node.emplace(node, search(t, node, &memo.visits)).first;
  }
  return it->second;  // a std::map node stays put as others are added
}

HostDistances distances_to_host(const Topology& t, int h) {
  const int hn = t.host_node(h);
  const Node& host = t.nodes()[static_cast<std::size_t>(hn)];
  const Cable& cab = t.cables()[static_cast<std::size_t>(host.cables.at(0))];
  const int attach = cab.other(hn);
  // Through its switch when that is the host's only way in; else (a host cabled to a host) a
  // search from the host itself.
  const bool through_attach = host.cables.size() == 1 &&
                              t.nodes()[static_cast<std::size_t>(attach)].kind == NodeKind::switch_ && cab.can_cross(attach);
  if (const ClosRoutes* clos = t.distance_cache().clos.get(); clos && through_attach) return HostDistances(clos, hn, attach);
  return HostDistances(&cached_distances_to(t, through_attach ? attach : hn), hn, through_attach ? 1 : 0);
}

namespace {
template <typename Distances>
void extend(const Topology& t, const Distances& d, int dst, FabricPath& cur, std::vector<FabricPath>& out,
            std::size_t limit) {
  if (out.size() >= limit) return;
  const int n = cur.nodes.back();
  if (n == dst) {
    out.push_back(cur);
    return;
  }
  const Node& node = t.nodes()[static_cast<std::size_t>(n)];
  for (int c : node.cables) {
    const int m = t.cables()[static_cast<std::size_t>(c)].other(n);
    if (d[static_cast<std::size_t>(m)] != d[static_cast<std::size_t>(n)] - 1) continue;
    if (!t.cables()[static_cast<std::size_t>(c)].can_cross(n)) continue;
    if (t.nodes()[static_cast<std::size_t>(m)].kind == NodeKind::host && m != dst) continue;
    cur.nodes.push_back(m);
    cur.cables.push_back(c);
    extend(t, d, dst, cur, out, limit);
    cur.nodes.pop_back();
    cur.cables.pop_back();
  }
}
}  // namespace

std::vector<FabricPath> equal_cost_paths(const Topology& t, int src, int dst, std::size_t limit) {
  if (src < 0 || src >= t.host_count() || dst < 0 || dst >= t.host_count())
    throw std::invalid_argument("host index out of range (topology has " + std::to_string(t.host_count()) + " hosts)");
  const int s = t.host_node(src), e = t.host_node(dst);
  const HostDistances d = distances_to_host(t, dst);
  if (d[static_cast<std::size_t>(s)] < 0) return {};
  FabricPath cur;
  cur.nodes.push_back(s);
  std::vector<FabricPath> out;
  extend(t, d, e, cur, out, limit);
  return out;
}

std::map<int, std::int64_t> hop_histogram(const Topology& t) {
  std::map<int, std::int64_t> h;
  for (int dst = 0; dst < t.host_count(); ++dst) {
    const HostDistances d = distances_to_host(t, dst);
    for (int src = 0; src < t.host_count(); ++src)
      if (src != dst) ++h[d[static_cast<std::size_t>(t.host_node(src))]];
  }
  return h;
}

}  // namespace rdmasim
