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
};

/// The options a run of `c` uses (its profile, link layer, routing and MTU).
FabricOptions fabric_options(const LatConfig& c);

}  // namespace rdmasim
