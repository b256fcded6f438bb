// JSON output of latency runs and budgets. Keys in a fixed order (nlohmann::ordered_json) and
// only deterministic values, so the same scenario and seed give byte-identical output.
// perftest's --out_json keys (MsgSize, n_iterations, t_min, ...; 2 decimals) are kept, with
// exact picosecond values and the ledger beside them.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rdmasim/latency.hpp"

namespace rdmasim {

nlohmann::ordered_json lat_json(const std::vector<LatResult>& rows);
nlohmann::ordered_json budget_json(const BudgetResult& b);
nlohmann::ordered_json config_json(const LatConfig& c, const ResolvedToggles& t);

}  // namespace rdmasim
