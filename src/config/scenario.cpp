#include "config/scenario.hpp"

#include "core/located_error.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <toml++/toml.h>

#include "config/nesting_limit.hpp"
#include "core/number_text.hpp"
#include "model/path.hpp"
#include "rdmasim/collective.hpp"
#include "rdmasim/flows.hpp"
#include "rdmasim/profile.hpp"
#include "rdmasim/load_balancer.hpp"
#include "rdmasim/rate_control.hpp"

namespace rdmasim::config {
namespace {

const std::vector<std::string>& top_level() {
  static const std::vector<std::string> t{"name", "description", "command", "seed", "profile", "host_profile",
                                          "workload", "toggles", "network", "params", "memory", "coalescing",
                                          "connection", "outputs"};
  return t;
}

// One leaf of the document: its key path, value as text, kind and location.
struct Leaf {
  std::string key, text, kind, where;  // kind: string | integer | float | boolean | array | table (empty)
  std::vector<std::string> items;      // array elements (as text)
  bool numbers = false;                // some element was a number
};

std::string loc(const std::string& file, const toml::source_region& r) {
  return file + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
}

void flatten_toml(const toml::table& t, const std::string& prefix, const std::string& file, std::vector<Leaf>& out) {
  for (const auto& [k, node] : t) {
    const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    Leaf l{key, "", "", loc(file, node.source()), {}};
    if (const toml::table* sub = node.as_table()) {
      if (sub->empty()) out.push_back({key, "", "table", l.where, {}});  // checked like a key: [foo] is an error
      flatten_toml(*sub, key, file, out);
      continue;
    }
    if (auto s = node.value_exact<std::string>()) l.kind = "string", l.text = *s;
    else if (auto i = node.value_exact<std::int64_t>()) l.kind = "integer", l.text = std::to_string(*i);
    else if (auto d = node.value_exact<double>()) l.kind = "float", l.text = number_text(*d);
    else if (auto b = node.value_exact<bool>()) l.kind = "boolean", l.text = *b ? "true" : "false";
    else if (const toml::array* a = node.as_array()) {
      l.kind = "array";
      for (const toml::node& e : *a) {
        if (auto s = e.value_exact<std::string>()) l.items.push_back(*s);
        else if (auto i = e.value_exact<std::int64_t>()) l.items.push_back(std::to_string(*i)), l.numbers = true;
        else if (auto d = e.value_exact<double>()) l.items.push_back(number_text(*d)), l.numbers = true;
        else throw std::invalid_argument(loc(file, e.source()) + ": " + key + ": expected an array of strings or numbers");
      }
    } else {
      throw std::invalid_argument(l.where + ": " + key + ": unsupported value type (dates and times are not used)");
    }
    out.push_back(std::move(l));
  }
}

void flatten_json(const nlohmann::json& j, const std::string& prefix, const std::string& file, std::vector<Leaf>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    const nlohmann::json& v = it.value();
    Leaf l{key, "", "", file, {}};  // JSON has no positions: messages name the file and the key
    if (v.is_object()) {
      if (v.empty()) out.push_back({key, "", "table", l.where, {}});
      flatten_json(v, key, file, out);
      continue;
    }
    if (v.is_string()) l.kind = "string", l.text = v.get<std::string>();
    else if (v.is_number_unsigned()) l.kind = "integer", l.text = std::to_string(v.get<std::uint64_t>());
    else if (v.is_number_integer()) l.kind = "integer", l.text = std::to_string(v.get<std::int64_t>());
    else if (v.is_number_float()) l.kind = "float", l.text = number_text(v.get<double>());
    else if (v.is_boolean()) l.kind = "boolean", l.text = v.get<bool>() ? "true" : "false";
    else if (v.is_array()) {
      l.kind = "array";
      for (const auto& e : v) {
        if (e.is_string()) l.items.push_back(e.get<std::string>());
        else if (e.is_number_integer()) l.items.push_back(e.dump()), l.numbers = true;
        else if (e.is_number_float()) l.items.push_back(number_text(e.get<double>())), l.numbers = true;
        else throw std::invalid_argument(l.where + ": " + key + ": expected an array of strings or numbers");
      }
    } else {
      throw std::invalid_argument(l.where + ": " + key + ": unsupported value (null)");
    }
    out.push_back(std::move(l));
  }
}

std::string keys_in(const std::string& table) {
  std::string list;
  for (const ScenarioKey& k : scenario_keys())
    if (k.path.rfind(table + ".", 0) == 0) list += (list.empty() ? "" : ", ") + k.path.substr(table.size() + 1);
  return list;
}

// Applies one leaf; `kind_ok` is the type check the key's declared type demands.
void apply_leaf(Scenario& s, const Leaf& l) {
  const std::string& key = l.key;
  auto fail = [&](const std::string& m) { throw std::invalid_argument(l.where + ": " + key + ": " + m); };
  if (key == "name" || key == "description") {
    if (l.kind != "string") fail("expected a string");
    (key == "name" ? s.name : s.description) = l.text;
    return;
  }
  if (key == "command") return;  // read first
  if (l.kind == "table") {  // an empty table: fine where keys could be, an error elsewhere
    const bool params = key == "params" || (key.rfind("params.", 0) == 0 &&
                                            std::any_of(profile_params().begin(), profile_params().end(), [&](const ParamDef& d) {
                                              return d.key.rfind(key.substr(7) + ".", 0) == 0;
                                            }));
    const bool table = std::any_of(scenario_keys().begin(), scenario_keys().end(),
                                   [&](const ScenarioKey& k) { return k.path.rfind(key + ".", 0) == 0; });
    if (!params && !table) fail("unknown table");
    return;
  }
  if (key.rfind("params.", 0) == 0) {
    const std::string param = key.substr(7);
    if (l.kind == "array") fail("expected a value, not an array");
    const std::string text = l.kind == "boolean" ? (l.text == "true" ? "on" : "off") : l.text;
    Profile probe;  // checks the key and the value's syntax now, with this location
    try {
      apply_override(probe, param + "=" + text);
    } catch (const std::invalid_argument& e) {
      const std::string m = e.what();
      throw std::invalid_argument(l.where + ": " + (m.rfind(param + ":", 0) == 0 ? "params." + m : m));
    }
    s.options.sets.push_back(param + "=" + text);
    s.where[key] = l.where;
    return;
  }
  const ScenarioKey* k = find_scenario_key(key);
  if (!k) {
    const auto dot = key.find('.');
    const std::string table = dot == std::string::npos ? "" : key.substr(0, dot);
    if (table == "workload" || table == "toggles" || table == "network" || table == "memory" || table == "coalescing" ||
        table == "connection" || table == "outputs")
      fail("unknown key (valid in [" + table + "]: " + keys_in(table) + ")");
    std::string valid;
    for (const std::string& t : top_level()) valid += (valid.empty() ? "" : ", ") + t;
    fail("unknown key (valid at the top level: " + valid + ")");
  }
  if ((k->commands & command_bit(s.command)) == 0)
    fail("not used by command \"" + std::string(command_name(s.command)) + "\"");
  const std::string& t = k->type;
  if (t == "int" && l.kind != "integer") fail("expected an integer, got " + l.kind + " " + l.text);
  if (t == "bool" && l.kind != "boolean") fail("expected true or false, got " + l.kind + " " + l.text);
  if (t == "string" && l.kind != "string") fail("expected a string, got " + l.kind + " " + l.text);
  if (t == "bytes" && l.kind != "string" && l.kind != "integer") fail("expected a size like 4096 or \"4KiB\"");
  if (t == "list" && (l.kind != "array" || (l.numbers && !k->numeric_items)))
    fail(k->numeric_items ? "expected an array of numbers" : "expected an array of strings");
  if (t == "time" && l.kind != "string" && l.kind != "integer" && l.kind != "float")
    fail("expected a time like \"2ms\" or seconds, got " + l.kind);
  try {
    if (t == "list")
      for (const std::string& item : l.items) k->set(s.options, item);
    else
      k->set(s.options, l.text);
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  s.where[key] = l.where;
}

Scenario from_leaves(const std::vector<Leaf>& leaves, const std::string& name) {
  Scenario s;
  s.path = name;
  const Leaf* cmd = nullptr;
  for (const Leaf& l : leaves) {
    const std::string top = l.key.substr(0, l.key.find('.'));
    if (std::find(top_level().begin(), top_level().end(), top) == top_level().end()) {
      std::string valid;
      for (const std::string& t : top_level()) valid += (valid.empty() ? "" : ", ") + t;
      throw std::invalid_argument(l.where + ": " + l.key + ": unknown key (valid at the top level: " + valid + ")");
    }
    if (l.key == "command") cmd = &l;
  }
  if (!cmd) throw std::invalid_argument(name + ": missing required key \"command\" (" + command_names() + ")");
  if (cmd->kind != "string") throw std::invalid_argument(cmd->where + ": command: expected a string");
  bool known = false;
  for (Command c : kScenarioCommands)
    if (cmd->text == command_name(c)) s.command = c, known = true;
  std::string op;  // a collective by its nccl-tests name: command = "all_gather"
  for (const CollOpInfo& i : coll_ops())
    if (cmd->text == i.name) s.command = Command::allreduce, known = true, op = i.name;
  if (!known)
    throw std::invalid_argument(cmd->where + ": command: unknown command \"" + cmd->text + "\" (valid: " +
                                command_names() + ", or a collective: " + coll_op_names() + ")");
  s.options = default_options(s.command);
  if (!op.empty()) s.options.collective.op = op;
  for (const Leaf& l : leaves) apply_leaf(s, l);
  return s;
}

}  // namespace

LatConfig scenario_config(const Scenario& s) {
  try {
    ScenarioOptions o = s.options;
    if (s.command == Command::allreduce) o.iters = 1000;  // its iterations are checked by to_collective_config
    LatConfig c = to_config(o);
    if (s.command == Command::allreduce) to_collective_config(s.options);
    if (s.command == Command::flows) to_flows_config(s.options);
    if (s.command == Command::bw && s.options.loss_sweep.empty())  // the bw test's own checks, before anything prints
      s.options.pattern.empty() ? static_cast<void>(to_bw_config(s.options)) : static_cast<void>(to_traffic_config(s.options));
    if (c.topology == LatTopology::fabric) FabricNetwork::make_topology(c);  // topology errors now, not mid-run
    return c;
  } catch (const LocatedError&) {
    throw;  // a topology file's own position
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    for (const auto& [key, where] : s.where) {
      const std::string bare = key.rfind("params.", 0) == 0 ? key.substr(7) : key;
      if (m.rfind(bare + ":", 0) == 0) throw std::invalid_argument(where + ": " + key + m.substr(bare.size()));
      // A check that names the key's flag ("--degrade: ...") is the key's too.
      if (const ScenarioKey* k = find_scenario_key(key); k && m.rfind(long_flag(*k) + ":", 0) == 0)
        throw std::invalid_argument(where + ": " + key + m.substr(long_flag(*k).size()));
    }
    // A scenario from flags has no file to name; the message names its own source.
    throw std::invalid_argument(s.path == kNoScenarioFile ? m : s.path + ": " + m);
  }
}

void refuse_outputs(const Scenario& s, const std::string& why) {
  for (const auto& [key, where] : s.where)
    if (key.rfind("outputs.", 0) == 0) throw std::invalid_argument(where + ": " + key + ": " + why);
}

std::string scenario_format_markdown() {
  std::ostringstream o;
  o << "# Scenario file format\n\n"
    << "<!-- Generated by `rdmasim list --scenario-format` from the key table in src/config/scenario_keys.cpp and\n"
    << "     the profile parameters in src/model/profile_params.cpp. Do not edit: `make docs` regenerates it, and CI fails\n"
    << "     when it is stale. -->\n\n"
    << "A scenario is a TOML file (or the same tree as JSON, for the HTTP API) that describes one run of\n"
    << "`rdmasim lat`, `bw`, `budget` or `allreduce`: `rdmasim run FILE`, `rdmasim compare A B ...`, `rdmasim sweep FILE\n"
    << "--param key=v1,v2`. Every key has the meaning of the command-line option of the same name; values\n"
    << "with units are strings (`\"4KiB\"`, `\"100Gbps\"`, `\"1.5us\"`, `\"2m\"`) parsed strictly. Errors name\n"
    << "the file, line and column and the key path, and nothing runs.\n\n"
    << "```toml\nname = \"RDMA WRITE over a fat-tree\"\ncommand = \"lat\"\nseed = 1\n\n[workload]\nsize = \"4KiB\"\niters = 1000\n\n"
    << "[network]\ntopology = \"fat-tree\"\nk = 4\nto = \"h15\"\n\n[params]\nswitch.pipeline = \"400ns\"\n"
    << "link.rate = \"100Gbps\"\n```\n\n"
    << "## Keys\n\nEvery key is also a command-line flag of the commands it applies to (`rdmasim lat --mtu 1024` is\n"
    << "`network.mtu = 1024`); a key a command does not use is refused, in a file and on the command line.\n"
    << "A default that differs between commands is given per command.\n\n"
    << "| key | flag | commands | type | default | meaning |\n|---|---|---|---|---|---|\n"
    << "| `command` | (the subcommand) | | string | (required) | " << command_names() << " |\n"
    << "| `name`, `description` | | | string | \"\" | shown in reports |\n"
    << "| `params.KEY` | `--set KEY=VALUE` | all | | | a profile parameter (below) |\n";
  for (const ScenarioKey& k : scenario_keys()) {
    std::string cmds, def, first_def;
    bool same = true;
    for (Command c : kAllCommands) {
      if ((k.commands & command_bit(c)) == 0) continue;
      std::string d;
      for (const std::string& v : k.get(default_options(c))) d += (d.empty() ? "" : ", ") + (v.empty() ? "\"\"" : v);
      if (k.type == "list") d = "[" + d + "]";
      if (cmds.empty()) first_def = d;
      same = same && d == first_def;
      def += std::string(def.empty() ? "" : "; ") + std::string(command_name(c)) + " " + (d.empty() ? "(not set)" : d);
      cmds += (cmds.empty() ? "" : ", ") + std::string(command_name(c));
    }
    if (same) def = first_def;
    std::string flags = k.flags;
    for (std::size_t at = 0; (at = flags.find(',', at)) != std::string::npos; at += 4) flags.replace(at, 1, "`, `");
    o << "| `" << k.path << "` | `" << flags << (k.form == CliForm::optional_value ? "[=N]" : "") << "` | " << cmds
      << " | " << k.type << " | " << (def.empty() ? "(not set)" : def) << " | " << k.help;
    if (!k.choices.empty()) {
      o << " (";
      for (std::size_t i = 0; i < k.choices.size(); ++i) o << (i ? ", " : "") << (k.choices[i].empty() ? "\"\"" : k.choices[i]);
      o << ")";
    }
    o << " |\n";
  }
  o << "\n## Command-line options that are not keys\n\n| flag | commands | why |\n|---|---|---|\n";
  for (const NonKeyFlag& f : non_key_flags()) o << "| `" << f.flags << "` | " << f.commands << " | " << f.why << " |\n";
  o << "\n## Parameters: `[params]`\n\nAny profile parameter, as a nested table (`[params.switch]` / `buffer = \"2MiB\"`)\n"
    << "or a dotted key (`switch.buffer = \"2MiB\"`). Defaults are the `default` profile's.\n\n"
    << "| key | type | default | range | meaning | source |\n|---|---|---|---|---|---|\n";
  const Profile p = make_profile("default");
  for (const ParamDef& d : profile_params())
    o << "| `params." << d.key << "` | " << d.type << " | " << d.get(p) << " | " << d.range << " | " << d.help << " | "
      << d.source << " |\n";
  return o.str();
}

}  // namespace rdmasim::config

