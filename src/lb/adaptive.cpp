#include "lb/adaptive.hpp"

namespace rdmasim {

LoadBalancerSpec adaptive_load_balancer() {
  LoadBalancerSpec s;
  s.name = "adaptive";
  s.description = "per packet: the next hop with the least queued bytes, ties by the ECMP hash";
  s.source = "InfiniBand adaptive routing; Kim et al., Adaptive Routing in High-Radix Clos Networks, SC 2006";
  s.dynamic = true;
  s.route_note = "adaptive per packet; unloaded: ";
  s.make = [](const SwitchParams&, const LoadBalancerContext&) { return std::make_unique<Adaptive>(); };
  return s;
}

}  // namespace rdmasim
