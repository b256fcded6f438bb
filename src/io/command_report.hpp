// What `lat`, `budget` and `bw` (two hosts or a --pattern) print after their runs: the
// perftest-style tables in order, or the one JSON document that replaces them. `hop` is the
// run's export statistics when --hop-ledger asked for the per-hop ledger, else null.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "rdmasim/bandwidth.hpp"
#include "rdmasim/exports.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/traffic.hpp"

namespace rdmasim {

nlohmann::ordered_json lat_report_json(const std::vector<LatResult>& rows, const ExportStats* hop);
void print_lat_report(std::FILE* out, const std::vector<LatResult>& rows, const ExportStats* hop);

/// One size: the budget, its critical path with `stages`, and the go-back-N estimate under loss.
nlohmann::ordered_json budget_report_json(const BudgetResult& b);
void print_budget_report(std::FILE* out, const BudgetResult& b, bool stages);
/// Several sizes (-a): one ledger row per size.
nlohmann::ordered_json budget_sizes_json(const std::vector<BudgetResult>& rows);
void print_budget_sizes(std::FILE* out, const std::vector<BudgetResult>& rows);

nlohmann::ordered_json bw_report_json(const BwConfig& b, const std::vector<BwResult>& rows, const ExportStats* hop);
void print_bw_report(std::FILE* out, const BwConfig& b, const std::vector<BwResult>& rows, bool gbits,
                     const ExportStats* hop);

nlohmann::ordered_json traffic_report_json(const TrafficResult& r, const ExportStats* hop);
void print_traffic_report(std::FILE* out, const TrafficResult& r, const ExportStats* hop);

}  // namespace rdmasim
