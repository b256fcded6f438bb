// RcStats: what one RC QP's transport did (sim/rc_connection.hpp) — its final state and the
// loss-recovery and congestion-control work, as a user reads them off `ibv_query_qp` and the
// NIC's counters (rnr/sequence errors, out-of-sequence, timeouts, CNPs).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

namespace rdmasim {

struct RcStats {
  std::string status = "ok";            // or "RETRY_EXC_ERR" / "RNR_RETRY_EXC_ERR": the QP went to error, its work flushed;
                                        // "closed": a verbs QP left RTS for another reason
  double failed_at_us = 0;              // when it did (simulated time)
  std::uint64_t sent = 0;               // data packets sent the first time
  std::string recovery = "go-back-N";   // or "selective repeat" (rc.selective_repeat)
  std::uint64_t retransmitted = 0;      // data packets sent again
  std::uint64_t retransmitted_bytes = 0;
  std::uint64_t timeouts = 0;           // retransmission timer expiries that resent
  std::uint64_t naks = 0;               // NAKs (PSN sequence error) the requester received
  std::uint64_t out_of_sequence = 0;    // packets the responder discarded: a later PSN than expected
  std::uint64_t duplicates = 0;         // packets the responder discarded: already received
  std::uint64_t acks_lost = 0;          // message ACKs the fabric dropped
  std::uint64_t cnps = 0;               // CNPs the requester received (DCQCN)
  std::uint64_t rnr_naks_sent = 0;      // RNR NAKs the responder sent (a SEND found no receive posted)
  std::uint64_t rnr_naks = 0;           // RNR NAKs the requester received (each waited rc.min_rnr_timer)
  std::uint64_t not_ready = 0;          // packets a responder QP not ready (gone, RESET, INIT, ERR) dropped
  std::uint64_t max_unacked = 0;        // the most packets unacknowledged at once (rc.max_inflight caps it)
  double final_rate_bps = 0;            // the rate control's current rate at the end (0: none)
};

/// Adds `s` (another QP of the same test) into `into`: counters and DCQCN rates summed; the
/// status and time of the first QP that failed.
inline void accumulate(RcStats& into, const RcStats& s) {
  if (into.status == "ok" && s.status != "ok") {
    into.status = s.status;
    into.failed_at_us = s.failed_at_us;
  } else if (s.status != "ok" && s.failed_at_us < into.failed_at_us) {
    into.failed_at_us = s.failed_at_us;
  }
  into.sent += s.sent;
  into.retransmitted += s.retransmitted;
  into.retransmitted_bytes += s.retransmitted_bytes;
  into.timeouts += s.timeouts;
  into.naks += s.naks;
  into.out_of_sequence += s.out_of_sequence;
  into.duplicates += s.duplicates;
  into.acks_lost += s.acks_lost;
  into.cnps += s.cnps;
  into.rnr_naks_sent += s.rnr_naks_sent;
  into.rnr_naks += s.rnr_naks;
  into.not_ready += s.not_ready;
  into.max_unacked = std::max(into.max_unacked, s.max_unacked);
  into.final_rate_bps += s.final_rate_bps;
}

}  // namespace rdmasim
