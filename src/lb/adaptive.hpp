// Adaptive: per-packet adaptive routing — the next hop with the fewest queued bytes, ties (and
// an idle network) broken in favour of the ECMP hash's choice, so an idle flow keeps its ECMP
// route. The choice reads the queues, so it is made as the packet reaches the switch.
#pragma once

#include "rdmasim/load_balancer.hpp"

namespace rdmasim {

class Adaptive final : public LoadBalancer {
 public:
  std::uint32_t choose(const HopChoice& c) override {
    const std::uint32_t h = c.hash % c.count;
    std::uint32_t best = h;
    std::int64_t least = c.load->queued_bytes(h);
    for (std::uint32_t i = 1; i < c.count; ++i) {
      const std::uint32_t j = (h + i) % c.count;
      const std::int64_t q = c.load->queued_bytes(j);
      if (q < least) best = j, least = q;
    }
    return best;
  }
};

LoadBalancerSpec adaptive_load_balancer();

}  // namespace rdmasim
