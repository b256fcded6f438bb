#include "io/nccl_report.hpp"

#include <cinttypes>
#include <cstring>

namespace rdmasim {

std::string nccl_float(double v, int width) {
  char buf[64];
  for (int prec = 2; prec >= 0; --prec) {
    std::snprintf(buf, sizeof buf, "%*.*f", width, prec, v);
    if (static_cast<int>(std::strlen(buf)) <= width) return buf;
  }
  std::snprintf(buf, sizeof buf, "%*.1e", width, v);
  if (static_cast<int>(std::strlen(buf)) <= width) return buf;
  std::snprintf(buf, sizeof buf, "%*.0e", width, v);
  return buf;
}

std::string nccl_time(double us) {
  char buf[64];
  std::snprintf(buf, sizeof buf, us >= 10000.0 ? "%7.0f" : us >= 100.0 ? "%7.1f" : "%7.2f", us);
  return buf;
}

void print_collective(std::FILE* out, const CollectiveResult& r) {
  const CollectiveConfig& c = r.config;
  const CollOpInfo& op = coll_op_info(c.op);
  const std::string program(op.program), redop(op.redop);
  std::fprintf(out, "# rdmasim %.*s: %s on %s, %d %s x %d GPUs, GPUDirect RDMA %s\n", static_cast<int>(op.name.size()),
               op.name.data(), c.algo.c_str(), c.base.fabric.topology.c_str(), c.nodes, r.servers ? "servers" : "hosts", c.gpus,
               c.gpudirect ? "on" : "off (staged through host memory)");
  std::fprintf(out, "# Collective test starting: %s\n", program.c_str());
  std::fprintf(out,
               "# nThread 1 nGpus %d minBytes %" PRId64 " maxBytes %" PRId64 " step: %" PRId64
               "(factor) warmup iters: %d iters: %d agg iters: 1 validation: %d graph: 0 unalign: 0\n",
               c.gpus, c.min_bytes, c.max_bytes, c.step_factor, c.warmup, c.iters, c.check ? 1 : 0);
  std::fprintf(out, "#\n# Using devices\n");
  for (int rank = 0; rank < r.ranks; ++rank) {
    const std::string host = (r.servers ? "s" : "h") + std::to_string(rank / c.gpus);
    std::fprintf(out, "#  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s\n", rank, 0,
                 1000 + rank / c.gpus, host.c_str(), rank % c.gpus, 0, 0x10 + rank % c.gpus, 0, "rdmasim GPU");
  }
  std::fprintf(out, "#\n");
  std::fprintf(out, "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          \n", "", "",
               "", "", "");
  std::fprintf(out, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s\n", "size", "count", "type",
               "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong");
  std::fprintf(out, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s\n", "(B)", "(elements)", "", "",
               "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
  for (const CollectiveRow& row : r.rows) {
    std::fprintf(out, "%12" PRId64 "  %12" PRId64 "  %8s  %6s  %6i", row.bytes, row.count, "float", redop.c_str(), op.root);
    for (int placement = 0; placement < 2; ++placement)
      if (row.wrong < 0)  // -c 0: nccl-tests prints N/A
        std::fprintf(out, "  %7s  %6s  %6s %6s", nccl_time(row.time_us).c_str(), nccl_float(row.algbw_gbs, 6).c_str(),
                     nccl_float(row.busbw_gbs, 6).c_str(), "N/A");
      else
        std::fprintf(out, "  %7s  %6s  %6s %6g", nccl_time(row.time_us).c_str(), nccl_float(row.algbw_gbs, 6).c_str(),
                     nccl_float(row.busbw_gbs, 6).c_str(), static_cast<double>(row.wrong));
    std::fprintf(out, "\n");
  }
  std::fprintf(out, "# %-20s : %d %s\n", "Out of bounds values", static_cast<int>(r.wrong), r.wrong == 0 ? "OK" : "FAILED");
  std::fprintf(out, "# %-20s : %g \n", "Avg bus bandwidth", r.avg_busbw_gbs);
  std::fprintf(out, "#\n");
  const CollectiveRow& last = r.rows.back();
  std::fprintf(out,
               "# rdmasim: %" PRId64 " bytes: %" PRId64 " steps per rank, %" PRId64
               " bytes sent by rank 0 (%s = %.1f), link goodput %.2f GB/s",
               last.bytes, last.steps, last.bytes_sent.front(), std::string(op.bytes_formula).c_str(),
               bus_factor(c.op, r.ranks) * static_cast<double>(last.bytes), r.link_goodput_gbs);
  if (!c.gpudirect) std::fprintf(out, ", staging copies %.3f us per rank", last.staging_per_rank.to_us());
  std::fprintf(out, "\n# rdmasim: critical path per iteration (us):");
  const double iters = c.iters;
  const auto part = [&](const char* name, Time t, bool& first) {
    if (t == Time::zero()) return;
    std::fprintf(out, "%s%s %.3f", first ? "" : ", ", name, t.to_us() / iters);
    first = false;
  };
  std::fprintf(out, " ");
  bool first = true;
  part("nvlink", last.ledger.nvlink, first);
  part("nvlink wait", last.ledger.nvlink_wait, first);
  part("peer copy", last.ledger.peer_copy, first);
  part("network", last.ledger.network.total(), first);
  if (last.ledger.network.total() != Time::zero()) {
    std::fprintf(out, " (");
    bool inner = true;
    for (Category k : kAllCategories) part(std::string(category_name(k)).c_str(), last.ledger.network[k], inner);
    std::fprintf(out, ")");
  }
  std::fprintf(out, "\n#\n# Collective test concluded: %s\n#\n", program.c_str());
}

namespace {
// The critical path's parts per iteration, in us (nonzero network categories only).
nlohmann::ordered_json collective_ledger_json(const CollectiveLedger& l, int iters) {
  nlohmann::ordered_json j{{"nvlink", l.nvlink.to_us() / iters},
                           {"nvlink_wait", l.nvlink_wait.to_us() / iters},
                           {"peer_copy", l.peer_copy.to_us() / iters},
                           {"network", l.network.total().to_us() / iters}};
  nlohmann::ordered_json net = nlohmann::ordered_json::object();
  for (Category k : kAllCategories)
    if (l.network[k] != Time::zero()) net[std::string(category_name(k))] = l.network[k].to_us() / iters;
  j["network_by_category"] = net;
  return j;
}
}  // namespace

nlohmann::ordered_json collective_json(const CollectiveResult& r) {
  nlohmann::ordered_json j;
  const CollectiveConfig& c = r.config;
  j["config"] = {{"collective", std::string(coll_op_info(c.op).name)}, {"algo", c.algo}, {"topology", c.base.fabric.topology}, {"nodes", c.nodes},
                 {"gpus", c.gpus},   {"ranks", r.ranks},  {"gpudirect", c.gpudirect},
                 {"min_bytes", c.min_bytes}, {"max_bytes", c.max_bytes}, {"step_factor", c.step_factor},
                 {"iters", c.iters}, {"warmup", c.warmup}, {"mtu", c.base.mtu.count()}};
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const CollectiveRow& row : r.rows)
    rows.push_back({{"size", row.bytes},
                    {"count", row.count},
                    {"type", "float"},
                    {"redop", std::string(coll_op_info(c.op).redop)},
                    {"root", coll_op_info(c.op).root},
                    {"time_us", row.time_us},
                    {"algbw_GBps", row.algbw_gbs},
                    {"busbw_GBps", row.busbw_gbs},
                    {"wrong", row.wrong < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(row.wrong)},
                    {"steps", row.steps},
                    {"bytes_sent_per_rank", row.bytes_sent.front()},
                    {"staging_us_per_rank", row.staging_per_rank.to_us()},
                    {"events", row.events},
                    {"critical_path_us", collective_ledger_json(row.ledger, c.iters)}});
  j["results"] = rows;
  j["avg_busbw_GBps"] = r.avg_busbw_gbs;
  j["out_of_bounds"] = r.wrong;
  j["link_goodput_GBps"] = r.link_goodput_gbs;
  return j;
}

}  // namespace rdmasim
