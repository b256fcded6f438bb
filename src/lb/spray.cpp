#include "lb/spray.hpp"

namespace rdmasim {

LoadBalancerSpec spray_load_balancer() {
  LoadBalancerSpec s;
  s.name = "spray";
  s.description = "per packet: sender entropy mapped so consecutive packets take every equal-cost path";
  s.source = "Dixit et al., On the Impact of Packet Spraying in Data Center Networks, INFOCOM 2013";
  s.per_packet_paths = true;
  s.route_note = "sprayed per packet";
  s.make = [](const SwitchParams&, const LoadBalancerContext&) { return std::make_unique<Spray>(); };
  return s;
}

}  // namespace rdmasim
