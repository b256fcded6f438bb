// RateControl: the congestion control of one RDMA QP at its sender (the reaction point), and
// the registry of them (`--cc NAME`, scenario `network.cc`).
//
// The RC transport (packet level) asks the rate before every data packet it sends and paces the
// QP at it; it reports each packet sent, each CNP that reaches the sender, and each ACK with
// what it acknowledges, how many of those packets arrived ECN-marked (the responder counts CE
// marks per message and the message's ACK carries the count) and the round trip it measured. A QP with no rate control
// sends at line rate within its window.
//
// A component is a class implementing RateControl plus a RateControlSpec registered under its
// name; a program that embeds rdmasim can register its own (register_rate_control) before it
// runs anything. Invariant asked of every implementation: 0 < rate_bps(now) <= the line rate it
// was built with, and queries are deterministic functions of the calls made so far.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rdmasim/profile.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

/// In-band network telemetry (HPCC's INT) of one switch egress a data packet left: written
/// when the packet starts on the port.
struct HopTelemetry {
  Time ts{};                  // when the packet started on the port
  std::int64_t tx_bytes = 0;  // the port's bytes sent so far, this packet included
  std::int64_t qlen = 0;      // bytes left queued at the port, all classes
  std::int64_t rate_bps = 0;  // the port's link rate
};

/// The switch egresses of a message's last data packet, in path order (at most kMaxHops: a
/// longer path keeps its first ones). Kept by the RC transport beside the packet (Packet does
/// not grow), for rate controls whose spec asks for `telemetry`.
struct PathTelemetry {
  static constexpr int kMaxHops = 8;
  std::uint32_t psn = 0;  // the packet it describes
  Time sent{};            // when it was first sent (negative once it was resent)
  int hops = 0;
  HopTelemetry hop[kMaxHops];
};

/// What one ACK tells the sender. PSNs count packets: `acked_psn` is one past the last packet it
/// acknowledges (cumulative), `next_psn` one past the last packet sent so far.
struct AckSignal {
  Time now{};
  std::uint32_t acked_psn = 0, next_psn = 0;
  std::int32_t packets = 0;    // packets newly acknowledged by this ACK
  std::int32_t ce_marked = 0;  // of the acknowledged message's packets, those that arrived CE-marked
  /// The round trip of the acknowledged message's last packet: from its first transmission to
  /// this ACK; negative when that packet was resent (no sample, as Karn's rule says).
  Time rtt = Time::ps(-1);
  /// For a spec with `telemetry`: the switch egresses the acknowledged message's last packet
  /// crossed (null when none was recorded, e.g. that packet was resent after the ACK left).
  const PathTelemetry* telemetry = nullptr;
  /// Switches the ACK crossed on its way back (what a receiver reads from the TTL: Swift's hop
  /// count); -1 when unknown.
  std::int32_t hops = -1;
};

class RateControl {
 public:
  virtual ~RateControl() = default;
  /// `wire_bytes` of this QP left the sender at `now`.
  virtual void on_sent(std::int64_t wire_bytes, Time now) = 0;
  /// A CNP for this QP reached the sender (only for specs with `cnps`).
  virtual void on_cnp(Time now) = 0;
  virtual void on_ack(const AckSignal& a) = 0;
  /// The rate to pace at, in bit/s, at `now` (may advance internal timers).
  virtual double rate_bps(Time now) = 0;
  /// The rate as of the last call, without advancing anything (statistics).
  virtual double current_bps() const = 0;
  /// A window-based control's cap on the payload bytes unacknowledged at once (0: none). The
  /// RC sends no new packet while that many are unacknowledged; one is always allowed.
  virtual std::int64_t window_bytes() const { return 0; }
};

struct RateControlSpec {
  std::string name, description;
  std::string params;   // the profile parameters it reads: a key prefix ("dcqcn.") or "" for none
  std::string source;   // where the algorithm is published
  bool cnps = false;    // the responder sends CNPs for CE-marked packets (dcqcn.cnp_interval, dcqcn.cnp_tc)
  /// Builds one QP's control; null for "none" (line rate, no pacing).
  std::function<std::unique_ptr<RateControl>(const Profile&, Rate line)> make;
  bool telemetry = false;  // switches stamp HopTelemetry on its data packets and ACKs echo it (HPCC)
  /// The responder acknowledges every packet, each ACK with that packet's RTT (telemetry implies
  /// it): what a window needs within a long message, and a delay sample per packet (Swift).
  bool per_packet_acks = false;
};

/// Every registered rate control, built-ins first.
std::vector<const RateControlSpec*> rate_controls();
/// Throws std::invalid_argument("unknown congestion control \"x\" (valid: none, dcqcn, ...)").
const RateControlSpec& rate_control(std::string_view name);
/// Registers a rate control; throws std::invalid_argument for a taken or empty name.
void register_rate_control(RateControlSpec spec);

}  // namespace rdmasim
