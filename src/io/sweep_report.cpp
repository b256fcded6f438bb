#include "io/sweep_report.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <nlohmann/json.hpp>

#include "core/number_text.hpp"
#include "io/json_report.hpp"

namespace rdmasim {
void print_compare(std::FILE* out, const std::vector<std::string>& names, const std::vector<std::vector<Metric>>& cols) {
  if (cols.empty()) return;
  // The schemes by number with their whole names, then one column each: the value, and beside
  // every scheme after the first its change against the first, aligned at the decimal point.
  for (std::size_t i = 0; i < names.size(); ++i) std::fprintf(out, " [%zu] %s\n", i + 1, names[i].c_str());
  std::fprintf(out, " %-26s", "metric");
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string head = "[" + std::to_string(i + 1) + "]";
    if (i == 0) std::fprintf(out, " %14s", head.c_str());
    else std::fprintf(out, " %14s %10s", head.c_str(), "vs [1]");
  }
  std::fprintf(out, "\n");
  for (std::size_t r = 0; r < cols[0].size(); ++r) {
    const double first = cols[0][r].value;
    bool any = false;
    for (const auto& c : cols) any = any || c[r].value != 0;
    if (!any) continue;  // a ledger category nobody uses
    std::fprintf(out, " %-26s", cols[0][r].name.c_str());
    for (std::size_t i = 0; i < cols.size(); ++i) {
      const double v = cols[i][r].value;
      std::fprintf(out, " %14.3f", v);
      if (i == 0) continue;
      char change[32] = "";
      if (first != 0) std::snprintf(change, sizeof change, "%+.1f%%", 100.0 * (v - first) / std::fabs(first));
      std::fprintf(out, " %10s", change);
    }
    std::fprintf(out, "\n");
  }
}

std::string sweep_csv(const SweepTable& t) {
  std::string out;
  for (const std::string& p : t.params) out += p + ",";
  if (!t.rows.empty())
    for (std::size_t i = 0; i < t.rows[0].size(); ++i) out += t.rows[0][i].name + (i + 1 < t.rows[0].size() ? "," : "");
  out += "\n";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    for (const std::string& v : t.rows_params[r]) out += (v.find(',') != std::string::npos ? "\"" + v + "\"" : v) + ",";
    for (std::size_t i = 0; i < t.rows[r].size(); ++i) out += number_text(t.rows[r][i].value) + (i + 1 < t.rows[r].size() ? "," : "");
    out += "\n";
  }
  return out;
}

std::string sweep_json(const SweepTable& t) {
  nlohmann::ordered_json j;
  j["schema_version"] = kJsonSchemaVersion;
  j["params"] = t.params;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    nlohmann::ordered_json row;
    for (std::size_t k = 0; k < t.params.size(); ++k) row[t.params[k]] = t.rows_params[r][k];
    for (const Metric& m : t.rows[r]) row[m.name] = m.value;
    if (r < t.failures.size() && !t.failures[r].empty()) row["failure"] = t.failures[r];
    rows.push_back(std::move(row));
  }
  j["rows"] = rows;
  return j.dump(2) + "\n";
}

std::string sweep_part_json(const SweepTable& t, config::SweepShard shard, const std::string& fingerprint) {
  nlohmann::ordered_json j;
  j["schema_version"] = kJsonSchemaVersion;
  j["sweep_part"] = {{"shard", shard.part + 1}, {"shards", shard.count}, {"points", t.points},
                     {"fingerprint", fingerprint}, {"params", t.params}};
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    for (const Metric& m : t.rows[r]) {  // %.17g: the exact double, NaN and infinities included
      char v[32];
      std::snprintf(v, sizeof v, "%.17g", m.value);
      metrics[m.name] = v;
    }
    rows.push_back({{"index", t.index[r]}, {"values", t.rows_params[r]}, {"metrics", std::move(metrics)},
                    {"failure", r < t.failures.size() ? t.failures[r] : ""}});
  }
  j["rows"] = std::move(rows);
  return j.dump(2) + "\n";
}

