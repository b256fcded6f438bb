// ECMP: per-flow equal-cost multipath as switches do it. Each switch hashes the flow's
// 5-tuple (with its own seed, so consecutive tiers do not make correlated choices) and picks
// one of its next hops on a shortest path to the destination. For RoCEv2 the UDP source port
// carries per-QP entropy (destination port is always 4791). A flow's route is therefore fixed
// for its lifetime and can be computed at connection time.
#pragma once

#include <cstdint>

#include "net/routing.hpp"
#include "net/topology.hpp"

namespace rdmasim {

struct FlowKey {
  std::uint32_t src_addr = 0, dst_addr = 0;  // simulated host addresses (host index + 1)
  std::uint16_t src_port = 0, dst_port = 4791;
  std::uint8_t protocol = 17;                // UDP
};

/// The RoCEv2 flow from host `src` to host `dst` with UDP source port `sport`.
FlowKey roce_flow(int src, int dst, std::uint16_t sport);
/// FNV-1a over the 5-tuple bytes and the switch's node index, finished with murmur3 fmix32.
std::uint32_t ecmp_hash(const FlowKey& k, int switch_node);
/// The route the switches' hashes give this flow; one of equal_cost_paths(t, src, dst).
FabricPath ecmp_route(const Topology& t, int src, int dst, const FlowKey& k);

}  // namespace rdmasim
