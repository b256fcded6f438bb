#include "config/validation.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <stdexcept>
#include <toml++/toml.h>

#include "config/scenario_runs.hpp"
#include "config/options.hpp"

namespace rdmasim::config {
namespace {

template <typename T>
T field(const toml::table& t, const std::string& where, const char* key, bool required) {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) throw std::invalid_argument(where + ": missing \"" + key + "\"");
    return T{};
  }
  if constexpr (std::is_same_v<T, double>) {
    if (const auto v = n->value<double>()) return *v;
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (const auto v = n->value<std::string>()) return *v;
  } else {
    if (const toml::array* a = n->as_array()) {
      T out;
      for (const toml::node& x : *a) {
        const auto v = x.value<std::string>();
        if (!v) throw std::invalid_argument(where + ": \"" + key + "\" must be a list of strings");
        out.push_back(*v);
      }
      return out;
    }
  }
  throw std::invalid_argument(where + ": \"" + key + "\" has the wrong type");
}

}  // namespace

std::vector<ValidationPoint> load_validation(const std::string& path) {
  const std::optional<std::string> text = read_text_file(path);
  if (!text) throw std::invalid_argument(path + ": cannot read the validation list");
  toml::table doc;
  try {
    doc = toml::parse(*text, std::string_view(path));
  } catch (const toml::parse_error& e) {
    throw std::invalid_argument(path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  for (const auto& [k, v] : doc)
    if (k != "point") throw std::invalid_argument(path + ": unknown key \"" + std::string(k.str()) + "\" (expected [[point]])");
  const toml::array* arr = doc["point"].as_array();
  if (!arr) throw std::invalid_argument(path + ": no [[point]] entries");
  static const std::set<std::string> known{"id", "what", "command", "set", "metric", "published", "tolerance", "source", "gap", "seeds"};
  std::vector<ValidationPoint> points;
  std::set<std::string> ids;
  for (const toml::node& n : *arr) {
    const toml::table* t = n.as_table();
    const std::string at = path + ":" + std::to_string(n.source().begin.line);
    if (!t) throw std::invalid_argument(at + ": a point must be a table");
    ValidationPoint p;
    p.id = field<std::string>(*t, at, "id", true);
    const std::string where = at + ": point \"" + p.id + "\"";
    for (const auto& [k, v] : *t)
      if (!known.count(std::string(k.str())))
        throw std::invalid_argument(where + ": unknown field \"" + std::string(k.str()) + "\"");
    if (!ids.insert(p.id).second) throw std::invalid_argument(where + ": the id is taken");
    p.what = field<std::string>(*t, where, "what", true);
    p.command = field<std::string>(*t, where, "command", true);
    p.set = field<std::vector<std::string>>(*t, where, "set", false);
    p.metric = field<std::string>(*t, where, "metric", true);
    p.published = field<double>(*t, where, "published", true);
    if (t->get("tolerance")) p.tolerance = field<double>(*t, where, "tolerance", true);
    p.source = field<std::string>(*t, where, "source", true);
    p.gap = field<std::string>(*t, where, "gap", false);
    if (t->get("seeds")) {
      const std::optional<std::int64_t> n = t->get("seeds")->value_exact<std::int64_t>();
      if (!n || *n < 1 || *n > 99) throw std::invalid_argument(where + ": \"seeds\" must be an integer in 1..99");
      p.seeds = static_cast<int>(*n);
    }
    if (!(p.published > 0)) throw std::invalid_argument(where + ": \"published\" must be positive");
    if (!(p.tolerance > 0 && p.tolerance < 1)) throw std::invalid_argument(where + ": \"tolerance\" must be in (0, 1)");
    try {
      p.scenario = parse_scenario("command = \"" + p.command + "\"\n", p.id);
      for (const std::string& a : p.set) apply_override(p.scenario, a);
      scenario_config(p.scenario);
      if (p.seeds > 1) {  // the command takes a seed
        Scenario other = p.scenario;
        apply_override(other, "seed=" + std::to_string(p.scenario.options.seed + 1));
      }
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + ": " + e.what());
    }
    points.push_back(std::move(p));
  }
  return points;
}

std::vector<ValidationRow> run_validation(const std::vector<ValidationPoint>& points, int threads) {
  std::vector<Scenario> runs;
  for (const ValidationPoint& p : points)
    for (int k = 0; k < p.seeds; ++k) {
      runs.push_back(p.scenario);
      if (k > 0) apply_override(runs.back(), "seed=" + std::to_string(p.scenario.options.seed + static_cast<std::uint64_t>(k)));
    }
  const std::vector<RunResult> results = run_all(runs, threads);
  std::vector<ValidationRow> rows;
  std::size_t next = 0;
  for (const ValidationPoint& p : points) {
    ValidationRow r;
    std::vector<double> values;
    for (int k = 0; k < p.seeds; ++k, ++next) {
      const std::vector<Metric>& m = results[next].metrics;
      const auto it = std::find_if(m.begin(), m.end(), [&](const Metric& x) { return x.name == p.metric; });
      if (it == m.end()) throw std::invalid_argument("point \"" + p.id + "\": the run has no metric \"" + p.metric + "\"");
      values.push_back(it->value);
      if (r.failure.empty()) r.failure = results[next].failure;
    }
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    r.simulated = values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    r.error = (r.simulated - p.published) / p.published;
    r.pass = r.failure.empty() && std::abs(r.error) <= p.tolerance;
    rows.push_back(r);
  }
  return rows;
}

}  // namespace rdmasim::config