SweepTable merge_sweep_parts(const std::vector<std::pair<std::string, std::string>>& parts) {
  if (parts.empty()) throw std::invalid_argument("merge: no part files");
  SweepTable t;
  std::string fingerprint;
  int shards = 0;
  std::vector<std::string> seen_shard;  // per shard: the file that gave it
  struct Row {
    std::vector<std::string> values;
    std::vector<Metric> metrics;
    std::string failure;
    bool set = false;
  };
  std::vector<Row> rows;
  for (const auto& part : parts) {
    const std::string& name = part.first;  // (not a structured binding: clang 14 cannot capture one)
    const std::string& text = part.second;
    const auto bad = [&name](const std::string& why) { return std::invalid_argument(name + ": " + why); };
    nlohmann::ordered_json j;
    try {
      j = nlohmann::ordered_json::parse(text);
    } catch (const nlohmann::json::exception& e) {
      throw bad(std::string("not a sweep part (invalid JSON: ") + e.what() + ")");
    }
    if (!j.is_object() || !j.contains("sweep_part") || !j.contains("rows"))
      throw bad("not a sweep part (write one with `rdmasim sweep --shard I/N -o FILE`)");
    if (j.value("schema_version", 0) != kJsonSchemaVersion)
      throw bad("written by another rdmasim (schema_version " + j["schema_version"].dump() + ", this one " +
                std::to_string(kJsonSchemaVersion) + ")");
    try {
      const auto& p = j.at("sweep_part");
      const int shard = p.at("shard").get<int>(), count = p.at("shards").get<int>();
      if (fingerprint.empty()) {
        fingerprint = p.at("fingerprint").get<std::string>();
        shards = count;
        t.points = p.at("points").get<std::size_t>();
        t.params = p.at("params").get<std::vector<std::string>>();
        if (t.points > 100'000 || shards < 1 || shards > 100'000)
          throw bad("not a sweep part (points or shards out of range)");
        seen_shard.assign(static_cast<std::size_t>(shards), "");
        rows.assign(t.points, {});
      } else if (p.at("fingerprint").get<std::string>() != fingerprint || count != shards ||
                 p.at("points").get<std::size_t>() != t.points) {
        throw bad("a part of another sweep (its scenario, parameters or shard count differ from " + parts.front().first +
                  "'s)");
      }
      if (shard < 1 || shard > shards) throw bad("shard " + std::to_string(shard) + " of " + std::to_string(shards));
      std::string& first = seen_shard[static_cast<std::size_t>(shard - 1)];
      if (!first.empty()) throw bad("shard " + std::to_string(shard) + "/" + std::to_string(shards) + " again (also " + first + ")");
      first = name;
      for (const auto& r : j.at("rows")) {
        const std::size_t i = r.at("index").get<std::size_t>();
        if (i >= t.points || i % static_cast<std::size_t>(shards) != static_cast<std::size_t>(shard - 1) || rows[i].set)
          throw bad("row " + std::to_string(i) + " does not belong to shard " + std::to_string(shard));
        Row& row = rows[i];
        row.set = true;
        row.values = r.at("values").get<std::vector<std::string>>();
        for (const auto& [k, v] : r.at("metrics").items())
          row.metrics.push_back({k, std::strtod(v.get<std::string>().c_str(), nullptr)});
        row.failure = r.at("failure").get<std::string>();
      }
    } catch (const nlohmann::json::exception& e) {
      throw bad(std::string("not a sweep part (") + e.what() + ")");
    }
  }
  for (int s = 0; s < shards; ++s)
    if (seen_shard[static_cast<std::size_t>(s)].empty())
      throw std::invalid_argument("merge: shard " + std::to_string(s + 1) + "/" + std::to_string(shards) + " is missing");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].set) throw std::invalid_argument("merge: combination " + std::to_string(i) + " is missing from its shard");
    t.index.push_back(i);
    t.rows_params.push_back(std::move(rows[i].values));
    t.rows.push_back(std::move(rows[i].metrics));
    t.failures.push_back(std::move(rows[i].failure));
  }
  return t;
}

nlohmann::ordered_json compare_json(const std::vector<std::string>& names, const std::vector<std::vector<Metric>>& cols,
                                    const std::vector<std::string>& failures) {
  nlohmann::ordered_json j;
  j["schema_version"] = kJsonSchemaVersion;
  nlohmann::ordered_json arr = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < cols.size(); ++i) {
    nlohmann::ordered_json c;
    c["name"] = names[i];
    for (const Metric& m : cols[i]) c[m.name] = m.value;
    if (!failures[i].empty()) c["failure"] = failures[i];
    arr.push_back(std::move(c));
  }
  j["schemes"] = arr;
  return j;
}

}  // namespace rdmasim
