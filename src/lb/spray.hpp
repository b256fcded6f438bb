// Spray: per-packet spraying — consecutive packets of a flow take every equal-cost path in turn.
// The choice is a mixed-radix digit of the packet's number over the fan-outs met along the path
// (the carried word is the product of the fan-outs passed so far), offset by the flow's hash so
// that flows do not move in step. Packets arrive out of order; an idle flow has no single route.
#pragma once

#include "rdmasim/load_balancer.hpp"

namespace rdmasim {

class Spray final : public LoadBalancer {
 public:
  std::uint32_t choose(const HopChoice& c) override {
    const std::uint32_t choice = (c.packet / *c.carried + c.hash % c.count) % c.count;
    *c.carried *= c.count;
    return choice;
  }
};

LoadBalancerSpec spray_load_balancer();

}  // namespace rdmasim
