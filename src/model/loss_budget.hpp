// Closed-form goodput of one RC flow under random loss with go-back-N (no out-of-order
// placement), the estimate `rdmasim budget --loss p` prints and the simulation is checked
// against. Every cable corrupts a frame with probability p, so a data packet is lost on a
// route of h cables with q = 1 - (1-p)^h, and its NAK with the same q_n over the reverse route.
//
// The sender is backlogged (perftest's bw loop) and its wire busy, one frame every t_pkt. A
// loss of packet k is repaired
//   - by NAK (probability 1 - q_n): the next packet reaches the responder, its NAK comes back
//     (t_nak after k started), and the resend of k starts after the frames already in the
//     NIC's transmit window (nic.tx_window). The slots in between are wasted:
//     C_gbn = R_s x t_pkt, R_s the frames sent from k on until the resend. A loss among
//     resends (they go to the NIC one at a time, so a NAK rewinds the rest) wastes only
//     C_r = (ceil(t_nak / t_pkt) + 1) x t_pkt;
//   - by timeout (q_n: the NAK was lost): T = 4.096 us x 2^rc.timeout after the last
//     acknowledged message, then the go-back from its first packet: C_to = T + C_gbn;
//   - a lost resend of k is not NAKed again (the responder NAKs once per sequence error):
//     another T each time, q/(1-q) of them on average.
// Each loss in the stream puts B = (1-q_n)(R_s - 1) + q_n (T + C_gbn)/t_pkt later PSNs into a
// recovery block; the share of PSNs in blocks is f_r = qB / (1 + qB). So the mean cost of a
// loss is C = (1-f_r) C_gbn + f_r C_r + (q_n + q/(1-q)) T, the mean time per delivered packet
// E = t_pkt + q C, and goodput = payload per packet / E. Ignored: end-of-run effects (a lost
// final ACK), a lost successor of k (the next one triggers the NAK a slot later), lost ACKs
// (the next cumulative ACK covers them).
#pragma once

#include <cstdint>

#include "rdmasim/latency.hpp"

namespace rdmasim {

struct GbnEstimate {
  double loss = 0;              // p, per frame per cable
  int cables = 0;               // h
  double packet_loss = 0;       // q
  double nak_loss = 0;          // q_n
  Time packet_time{};           // t_pkt: mean frame of the message at the bottleneck rate
  Time data_one_way{};          // a full data frame, start of transmission -> responder
  Time nak_one_way{};           // a NAK, start of transmission -> requester
  Time nic_pipeline{};          // split -> wire: the NIC's own part of its transmit window
  std::int64_t window_frames = 0;   // frames the transmit window holds
  std::int64_t resent_per_nak = 0;  // frames from k to the last sent when the NAK arrives
  Time go_back_cost{};          // C_gbn (a loss in the stream)
  Time resent_in_block_cost{};  // C_r (a loss among resends)
  double in_block_share = 0;    // f_r
  Time timeout{};               // T
  Time timeout_cost{};          // C_to
  double wire_cost_per_loss_ps = 0;  // (1-f_r) C_gbn + f_r C_r: C without its timeouts
  double timeouts_per_loss = 0;      // q_n + q/(1-q)
  double cost_per_loss_ps = 0;  // C
  double ideal_bps = 0;         // goodput at p = 0: B x payload / wire
  double goodput_bps = 0;
  double efficiency = 0;        // goodput / ideal
  double payload_bits = 0;      // per packet

  /// Timeouts expected over `packets` delivered packets: packets x q x (q_n + q/(1-q)).
  double expected_timeouts(double packets) const { return packets * packet_loss * timeouts_per_loss; }
  /// The goodput with `timeouts` timeouts over `packets` delivered packets instead of their
  /// expectation: a finite run meets the rare timeouts (each T long) a whole number of times, so
  /// this is the figure a run of that many packets is checked against.
  double goodput_given(double timeouts, double packets) const;
};

/// Kernel TCP under the same loss, as a closed form (Mathis et al., CCR 1997: a Reno/SACK
/// flow's congestion window halves per loss, goodput = MSS/RTT x sqrt(3/2)/sqrt(q)), capped at
/// the line's TCP goodput B x MSS / segment wire bytes. RTT: the kernel TCP exchange of one
/// segment (the budget's back-to-back path) plus the fabric route both ways. Not simulated:
/// the TCP path has no congestion window in the packet-level fabric yet.
struct TcpLossEstimate {
  double segment_loss = 0;  // 1 - (1-p)^h
  Time rtt{};
  double line_bps = 0;
  double goodput_bps = 0;
};

/// For an RDMA WRITE/SEND stream of `c.size` messages between `c.fabric.from` and `.to` of a
/// switched topology, with loss `p` on every cable. Throws std::invalid_argument otherwise.
GbnEstimate estimate_go_back_n(const LatConfig& c, double p);
TcpLossEstimate estimate_tcp_under_loss(const LatConfig& c, double p);

}  // namespace rdmasim
