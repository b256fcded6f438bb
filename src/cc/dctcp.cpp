#include "cc/dctcp.hpp"

#include <algorithm>

namespace rdmasim {

bool Dctcp::on_ack(TcpWindow& w, std::uint32_t acked, bool ece) {
  window_acked_ += acked;
  if (ece) window_marked_ += acked;
  bool cut = false;
  if (ece && !w.in_recovery && (!cut_once_ || w.snd_una >= cwr_end_)) {
    cut_once_ = true;
    cwr_end_ = w.snd_max;
    w.cwnd = std::max(w.cwnd * (1.0 - alpha_ / 2.0), 2.0);
    w.ssthresh = w.cwnd;
    cut = true;
  }
  if (w.snd_una >= window_end_ && window_acked_ > 0) {  // one window observed
    const double f = static_cast<double>(window_marked_) / static_cast<double>(window_acked_);
    alpha_ = (1.0 - g_) * alpha_ + g_ * f;
    window_acked_ = window_marked_ = 0;
    window_end_ = w.snd_max;
  }
  return cut;
}

TcpCcSpec dctcp_tcp_cc() {
  return {"dctcp", "DCTCP: ECN-capable segments, exact ECE echo, cwnd x (1 - alpha/2) at most once per window",
          "tcp.dctcp_g", "Alizadeh et al., Data Center TCP, SIGCOMM 2010; RFC 8257", true,
          [](const TcpParams& t) { return std::make_unique<Dctcp>(t.dctcp_g); }};
}

}  // namespace rdmasim
