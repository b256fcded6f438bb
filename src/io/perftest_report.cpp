#include "io/perftest_report.hpp"

#include <algorithm>
#include <cinttypes>
#include <string>

#include "core/random.hpp"
#include "io/traffic_report.hpp"

namespace rdmasim {
namespace {

constexpr const char* kResultLine =
    "---------------------------------------------------------------------------------------\n";
constexpr const char* kResultFmtLat =
    " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99"
    "%"
    " percentile[usec]   99.9"
    "%"
    " percentile[usec] ";
constexpr const char* kReportFmtLat =
    " %-7" PRId64 " %" PRId64 "          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f";

void print_address(std::FILE* out, const char* who, std::uint32_t qpn, std::uint32_t psn, bool rdma_fmt,
                   std::uint32_t rkey, std::uint64_t vaddr) {
  std::fprintf(out, " %s address: LID %#04x QPN %#06x PSN %#06x", who, 0u, qpn, psn);
  if (rdma_fmt) std::fprintf(out, " RKey %#08x VAddr %#016llx", rkey, static_cast<unsigned long long>(vaddr));
  std::fprintf(out, "\n");
}

double share(double part, double total) { return total > 0 ? 100.0 * part / total : 0.0; }

}  // namespace

const char* perftest_verb(TestKind t) {
  switch (t) {
    case TestKind::write: return "RDMA_Write";
    case TestKind::read: return "RDMA_Read";
    case TestKind::send: return "Send";
  }
  return "?";
}

void print_lat_header(std::FILE* out, const LatResult& r) {
  print_test_header(out, r.config, r.toggles, r.routes, "Latency", 1);
}

void print_test_header(std::FILE* out, const LatConfig& c, const ResolvedToggles& toggles,
                       const std::vector<std::string>& routes, const char* kind, int tx_depth, int qps,
                       bool bidirectional, int outstanding_reads, int cq_mod) {
  const bool tcp = c.transport == Transport::tcp;
  std::fprintf(out, "%s", kResultLine);
  std::fprintf(out, "                    ");
  std::fprintf(out, "%s ", tcp ? "TCP_Send" : perftest_verb(c.test));
  if (bidirectional) std::fprintf(out, "Bidirectional ");
  std::fprintf(out, "%s ", kind);
  std::fprintf(out, "Test\n");
  std::fprintf(out, " Dual-port       : %s\t\tDevice         : %s\n", "OFF",
               c.topology == LatTopology::loopback ? "lo" : tcp ? "sim_eth0" : "sim_mlx5_0");
  std::fprintf(out, " Number of qps   : %d\t\tTransport type : %s\n", qps, tcp ? "TCP (kernel)" : "IB");
  std::fprintf(out, " Connection type : %s\t\tUsing SRQ      : %s\n", tcp ? "stream" : "RC", "OFF");
  std::fprintf(out, " PCIe relax order: %s\t\tLock-free      : %s\n", "OFF", "OFF");
  std::fprintf(out, " ibv_wr* API     : %s\t\tUsing Enhanced Reorder      : %s\n", "OFF", "OFF");
  std::fprintf(out, " TX depth        : %d\n", tx_depth);
  if (c.test == TestKind::send) std::fprintf(out, " RX depth        : %d\n", 512);
  if (std::string_view(kind) == "BW") std::fprintf(out, " CQ Moderation   : %d\n", cq_mod);
  std::fprintf(out, " Mtu             : %lu[B]\n", static_cast<unsigned long>(tcp ? 1500 : c.mtu.count()));
  std::fprintf(out, " Link type       : %s\n", !tcp && c.link_layer == LinkLayer::ib ? "IB" : "Ethernet");
  if (!tcp && c.link_layer == LinkLayer::roce) std::fprintf(out, " GID index       : %d\n", 3);
  if (c.test == TestKind::read)
    std::fprintf(out, " Outstand reads  : %d\n", outstanding_reads);
  else
    std::fprintf(out, " Max inline data : %d[B]\n", static_cast<int>(toggles.max_inline.count()));
  std::fprintf(out, " rdma_cm QPs\t : %s\n", "OFF");
  std::fprintf(out, " Data ex. method : %s\n", "Ethernet");
  std::fprintf(out, "%s", kResultLine);
  // Deterministic per-seed QPN/PSN/keys, as perftest draws them at random.
  std::uint64_t st = c.seed;
  const auto psn = [&] { return static_cast<std::uint32_t>(splitmix64(st) & 0xffffff); };
  const bool rdma_fmt = !tcp && c.test != TestKind::send;
  // One line per QP, the local ones first (as perftest prints them); QP i's QPNs follow QP 0's.
  // Each side draws its key, then its PSN.
  std::vector<std::uint32_t> psns(static_cast<std::size_t>(2 * qps)), keys(psns.size());
  for (std::size_t i = 0; i < psns.size(); ++i) {
    keys[i] = psn() & 0xff;
    psns[i] = psn();
  }
  for (int i = 0; i < qps; ++i) {
    const auto k = static_cast<std::size_t>(2 * i);
    print_address(out, "local", 0x11 + 2 * static_cast<std::uint32_t>(i), psns[k], rdma_fmt, 0x1000 | keys[k],
                  0x7f0000000000ULL);
  }
  for (int i = 0; i < qps; ++i) {
    const auto k = static_cast<std::size_t>(2 * i + 1);
    print_address(out, "remote", 0x12 + 2 * static_cast<std::uint32_t>(i), psns[k], rdma_fmt, 0x2000 | keys[k],
                  0x7f0000100000ULL);
  }
  std::fprintf(out, "%s", kResultLine);
  if (routes.size() == 2) {
    std::fprintf(out, " ECMP route    : %s\n", routes[0].c_str());
    std::fprintf(out, " reply route   : %s\n", routes[1].c_str());
    std::fprintf(out, "%s", kResultLine);
  } else if (!routes.empty()) {  // route and reply route of every QP, A -> B first
    for (std::size_t i = 0; i + 1 < routes.size(); i += 2) {
      const std::size_t qp = i / 2;
      const bool back = bidirectional && qp >= static_cast<std::size_t>(qps);
      const std::string label = "QP " + std::to_string(back ? qp - static_cast<std::size_t>(qps) : qp) +
                                (back ? " B->A route" : " A->B route");
      std::fprintf(out, " %s : %s\n", label.c_str(), routes[i].c_str());
      std::fprintf(out, " %*s : %s\n", static_cast<int>(label.size()), "reply", routes[i + 1].c_str());
    }
    std::fprintf(out, "%s", kResultLine);
  }
}

void print_lat_table(std::FILE* out, const std::vector<LatResult>& rows) {
  std::fprintf(out, "%s\n", kResultFmtLat);
  for (const LatResult& r : rows) {
    const LatencyStats& s = r.stats;
    std::fprintf(out, kReportFmtLat, r.config.size.count(), r.config.iters, s.min_us(), s.max_us(), s.typical_us(),
                 s.avg_us(), s.stdev_us(), s.p99_us(), s.p999_us());
    std::fprintf(out, "\n");
  }
  std::fprintf(out, "%s", kResultLine);
}

void print_ledger(std::FILE* out, const LatResult& r) {
  const double total = r.stats.avg_ps;
  std::fprintf(out, " Latency ledger: mean of the %" PRId64 " kept samples (%s), rows add up to t_avg\n", r.stats.kept,
               r.rtt_factor == 2 ? "RTT/2" : "RTT");
  std::fprintf(out, " %-12s %12s %8s\n", "category", "t[usec]", "share");
  double process = 0;
  for (Category c : kAllCategories)
    if (is_process(c)) process += r.mean_ps(c);
  for (Category c : {Category::queue, Category::transmit, Category::propagate})
    std::fprintf(out, " %-12s %12.3f %7.1f%%\n", std::string(category_name(c)).c_str(), r.mean_ps(c) / 1e6,
                 share(r.mean_ps(c), total));
  std::fprintf(out, " %-12s %12.3f %7.1f%%\n", "process", process / 1e6, share(process, total));
  for (Category c : kAllCategories) {
    if (!is_process(c) || r.kept_ledger_sum[c] == Time::zero()) continue;
    std::fprintf(out, "   %-10s %12.3f %7.1f%%\n", std::string(category_name(c)).c_str(), r.mean_ps(c) / 1e6,
                 share(r.mean_ps(c), total));
  }
  std::fprintf(out, " %-12s %12.3f %7.1f%%\n", "total", total / 1e6, 100.0);
  std::fprintf(out, "%s", kResultLine);
}

LedgerRow ledger_row(const LatResult& r) {
  LedgerRow row;
  row.size = r.config.size;
  for (std::size_t i = 0; i < kCategoryCount; ++i) row.ps[i] = r.mean_ps(kAllCategories[i]);
  row.total_ps = r.stats.avg_ps;
  return row;
}

LedgerRow ledger_row(const BudgetResult& b) {
  LedgerRow row;
  row.size = b.config.size;
  for (std::size_t i = 0; i < kCategoryCount; ++i)
    row.ps[i] = static_cast<double>(b.rtt[kAllCategories[i]].count_ps()) / b.rtt_factor;
  row.total_ps = b.reported_ps;
  return row;
}

std::vector<LedgerRow> ledger_rows(const std::vector<LatResult>& rows) {
  std::vector<LedgerRow> v;
  for (const LatResult& r : rows) v.push_back(ledger_row(r));
  return v;
}

void print_ledger_matrix(std::FILE* out, const char* title, const std::vector<LedgerRow>& rows) {
  std::vector<std::size_t> cols;
  for (std::size_t i = 0; i < kCategoryCount; ++i)
    for (const LedgerRow& r : rows)
      if (r.ps[i] != 0) {
        cols.push_back(i);
        break;
      }
  std::fprintf(out, "%s\n", title);
  std::fprintf(out, " %-8s", "#bytes");
  for (std::size_t i : cols) std::fprintf(out, " %10s", std::string(category_name(kAllCategories[i])).c_str());
  std::fprintf(out, " %10s\n", "total");
  for (const LedgerRow& r : rows) {
    std::fprintf(out, " %-8" PRId64, r.size.count());
    for (std::size_t i : cols) std::fprintf(out, " %10.3f", r.ps[i] / 1e6);
    std::fprintf(out, " %10.3f\n", r.total_ps / 1e6);
  }
  std::fprintf(out, "%s", kResultLine);
}

void print_critical_path(std::FILE* out, const BudgetResult& b) {
  std::fprintf(out, " Critical path of one exchange (%s), stage by stage:\n", b.rtt_factor == 2 ? "there and back" : "round trip");
  std::fprintf(out, " %-40s %-10s %12s %14s\n", "stage", "category", "t[usec]", "cumulative");
  Time sum{};
  for (const StageLine& s : b.critical_path) {
    sum += s.time;
    std::fprintf(out, " %-40s %-10s %12.4f %14.4f\n", s.label.c_str(), std::string(category_name(s.cat)).c_str(),
                 s.time.to_us(), sum.to_us());
  }
  std::fprintf(out, "%s", kResultLine);
}

void print_budget(std::FILE* out, const BudgetResult& b) {
  const LatConfig& c = b.config;
  const double q = b.rtt_factor;
  const double total = b.reported_ps;
  std::fprintf(out, "%s", kResultLine);
  std::fprintf(out, " Latency budget (closed form): %s %s, %" PRId64 " B, %s, profile %s\n",
               std::string(to_string(c.transport)).c_str(), std::string(to_string(c.test)).c_str(), c.size.count(),
               c.transport == Transport::tcp ? "ethernet" : std::string(to_string(c.link_layer)).c_str(),
               c.profile.name.c_str());
  std::fprintf(out, " Reported as %s, like perftest; compare with `rdmasim lat` t_typical\n",
               b.rtt_factor == 2 ? "RTT/2" : "RTT");
  for (const std::string& route : b.routes) std::fprintf(out, " route: %s\n", route.c_str());
  std::fprintf(out, "%s", kResultLine);
  std::fprintf(out, " %-12s %12s %8s\n", "category", "t[usec]", "share");
  auto row = [&](const char* name, Time t, int indent) {
    const double v = static_cast<double>(t.count_ps()) / q;
    std::fprintf(out, " %*s%-*s %12.3f %7.1f%%\n", indent, "", 12 - indent, name, v / 1e6, share(v, total));
  };
  for (Category k : {Category::queue, Category::transmit, Category::propagate})
    row(std::string(category_name(k)).c_str(), b.rtt[k], 0);
  row("process", b.rtt.process(), 0);
  for (Category k : kAllCategories)
    if (is_process(k) && b.rtt[k] != Time::zero()) row(std::string(category_name(k)).c_str(), b.rtt[k], 2);
  std::fprintf(out, " %-12s %12.3f %7.1f%%   (%" PRId64 " ps)\n", "total", total / 1e6, 100.0,
               static_cast<std::int64_t>(total));
  std::fprintf(out, "%s", kResultLine);
  std::fprintf(out, " The textbook formulas with these parameters (one direction):\n");
  std::fprintf(out, "   L_e2e = L_queue + S/B + D/v + L_process\n");
  std::fprintf(out, "   S/B   = %" PRId64 " B on the wire / %s = %.3f usec\n", b.message_wire_bytes.count(),
               format_rate(c.profile.link.rate).c_str(), b.formula_transmit.to_us());
  std::fprintf(out, "   D/v   = %.3f m / %" PRId64 " m/s = %.3f usec\n",
               static_cast<double>(c.profile.link.length_mm) / 1000.0, c.profile.link.velocity_mps,
               b.formula_propagate.to_us());
  std::fprintf(out, "   2 L_kernel (kernel bypass saves) = %.3f + %.3f = %.3f usec\n", b.kernel_tx.to_us(),
               b.kernel_rx.to_us(), (b.kernel_tx + b.kernel_rx).to_us());
  std::fprintf(out, "   T_saved = (n-1)(T_copy + T_switch) = (%d-1)(%.3f + %.3f) = %.3f usec\n", b.copies_n,
               b.copy_one.to_us(), b.switch_one.to_us(), b.zero_copy_saving.to_us());
  std::fprintf(out, "     (the formula's estimate; the model's --zero-copy off adds host.tx_copies + host.rx_copies\n"
                    "      copies and no syscalls, so compare the ledgers of `lat --zero-copy on|off`)\n");
  std::fprintf(out, "%s", kResultLine);
}

}  // namespace rdmasim