namespace rdmasim {

using namespace config;

Scenario make_scenario(Command c) {
  Scenario s;
  s.path = std::string(kNoScenarioFile);
  s.command = c;
  s.options = default_options(c);
  return s;
}

Scenario parse_scenario(std::string_view text, const std::string& name, bool json) {
  std::vector<Leaf> leaves;
  if (json) {
    config::check_json_nesting(text, name);
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      throw std::invalid_argument(name + ": byte " + std::to_string(e.byte) + ": invalid JSON");
    } catch (const nlohmann::json::exception& e) {  // e.g. a number out of range (found by the fuzzer)
      throw std::invalid_argument(name + ": invalid JSON: " + e.what());
    }
    if (!j.is_object()) throw std::invalid_argument(name + ": expected a JSON object");
    flatten_json(j, "", name, leaves);
  } else {
    config::check_toml_nesting(text, name);
    toml::table doc;
    try {
      doc = toml::parse(text, std::string_view(name));
    } catch (const toml::parse_error& e) {
      throw std::invalid_argument(loc(name, e.source()) + ": " + std::string(e.description()));
    }
    flatten_toml(doc, "", name, leaves);
  }
  return from_leaves(leaves, name);
}

Scenario load_scenario(const std::string& path) {
  const std::optional<std::string> text = config::read_text_file(path);
  if (!text) throw std::invalid_argument(path + ": cannot read the scenario file");
  const bool json = path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  Scenario s = parse_scenario(*text, path, json);
  // The files a scenario names are found beside it: a relative path is relative to its directory.
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  const auto beside = [&dir](std::string& f) {
    if (!f.empty() && std::filesystem::path(f).is_relative()) f = (dir / f).lexically_normal().string();
  };
  beside(s.options.fabric.topology_file);
  beside(s.options.open_loop.flow_file);
  const std::vector<const FlowSizeCdf*> cdfs = flow_size_cdfs();
  if (std::none_of(cdfs.begin(), cdfs.end(), [&](const FlowSizeCdf* c) { return c->name == s.options.open_loop.cdf; }))
    beside(s.options.open_loop.cdf);
  return s;
}

