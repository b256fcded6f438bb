#include "net/ecmp.hpp"

#include <stdexcept>
#include <vector>

namespace rdmasim {

FlowKey roce_flow(int src, int dst, std::uint16_t sport) {
  FlowKey k;
  k.src_addr = static_cast<std::uint32_t>(src + 1);
  k.dst_addr = static_cast<std::uint32_t>(dst + 1);
  k.src_port = sport;
  return k;
}

std::uint32_t ecmp_hash(const FlowKey& k, int switch_node) {
  std::uint32_t h = 2166136261u;
  auto mix = [&](std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      h ^= static_cast<std::uint8_t>(v >> (8 * i));
      h *= 16777619u;
    }
  };
  mix(k.src_addr, 4);
  mix(k.dst_addr, 4);
  mix(k.src_port, 2);
  mix(k.dst_port, 2);
  mix(k.protocol, 1);
  mix(static_cast<std::uint32_t>(switch_node), 4);
  // FNV-1a's low bits are a linear function of the input's low bits, so `hash % 2` at two
  // tiers would make correlated choices; finish with murmur3's fmix32 to spread every bit.
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

FabricPath ecmp_route(const Topology& t, int src, int dst, const FlowKey& k) {
  if (src < 0 || src >= t.host_count() || dst < 0 || dst >= t.host_count() || src == dst)
    throw std::invalid_argument("ecmp_route: bad host pair");
  const int end = t.host_node(dst);
  FabricPath p;
  int n = t.host_node(src);
  p.nodes.push_back(n);
  if (const ClosRoutes* clos = t.distance_cache().clos.get()) {
    // Closed form: the source's cable, the switches' next ports (in cable order, as below),
    // the destination's cable.
    const int last = t.nodes()[static_cast<std::size_t>(end)].cables.at(0);
    const int attach = t.cables()[static_cast<std::size_t>(last)].other(end);
    int c = t.nodes()[static_cast<std::size_t>(n)].cables.at(0);
    for (;;) {
      n = t.cables()[static_cast<std::size_t>(c)].other(n);
      p.cables.push_back(c);
      p.nodes.push_back(n);
      if (n == end) return p;
      if (n == attach) {
        c = last;
        continue;
      }
      const std::span<const std::int32_t> next = clos->next_ports(n, attach);
      if (next.empty()) throw std::logic_error("ecmp_route: destination unreachable");
      c = (next.size() == 1 ? next[0] : next[ecmp_hash(k, n) % next.size()]) >> 1;
    }
  }
  const HostDistances d = distances_to_host(t, dst);
  while (n != end) {
    std::vector<int> next;  // cables towards the destination, in cable order
    for (int c : t.nodes()[static_cast<std::size_t>(n)].cables) {
      const int m = t.cables()[static_cast<std::size_t>(c)].other(n);
      const bool host = t.nodes()[static_cast<std::size_t>(m)].kind == NodeKind::host;
      if (d[static_cast<std::size_t>(m)] == d[static_cast<std::size_t>(n)] - 1 && (!host || m == end) &&
          t.cables()[static_cast<std::size_t>(c)].can_cross(n))
        next.push_back(c);
    }
    if (next.empty()) throw std::logic_error("ecmp_route: destination unreachable");
    const int c = next.size() == 1 ? next[0] : next[ecmp_hash(k, n) % next.size()];
    n = t.cables()[static_cast<std::size_t>(c)].other(n);
    p.cables.push_back(c);
    p.nodes.push_back(n);
  }
  return p;
}

}  // namespace rdmasim
