// The tables of `rdmasim compare` and `rdmasim sweep`: a column per scheme with deltas against
// the first; a sweep's rows as CSV or JSON (numbers in shortest round-trip form).
#pragma once

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>
#include <vector>

#include "config/scenario_runs.hpp"

namespace rdmasim {

using config::SweepTable;

/// The comparison table: a column per scheme (its name), a row per metric, deltas vs column 1.
void print_compare(std::FILE* out, const std::vector<std::string>& names, const std::vector<std::vector<Metric>>& cols);
/// `compare --json`: {"schema_version", "schemes": [{"name", <metric>: value..., "failure"?}]}.
nlohmann::ordered_json compare_json(const std::vector<std::string>& names, const std::vector<std::vector<Metric>>& cols,
                                    const std::vector<std::string>& failures);

std::string sweep_csv(const SweepTable& t);
std::string sweep_json(const SweepTable& t);

}  // namespace rdmasim
