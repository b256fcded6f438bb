// FabricOptions: how a packet-level fabric (sim/fabric.hpp) behaves — the switch parameters
// (buffers, PFC, ECN, cut-through, pipeline), the link layer (RoCE with PFC/ECN, or
// InfiniBand with credit flow control), the routing strategy, and the largest frame (which
// sizes the automatic PFC headroom). Plain data, built from a LatConfig.
#pragma once

#include <cstdint>
#include <string>

#include "rdmasim/latency.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

struct FabricOptions {
  SwitchParams sw;
  std::int64_t velocity_mps = 200'000'000;
  LinkLayer layer = LinkLayer::roce;
  std::string routing = "ecmp";                    // the switches' load balancer (rdmasim/load_balancer.hpp)
  std::string cc = "none";                         // the QPs' rate control (RC transport, not the switches')
  std::string tcp_cc = "reno";                     // packet-level TCP connections'
  Bytes max_frame{4'200};
  // The traffic classes frames may carry (bit tc; the data class, switch.data_tc, always): a
  // port keeps a queue and ingress accounting (one 64 B line) for each, so a run that names
  // fewer holds less per port. A frame of a class left out is a logic error.
  std::uint8_t classes = 0xff;
};

/// The options a run of `c` uses (its profile, link layer, routing and MTU; the classes: the
/// data class, the CNPs' when its rate control sends them, TCP's when it runs TCP).
FabricOptions fabric_options(const LatConfig& c);

}  // namespace rdmasim
