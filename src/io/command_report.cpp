#include "io/command_report.hpp"

#include <optional>

#include "io/hop_report.hpp"
#include "io/host_report.hpp"
#include "io/json_report.hpp"
#include "io/loss_report.hpp"
#include "io/perftest_report.hpp"
#include "io/traffic_report.hpp"
#include "model/loss_budget.hpp"

namespace rdmasim {
namespace {

// A latency test's hop ledger is per exchange: WRITE/SEND there and back (two traced messages,
// 2 x t_avg), READ one round trip (t_avg).
HopUnit lat_hop_unit(const LatResult& r) {
  return r.rtt_factor == 2 ? HopUnit{"exchange (there and back: 2 x t_avg)", 2} : HopUnit{"exchange (t_avg)", 1};
}

std::optional<GbnEstimate> go_back_n(const BudgetResult& b) {
  if (b.config.fabric.loss > 0) return estimate_go_back_n(b.config, b.config.fabric.loss);
  return std::nullopt;
}

}  // namespace

nlohmann::ordered_json lat_report_json(const std::vector<LatResult>& rows, const ExportStats* hop) {
  nlohmann::ordered_json j = lat_json(rows);
  if (hop) j["hop_ledger"] = hop_ledger_json(*hop, lat_hop_unit(rows.front()));
  return j;
}

namespace {
// One run's CPU accounting; with several sizes (-a), a row per size over its own run.
template <typename Row, typename SizeOf>
void print_cpu_accounting(std::FILE* out, const std::vector<Row>& rows, SizeOf size_of) {
  if (rows.size() == 1) return print_host_counters(out, rows.front().hosts, rows.front().simulated);
  std::vector<SizeCounters> per_size;
  for (const Row& r : rows) per_size.push_back({size_of(r), r.hosts, r.simulated});
  print_host_counters_per_size(out, per_size);
}
}  // namespace

void print_lat_report(std::FILE* out, const std::vector<LatResult>& rows, const ExportStats* hop) {
  print_lat_header(out, rows.front());
  print_data_path(out, rows.front().config, rows.front().toggles);
  print_lat_table(out, rows);
  if (rows.size() == 1)
    print_ledger(out, rows.front());
  else
    print_ledger_matrix(out, " Latency ledger per size: mean usec of the kept samples, columns add up to t_avg",
                        ledger_rows(rows));
  if (hop) print_hop_ledger(out, *hop, lat_hop_unit(rows.front()));
  print_connections(out, rows.back());
  print_cpu_accounting(out, rows, [](const LatResult& r) { return r.config.size; });
}

nlohmann::ordered_json budget_report_json(const BudgetResult& b) {
  nlohmann::ordered_json j = budget_json(b);
  if (const auto gbn = go_back_n(b)) j["go_back_n"] = go_back_n_json(*gbn);
  return j;
}

void print_budget_report(std::FILE* out, const BudgetResult& b, bool stages) {
  const auto gbn = go_back_n(b);  // may refuse the size: before anything is printed
  print_budget(out, b);
  if (stages) print_critical_path(out, b);
  if (gbn) print_go_back_n(out, *gbn, b.config.profile.rc.timeout);
}

nlohmann::ordered_json budget_sizes_json(const std::vector<BudgetResult>& rows) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const BudgetResult& b : rows) j.push_back(budget_json(b));
  return j;
}

void print_budget_sizes(std::FILE* out, const std::vector<BudgetResult>& rows) {
  std::vector<LedgerRow> table;
  for (const BudgetResult& b : rows) table.push_back(ledger_row(b));
  print_ledger_matrix(out, " Latency budget per size (closed form), usec, columns add up to the total", table);
}

nlohmann::ordered_json bw_report_json(const BwConfig& b, const std::vector<BwResult>& rows, const ExportStats* hop) {
  nlohmann::ordered_json j = bw_json(b, rows);
  if (hop) j["hop_ledger"] = hop_ledger_json(*hop, {});
  return j;
}

void print_bw_report(std::FILE* out, const BwConfig& b, const std::vector<BwResult>& rows, bool gbits,
                     const ExportStats* hop) {
  print_test_header(out, b.base, resolve(b.base), rows.front().routes, "BW", b.tx_depth, b.qps, b.bidirectional,
                    b.outstanding_reads, b.cq_mod);
  print_data_path(out, b.base, resolve(b.base));
  print_bw_table(out, rows, gbits);
  if (b.post_list > 1 || b.cq_mod > 1) print_batching(out, rows);
  print_bw_connections_and_receiver(out, rows);
  if (hop) print_hop_ledger(out, *hop, {});
  print_cpu_accounting(out, rows, [](const BwResult& r) { return r.config.base.size; });
  if (rows.back().rc) print_rc_stats(out, *rows.back().rc);
  if (rows.back().tcp) print_tcp_stats(out, *rows.back().tcp);
  if (rows.back().fabric) print_fabric_stats(out, *rows.back().fabric);
}

nlohmann::ordered_json traffic_report_json(const TrafficResult& r, const ExportStats* hop) {
  nlohmann::ordered_json j = traffic_json(r);
  if (hop) j["hop_ledger"] = hop_ledger_json(*hop, {});
  return j;
}

void print_traffic_report(std::FILE* out, const TrafficResult& r, const ExportStats* hop) {
  print_traffic(out, r);
  if (hop) print_hop_ledger(out, *hop, {});
}

}  // namespace rdmasim
