// Dctcp: DCTCP's sender reaction for packet-level TCP (Alizadeh et al., "Data Center TCP",
// SIGCOMM 2010; RFC 8257 3.3-3.4). Per observation window (one window of data, ending when
// the highest sequence sent at its start is acknowledged) it counts the acknowledged segments
// and those acknowledged with ECE, and at the window's end sets alpha <- (1 - g) alpha + g F
// (F the marked fraction, g = tcp.dctcp_g). On the first ECE outside fast recovery, and then
// at most once per window of data, it cuts cwnd <- max(cwnd (1 - alpha/2), 2) and sets
// ssthresh to it (a CWR). alpha starts at 1 (RFC 8257's conservative start).
// Invariant: 0 <= alpha <= 1; cwnd >= 2 after a cut.
#pragma once

#include <cstdint>

#include "rdmasim/tcp_cc.hpp"

namespace rdmasim {

class Dctcp final : public TcpCongestionControl {
 public:
  explicit Dctcp(double g) : g_(g) {}
  bool on_ack(TcpWindow& w, std::uint32_t acked, bool ece) override;
  double alpha() const override { return alpha_; }

 private:
  double g_;
  double alpha_ = 1.0;
  std::uint64_t window_acked_ = 0, window_marked_ = 0;
  std::uint32_t window_end_ = 0;  // the observation window ends when this is acknowledged
  std::uint32_t cwr_end_ = 0;     // no further cut until this is acknowledged
  bool cut_once_ = false;
};

/// The registry entry (src/cc/tcp_ccs.cpp).
TcpCcSpec dctcp_tcp_cc();

}  // namespace rdmasim
