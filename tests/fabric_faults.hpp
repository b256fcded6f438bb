// Test helpers for transports over a faulty fabric: a fault that loses frames by count, and a
// port's counters looked up by name ("h0->sw0") in a run's FabricStats (0 when absent).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rdmasim/fabric_stats.hpp"
#include "rdmasim/latency.hpp"

namespace rdmasim::testing {

inline LinkFault drop(std::string a, std::string b, std::vector<std::uint64_t> frames) {
  return LinkFault{std::move(a), std::move(b), {}, 0, std::move(frames), {}};
}

inline const PortStats* port_stats(const FabricStats& s, const std::string& port) {
  for (const PortStats& p : s.ports)
    if (p.port == port) return &p;
  return nullptr;
}
inline std::uint64_t tx_packets(const FabricStats& s, const std::string& port) {
  const PortStats* p = port_stats(s, port);
  return p ? p->tx_packets : 0;
}
inline std::uint64_t rx_errors(const FabricStats& s, const std::string& port) {
  const PortStats* p = port_stats(s, port);
  return p ? p->rx_errors : 0;
}

}  // namespace rdmasim::testing
