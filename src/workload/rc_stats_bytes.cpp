#include "workload/rc_stats_bytes.hpp"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace rdmasim {

void put_rc(ByteWriter& out, const RcStats& s, bool requester) {
  out.put_all(std::span<const char>(requester ? s.status : std::string("ok")));
  out.put_all(std::span<const char>(s.recovery));
  out.put(std::array{requester ? s.failed_at_us : 0.0, requester ? s.final_rate_bps : 0.0});
  out.put(std::array{s.sent, s.retransmitted, s.retransmitted_bytes, s.timeouts, s.naks, s.out_of_sequence, s.duplicates,
                     s.acks_lost, s.cnps, s.rnr_naks_sent, s.rnr_naks, s.not_ready, s.max_unacked});
}

RcStats get_rc(ByteReader& in) {
  RcStats s;
  const std::vector<char> status = in.get_all<char>(), recovery = in.get_all<char>();
  s.status.assign(status.begin(), status.end());
  s.recovery.assign(recovery.begin(), recovery.end());
  const auto d = in.get<std::array<double, 2>>();
  s.failed_at_us = d[0], s.final_rate_bps = d[1];
  const auto n = in.get<std::array<std::uint64_t, 13>>();
  s.sent = n[0], s.retransmitted = n[1], s.retransmitted_bytes = n[2], s.timeouts = n[3], s.naks = n[4];
  s.out_of_sequence = n[5], s.duplicates = n[6], s.acks_lost = n[7], s.cnps = n[8], s.rnr_naks_sent = n[9];
  s.rnr_naks = n[10], s.not_ready = n[11], s.max_unacked = n[12];
  return s;
}

RcStats join_rc(const std::vector<RcStats>& by_rank, int requester) {
  RcStats joined = by_rank.at(static_cast<std::size_t>(requester));
  for (std::size_t r = 0; r < by_rank.size(); ++r)
    if (static_cast<int>(r) != requester) accumulate(joined, by_rank[r]);
  return joined;
}

}  // namespace rdmasim
