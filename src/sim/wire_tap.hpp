// WireTap: an optional observer of the frames that start their transmission (SimContext::tap,
// Fabric::attach; nullptr = off, one branch where a frame starts). The packet capture
// (observe/capture.hpp) implements it. Frames carry their message's wire identity (Message::psn,
// dest_qp, ...), which the split stages stamp only while a tap is attached.
#pragma once

#include <cstdint>

#include "net/packet.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

class FifoServer;

/// QP numbers: connection i has the requester's QP kFirstQpn + 2i (host A / the flow's source)
/// and the responder's kFirstQpn + 2i + 1 — perftest's 0x11 / 0x12 for connection 0.
inline constexpr std::uint32_t kFirstQpn = 0x11;

class WireTap {
 public:
  /// `p` starts its transmission on a host's own wire (HostResources::wire, back to back).
  virtual void wire_start(const FifoServer& wire, const Packet& p, Time now) = 0;
  /// `p` starts its transmission on fabric port `port` (Fabric port ids).
  virtual void port_start(int port, const Packet& p, Time now) = 0;
  /// A PFC frame for class `tc` (xoff: pause, else resume) starts on `port` at `at` (>= now:
  /// after the frame the port is sending).
  virtual void pfc_start(int port, std::uint8_t tc, bool xoff, Time at) = 0;

 protected:
  ~WireTap() = default;
};

}  // namespace rdmasim
