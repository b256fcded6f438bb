// TcpCongestionControl: how the sender of a packet-level kernel TCP connection reacts to ECN
// (`bw --transport tcp --tcp-cc NAME`, scenario `network.tcp_cc`), and the registry of them.
//
// Every connection runs NewReno's window (slow start, congestion avoidance, fast retransmit and
// recovery, RTO: sim/tcp_connection.hpp); a registered control adds its reaction to the ACKs.
// It is told of every ACK of new data and of every duplicate ACK that echoes CE, after
// NewReno's own update, and may cut the window (cwnd, ssthresh). A spec with `ecn` makes the
// segments ECN-capable and the receiver echo CE exactly (an immediate ACK whenever the CE state
// of the arriving segments changes, RFC 8257 3.2); without it marks are never echoed.
// A component is a class implementing TcpCongestionControl plus a TcpCcSpec registered under its
// name; a program that embeds rdmasim may register its own (register_tcp_congestion_control)
// before it runs anything. Built-ins: reno (NewReno alone), dctcp (src/cc/dctcp.hpp).
// Invariant asked of every implementation: it leaves cwnd >= 1, and its calls are deterministic.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rdmasim/profile.hpp"

namespace rdmasim {

/// The sender's window as a control sees it (in segments) and may change it.
struct TcpWindow {
  double cwnd = 0, ssthresh = 0;
  std::uint32_t snd_una = 0;  // first unacknowledged sequence
  std::uint32_t snd_max = 0;  // one past the highest sequence sent
  bool in_recovery = false;   // NewReno fast recovery
};

class TcpCongestionControl {
 public:
  virtual ~TcpCongestionControl() = default;
  /// An ACK of `acked` new segments (0: a duplicate ACK, only told when it echoes CE) arrived;
  /// `ece`: it echoes CE. Returns true when it cut the window (counted as a CWR).
  virtual bool on_ack(TcpWindow& w, std::uint32_t acked, bool ece) = 0;
  /// Its estimate of the fraction of marked segments (statistics; 0 when it has none).
  virtual double alpha() const { return 0; }
};

struct TcpCcSpec {
  std::string name, description;
  std::string params;  // the profile parameters it reads ("tcp.dctcp_g") or ""
  std::string source;  // where the algorithm is published
  bool ecn = false;    // ECN-capable segments, CE echoed exactly by the receiver
  /// Builds one connection's control; null: NewReno alone.
  std::function<std::unique_ptr<TcpCongestionControl>(const TcpParams&)> make;
};

/// Every registered TCP congestion control, built-ins first.
std::vector<const TcpCcSpec*> tcp_congestion_controls();
/// Throws std::invalid_argument("unknown TCP congestion control \"x\" (valid: reno, dctcp, ...)").
const TcpCcSpec& tcp_congestion_control(std::string_view name);
/// Registers a control; throws std::invalid_argument for a taken or empty name.
void register_tcp_congestion_control(TcpCcSpec spec);

}  // namespace rdmasim
