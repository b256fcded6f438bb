// TelemetrySink: where the switches' in-band telemetry of a flow's packets goes (HPCC's INT):
// the fabric calls it as a packet of the flow starts on a switch egress port
// (Fabric::stamp_telemetry); the RC transport of a QP whose rate control reads telemetry keeps it
// beside the packet, so Packet does not grow.
#pragma once

#include <cstdint>

#include "rdmasim/rate_control.hpp"

namespace rdmasim {

class TelemetrySink {
 public:
  /// Packet `psn` of the flow left a switch egress, which reported `h`.
  virtual void hop(std::uint32_t psn, const HopTelemetry& h) = 0;

 protected:
  ~TelemetrySink() = default;
};

}  // namespace rdmasim
