// Ecmp: per-flow equal-cost multipath — every switch takes the next hop its hash of the flow's
// 5-tuple names (the RoCEv2 UDP source port is the entropy), so a flow keeps one path
// (RFC 2992). The fabric applies it without a call (the spec's `hash_only`).
#pragma once

#include "rdmasim/load_balancer.hpp"

namespace rdmasim {

class Ecmp final : public LoadBalancer {
 public:
  std::uint32_t choose(const HopChoice& c) override { return c.hash % c.count; }
};

LoadBalancerSpec ecmp_load_balancer();

}  // namespace rdmasim
