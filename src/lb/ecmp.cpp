#include "lb/ecmp.hpp"

namespace rdmasim {

LoadBalancerSpec ecmp_load_balancer() {
  LoadBalancerSpec s;
  s.name = "ecmp";
  s.description = "per-flow 5-tuple hash at every switch (RoCEv2 UDP source port as entropy)";
  s.source = "RFC 2992";
  s.hash_only = true;
  s.make = [](const SwitchParams&, const LoadBalancerContext&) { return std::make_unique<Ecmp>(); };
  return s;
}

}  // namespace rdmasim
