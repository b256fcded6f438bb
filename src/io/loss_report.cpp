#include "io/loss_report.hpp"

namespace rdmasim {

void print_go_back_n(std::FILE* out, const GbnEstimate& e, int rc_timeout) {
  std::fprintf(out, " Go-back-N goodput under loss %.3g per frame per link (closed form, model/loss_budget.hpp)\n",
               e.loss);
  std::fprintf(out, "   route: %d links; a data packet is lost with q = %.4g, its NAK with q_n = %.4g\n", e.cables,
               e.packet_loss, e.nak_loss);
  std::fprintf(out, "   t_pkt %.3f usec; data frame one way %.3f usec, NAK %.3f usec; transmit window %lld frames\n",
               e.packet_time.to_us(), e.data_one_way.to_us(), e.nak_one_way.to_us(),
               static_cast<long long>(e.window_frames));
  std::fprintf(out, "   one loss repaired by NAK:     %lld frames resent, C_gbn = %.3f usec of wire time\n",
               static_cast<long long>(e.resent_per_nak), e.go_back_cost.to_us());
  std::fprintf(out, "   a loss among resends:         C_r = %.3f usec; share of PSNs in recovery blocks f_r = %.3f\n",
               e.resent_in_block_cost.to_us(), e.in_block_share);
  std::fprintf(out, "   NAK or resend lost, timeout:  T = %.3f usec (rc.timeout %d), C_to = %.3f usec\n",
               e.timeout.to_us(), rc_timeout, e.timeout_cost.to_us());
  std::fprintf(out, "   C = (1-f_r) C_gbn + f_r C_r + (q_n + q/(1-q)) T = %.3f usec per loss\n", e.cost_per_loss_ps / 1e6);
  std::fprintf(out, "   goodput = payload / (t_pkt + q C) = %.2f Gb/sec of %.2f ideal (%.2f%%)\n", e.goodput_bps / 1e9,
               e.ideal_bps / 1e9, 100 * e.efficiency);
}

nlohmann::ordered_json go_back_n_json(const GbnEstimate& e) {
  nlohmann::ordered_json j;
  j["loss"] = e.loss;
  j["links"] = e.cables;
  j["packet_loss"] = e.packet_loss;
  j["nak_loss"] = e.nak_loss;
  j["packet_time_ps"] = e.packet_time.count_ps();
  j["data_one_way_ps"] = e.data_one_way.count_ps();
  j["nak_one_way_ps"] = e.nak_one_way.count_ps();
  j["window_frames"] = e.window_frames;
  j["resent_per_nak"] = e.resent_per_nak;
  j["go_back_cost_ps"] = e.go_back_cost.count_ps();
  j["resent_in_block_cost_ps"] = e.resent_in_block_cost.count_ps();
  j["in_block_share"] = e.in_block_share;
  j["timeout_ps"] = e.timeout.count_ps();
  j["timeout_cost_ps"] = e.timeout_cost.count_ps();
  j["cost_per_loss_ps"] = e.cost_per_loss_ps;
  j["ideal_bps"] = e.ideal_bps;
  j["goodput_bps"] = e.goodput_bps;
  j["efficiency"] = e.efficiency;
  return j;
}

void print_loss_table(std::FILE* out, const std::vector<LossRow>& rows, int rc_timeout) {
  if (rows.empty()) return;
  const LatConfig& c = rows.front().rdma.config.base;
  std::fprintf(out, " Goodput vs loss per frame per link: RDMA %s %lld B messages (go-back-N, rc.timeout %d = %.1f usec)\n",
               c.test == TestKind::send ? "SEND" : "WRITE", static_cast<long long>(c.size.count()), rc_timeout,
               rows.front().rdma_estimate.timeout.to_us());
  const TcpStats* t0 = rows.front().tcp_sim.tcp ? &*rows.front().tcp_sim.tcp : nullptr;
  std::fprintf(out, " simulated, and both closed forms; TCP simulated packet by packet (%s, tcp.min_rto %.0f ms) beside\n"
                    " Mathis' Reno/SACK formula (RTT %.2f usec)\n",
               t0 ? t0->cc.c_str() : "reno", c.profile.tcp.min_rto.to_us() / 1e3, rows.front().tcp.rtt.to_us());
  std::fprintf(out, " %-9s %13s %12s %12s %8s %9s %17s %12s %9s %8s %12s\n", "loss", "RDMA sim Gb/s", "closed form",
               "given its TO", "% ideal", "resent", "timeouts (expect)", "TCP sim Gb/s", "resent", "RTOs", "Mathis Gb/s");
  for (const LossRow& r : rows) {
    const std::uint64_t resent = r.rdma.rc ? r.rdma.rc->retransmitted : 0, tos = r.rdma.rc ? r.rdma.rc->timeouts : 0;
    const double sent = r.rdma.rc ? static_cast<double>(r.rdma.rc->sent) : 0;
    const std::uint64_t tresent = r.tcp_sim.tcp ? r.tcp_sim.tcp->retransmitted : 0;
    const std::uint64_t ttos = r.tcp_sim.tcp ? r.tcp_sim.tcp->timeouts : 0;
    char timeouts[32];
    std::snprintf(timeouts, sizeof timeouts, "%llu (%.2f)", static_cast<unsigned long long>(tos),
                  r.rdma_estimate.expected_timeouts(sent));
    std::fprintf(out, " %-9g %13.3f %12.3f %12.3f %7.2f%% %9llu %17s %12.3f %9llu %8llu %12.3f%s\n", r.loss,
                 r.rdma.bw_avg_bps / 1e9, r.rdma_estimate.goodput_bps / 1e9,
                 r.rdma_estimate.goodput_given(static_cast<double>(tos), sent) / 1e9,
                 100 * r.rdma.bw_avg_bps / r.rdma_estimate.ideal_bps, static_cast<unsigned long long>(resent), timeouts,
                 r.tcp_sim.bw_avg_bps / 1e9, static_cast<unsigned long long>(tresent), static_cast<unsigned long long>(ttos),
                 r.tcp.goodput_bps / 1e9, r.rdma.rc && r.rdma.rc->status != "ok" ? "  (QP failed: RETRY_EXC_ERR)" : "");
  }
  std::fprintf(out, " The closed form is the mean over an endless run, rare timeouts (each T) included; a run meets\n"
                    " them a whole number of times (expected count in brackets), so \"given its TO\" is the closed\n"
                    " form with the run's own timeouts: the figure the simulation matches. Mathis' formula has no\n"
                    " timeouts: where TCP's window is too small for 3 duplicate ACKs, its tcp.min_rto timeouts put\n"
                    " the simulated TCP below it.\n");
}

nlohmann::ordered_json loss_table_json(const std::vector<LossRow>& rows) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const LossRow& r : rows) {
    nlohmann::ordered_json x;
    x["loss"] = r.loss;
    x["rdma_sim_bps"] = r.rdma.bw_avg_bps;
    x["rdma_completed"] = r.rdma.completed;
    if (r.rdma.rc) {
      x["rdma_retransmitted"] = r.rdma.rc->retransmitted;
      x["rdma_timeouts"] = r.rdma.rc->timeouts;
      x["rdma_status"] = r.rdma.rc->status;
    }
    x["rdma_estimate"] = go_back_n_json(r.rdma_estimate);
    if (r.rdma.rc) {
      const double sent = static_cast<double>(r.rdma.rc->sent);
      x["rdma_expected_timeouts"] = r.rdma_estimate.expected_timeouts(sent);
      x["rdma_estimate_given_timeouts_bps"] = r.rdma_estimate.goodput_given(static_cast<double>(r.rdma.rc->timeouts), sent);
    }
    x["tcp_sim_bps"] = r.tcp_sim.bw_avg_bps;
    x["tcp_completed"] = r.tcp_sim.completed;
    if (r.tcp_sim.tcp) {
      x["tcp_retransmitted"] = r.tcp_sim.tcp->retransmitted;
      x["tcp_fast_retransmits"] = r.tcp_sim.tcp->fast_retransmits;
      x["tcp_timeouts"] = r.tcp_sim.tcp->timeouts;
    }
    x["tcp_estimate_bps"] = r.tcp.goodput_bps;
    x["tcp_rtt_ps"] = r.tcp.rtt.count_ps();
    j.push_back(std::move(x));
  }
  return j;
}

}  // namespace rdmasim
