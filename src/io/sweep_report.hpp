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

/// `sweep --shard I/N`'s part file (JSON): the shard, the sweep's fingerprint, points and keys,
/// and each of its rows with its combination's number.
std::string sweep_part_json(const SweepTable& t, config::SweepShard shard, const std::string& fingerprint);
/// `rdmasim merge`: the parts of one sweep (file name, text) joined into its whole table, the
/// rows in the product's order, exactly as `sweep -j 1` makes it. Throws std::invalid_argument
/// naming the file for a part of another sweep, a shard given twice or missing, or a bad file.
SweepTable merge_sweep_parts(const std::vector<std::pair<std::string, std::string>>& parts);

}  // namespace rdmasim
