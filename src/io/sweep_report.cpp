#include "io/sweep_report.hpp"

#include <cmath>
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
