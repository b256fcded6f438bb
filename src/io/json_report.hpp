// JSON output of latency and bandwidth runs and budgets. Keys in a fixed order (nlohmann::ordered_json) and
// only deterministic values, so the same scenario and seed give byte-identical output.
// perftest's --out_json keys (MsgSize, n_iterations, t_min, ...; 2 decimals) are kept, with
// exact picosecond values and the ledger beside them.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rdmasim/bandwidth.hpp"
#include "rdmasim/latency.hpp"

namespace rdmasim {

/// The version of every JSON document rdmasim writes (docs/json.md); raised when a key changes
/// meaning or goes away (added keys keep it).
inline constexpr int kJsonSchemaVersion = 2;
/// A command's --json document: an object gets "schema_version" as its first key, an array
/// becomes {"schema_version": N, "rows": [...]}.
nlohmann::ordered_json versioned(nlohmann::ordered_json body);

nlohmann::ordered_json lat_json(const std::vector<LatResult>& rows);
nlohmann::ordered_json budget_json(const BudgetResult& b);
nlohmann::ordered_json config_json(const LatConfig& c, const ResolvedToggles& t);
/// `bw`'s document: the configuration, a row per size (directions, connections, receiver,
/// batching where they apply), then the last size's fabric, RC, TCP and host counters.
nlohmann::ordered_json bw_json(const BwConfig& b, const std::vector<BwResult>& rows);

}  // namespace rdmasim