void apply_override(Scenario& s, std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw std::invalid_argument("expected key=value, got \"" + std::string(assignment) + "\"");
  std::string key(assignment.substr(0, eq));
  const std::string value(assignment.substr(eq + 1));
  if (!find_scenario_key(key) && key.rfind("params.", 0) != 0) key = "params." + key;  // a bare profile parameter
  const ScenarioKey* k = find_scenario_key(key);
  Leaf l{key, value, "string", "override " + std::string(assignment), {}};
  if (k && k->type == "int") l.kind = "integer";
  if (k && k->type == "bool") l.kind = "boolean";
  if (k && k->type == "list") l.kind = "array", l.items = {value};
  apply_leaf(s, l);
}

std::string to_toml(const Scenario& s) {
  toml::table doc;
  doc.insert("command", std::string(command_name(s.command)));
  if (!s.name.empty()) doc.insert("name", s.name);
  if (!s.description.empty()) doc.insert("description", s.description);
  const ScenarioOptions def = default_options(s.command);
  const auto table_for = [&doc](const std::string& path) -> std::pair<toml::table*, std::string> {
    toml::table* t = &doc;
    std::size_t at = 0;
    for (std::size_t dot; (dot = path.find('.', at)) != std::string::npos; at = dot + 1)
      t = t->emplace<toml::table>(path.substr(at, dot - at)).first->second.as_table();
    return {t, path.substr(at)};
  };
  for (const ScenarioKey& k : scenario_keys()) {
    if ((k.commands & command_bit(s.command)) == 0) continue;
    const std::vector<std::string> v = k.get(s.options);
    if (v == k.get(def)) continue;
    auto [t, name] = table_for(k.path);
    if (k.type == "list") {
      toml::array a;
      for (const std::string& x : v) a.push_back(x);
      t->insert_or_assign(name, std::move(a));
    } else if (v.empty()) {
      throw std::logic_error("to_toml: " + k.path + " cannot be unset");
    } else if (k.type == "int" || (k.type == "bytes" && v[0].find_first_not_of("0123456789") == std::string::npos)) {
      t->insert_or_assign(name, static_cast<std::int64_t>(std::stoll(v[0])));
    } else if (k.type == "bool") {
      t->insert_or_assign(name, v[0] == "true");
    } else if (k.type == "number") {
      t->insert_or_assign(name, std::stod(v[0]));
    } else {
      t->insert_or_assign(name, v[0]);
    }
  }
  for (const std::string& set : s.options.sets) {
    const auto eq = set.find('=');
    auto [t, name] = table_for("params." + set.substr(0, eq));
    t->insert_or_assign(name, set.substr(eq + 1));
  }
  std::ostringstream o;
  o << doc << "\n";
  return o.str();
}

}  // namespace rdmasim
