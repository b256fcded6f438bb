// TcpStats: what one packet-level TCP connection did (sim/tcp_connection.hpp) — segments,
// loss recovery (fast retransmits, timeouts) and congestion control (ECN echo, window cuts),
// as `ss -ti` / `nstat` report them for a socket.
#pragma once

#include <cstdint>
#include <string>

namespace rdmasim {

struct TcpStats {
  std::string cc = "reno";               // congestion control, by name (rdmasim/tcp_cc.hpp)
  std::uint64_t sent = 0;                // data segments sent the first time
  std::uint64_t retransmitted = 0;       // data segments sent again (fast retransmit, partial ACK, RTO)
  std::uint64_t retransmitted_bytes = 0;
  std::uint64_t fast_retransmits = 0;    // entries into fast recovery (3 duplicate ACKs)
  std::uint64_t timeouts = 0;            // RTO expiries
  std::uint64_t lost_retransmits = 0;    // resends found lost in fast recovery and resent again
  std::uint64_t acks_sent = 0, acks_received = 0, dup_acks = 0;
  std::uint64_t out_of_order = 0;        // segments the receiver queued past a hole
  std::uint64_t duplicates = 0;          // segments the receiver discarded (already received)
  std::uint64_t ece = 0;                 // ACKs with ECE the sender received (DCTCP)
  std::uint64_t cwr = 0;                 // window reductions on ECE (DCTCP: once per window)
  std::uint64_t delivered_bytes = 0;     // payload bytes delivered in order to the receiver
  double final_cwnd = 0;                 // segments
  double srtt_us = 0, rto_us = 0;
  double dctcp_alpha = 0;                // DCTCP's alpha at the end (0 for reno)
};

/// Adds `s` (another connection of the same test) into `into`: the counters summed; the
/// window, RTT and alpha stay the first connection's.
inline void accumulate(TcpStats& into, const TcpStats& s) {
  into.sent += s.sent;
  into.retransmitted += s.retransmitted;
  into.retransmitted_bytes += s.retransmitted_bytes;
  into.fast_retransmits += s.fast_retransmits;
  into.timeouts += s.timeouts;
  into.lost_retransmits += s.lost_retransmits;
  into.acks_sent += s.acks_sent;
  into.acks_received += s.acks_received;
  into.dup_acks += s.dup_acks;
  into.out_of_order += s.out_of_order;
  into.duplicates += s.duplicates;
  into.ece += s.ece;
  into.cwr += s.cwr;
  into.delivered_bytes += s.delivered_bytes;
}

}  // namespace rdmasim