namespace rdmasim {

void print_bw_table(std::FILE* out, const std::vector<BwResult>& rows, bool gbits) {
  static constexpr const char* kFmt = " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]";
  static constexpr const char* kFmtG = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";
  std::fprintf(out, "%s\n", gbits ? kFmtG : kFmt);
  const double factor = gbits ? 1e9 : 8.0 * 1048576.0;  // bits per reported unit
  for (const BwResult& r : rows) {
    const double peak = r.bw_peak_bps / factor, avg = r.bw_avg_bps / factor;
    // #iterations: per QP as given (perftest), or with -D the messages counted in the window.
    const std::int64_t iters = r.config.duration > Time::zero() ? r.completed : r.config.base.iters;
    if (gbits && avg < 1.0)
      std::fprintf(out, " %-7" PRId64 "    %" PRId64 "           %-7.6f            %-7.6f            %-7.6f",
                   r.config.base.size.count(), iters, peak, avg, r.msg_rate_mpps);
    else
      std::fprintf(out, " %-7" PRId64 "    %-10" PRId64 "       %-7.2f            %-7.2f\t\t     %-7.6f",
                   r.config.base.size.count(), iters, peak, avg, r.msg_rate_mpps);
    std::fprintf(out, "\n");
  }
  std::fprintf(out, "%s", kResultLine);
  std::fprintf(out, " Goodput vs the bottleneck link's ideal (B x payload / bytes on the wire):\n");
  std::fprintf(out, " %-8s %10s %12s %14s %14s %8s\n", "#bytes", "packets", "wire bytes", "ideal[Gb/s]",
               "average[Gb/s]", "of ideal");
  for (const BwResult& r : rows)
    std::fprintf(out, " %-8" PRId64 " %10d %12" PRId64 " %14.3f %14.3f %7.2f%%\n", r.config.base.size.count(),
                 r.packets_per_message, r.wire_bytes_per_message.count(), r.ideal_bps / 1e9, r.bw_avg_bps / 1e9,
                 100.0 * r.bw_avg_bps / r.ideal_bps);
  std::fprintf(out, "%s", kResultLine);
}

void print_completion_error(std::FILE* out, const BwConfig& b, const BwResult& r) {
  const RcStats& rc = *r.rc;
  // ibv_wc_status: 12 IBV_WC_RETRY_EXC_ERR, 13 IBV_WC_RNR_RETRY_EXC_ERR (the vendor syndrome is illustrative).
  const bool rnr = rc.status == "RNR_RETRY_EXC_ERR";
  std::fprintf(out, " Completion with error at client\n Failed status %d: wr_id 0 syndrom 0x%x\n", rnr ? 13 : 12,
               rnr ? 0x82 : 0x81);
  std::fprintf(out, " scnt=%lld, ccnt=%lld\n", static_cast<long long>(std::min<std::int64_t>(b.base.iters, b.tx_depth)),
               static_cast<long long>(r.completed));
  print_rc_stats(out, rc);
  if (r.fabric) print_fabric_stats(out, *r.fabric);
}

void print_batching(std::FILE* out, const std::vector<BwResult>& rows) {
  const BwConfig& c = rows.front().config;
  std::fprintf(out, " Batching: post list %d (one doorbell and one WQE fetch per list), cq-mod %d (%s)\n", c.post_list,
               c.cq_mod, c.cq_mod == 1 ? "every WQE signaled" : ("one WQE in " + std::to_string(c.cq_mod) + " signaled").c_str());
  std::fprintf(out, " Client cost per message: busy time of host A's servers / messages, nsec\n");
  std::fprintf(out, " %-8s %10s %10s %10s %10s %10s %10s %10s %12s\n", "#bytes", "doorbells", "CQEs", "cpu", "pcie_down",
               "pcie_up", "wire", "nic engine", "bound[Mpps]");
  for (const BwResult& r : rows)
    std::fprintf(out, " %-8" PRId64 " %10" PRId64 " %10" PRId64 " %10.3f %10.3f %10.3f %10.3f %10.3f %12.6f\n",
                 r.config.base.size.count(), r.lists, r.signaled, r.cost.cpu_ps / 1e3, r.cost.pcie_down_ps / 1e3,
                 r.cost.pcie_up_ps / 1e3, r.cost.wire_ps / 1e3, r.cost.engine_ps / 1e3, r.cost.bound_mpps());
  const BwResult& r = rows.back();
  if (r.completed > 0) {
    std::fprintf(out, " Latency ledger of a WQE from its list's post to its completion (mean usec, %" PRId64 " B)\n",
                 r.config.base.size.count());
    for (Category cat : kAllCategories) {
      const double us = static_cast<double>(r.wqe_ledger_sum[cat].count_ps()) / static_cast<double>(r.completed) / 1e6;
      if (r.wqe_ledger_sum[cat] != Time::zero()) std::fprintf(out, "   %-12s %10.3f\n", std::string(category_name(cat)).c_str(), us);
    }
    std::fprintf(out, "   %-12s %10.3f\n", "total",
                 static_cast<double>(r.wqe_ledger_sum.total().count_ps()) / static_cast<double>(r.completed) / 1e6);
  }
  std::fprintf(out, "%s", kResultLine);
}

void print_bw_connections_and_receiver(std::FILE* out, const std::vector<BwResult>& rows) {
  const BwResult& r = rows.back();
  const ConnConfig& cc = r.config.base.conn;
  if (r.connections > 0 && r.completed > 0)
    std::fprintf(out,
                 " Connections: %lld set up in the timed loop (one per %lld messages), L_setup %.3f usec each; "
                 "mean setup per message %.3f usec (ledger `setup`)\n",
                 static_cast<long long>(r.connections), static_cast<long long>(cc.reuse), r.setup.to_us(),
                 static_cast<double>(r.wqe_ledger_sum[Category::setup].count_ps()) / static_cast<double>(r.completed) / 1e6);
  else if (cc.pool)
    std::fprintf(out, " Connections: QP pool, pre-built outside the timed loop (L_setup %.3f usec each, not timed)\n",
                 r.setup.to_us());
  if (r.rx_completed > 0) {
    std::fprintf(out, " Receiver: %lld messages completed by its application, BW average %.2f Gb/s; mean usec from post:",
                 static_cast<long long>(r.rx_completed), r.rx_bw_avg_bps / 1e9);
    for (Category cat : kAllCategories)
      if (r.rx_ledger_sum[cat] != Time::zero())
        std::fprintf(out, " %s %.3f", std::string(category_name(cat)).c_str(),
                     static_cast<double>(r.rx_ledger_sum[cat].count_ps()) / static_cast<double>(r.rx_completed) / 1e6);
    std::fprintf(out, "\n");
  }
}

}  // namespace rdmasim
