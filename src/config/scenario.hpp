// Scenario files: an experiment as a versionable TOML file (or the same tree as JSON) instead
// of a command line. A scenario names its command (lat | bw | budget) and sets the same
// options the command line has, grouped in tables — [workload], [toggles], [network] — plus
// any profile parameter under [params] (nested tables or dotted keys, values with units).
//
// One table of keys (config/scenario_keys.hpp) drives parsing, `--set`-style overrides, the
// command line, to_toml and the generated docs/scenario-format.md, so they cannot drift. Every error names the file, line and column
// and the key path, lists the valid names for an unknown key or component, and is thrown
// before anything runs (std::invalid_argument).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "config/options.hpp"
#include "config/scenario_keys.hpp"

namespace rdmasim::config {

struct Scenario {
  std::string path;         // file it came from ("<string>" when parsed from text)
  std::string name, description;
  Command command = Command::lat;
  LatOptions options;
  std::map<std::string, std::string> where;  // key path -> "file:line:col" (for later errors)
};

/// Parses TOML (or JSON when `json`) text. `name` is used in error locations.
Scenario parse_scenario(std::string_view text, const std::string& name, bool json = false);
/// Reads and parses a file (.json: JSON, anything else: TOML).
Scenario load_scenario(const std::string& path);
/// "key=value" for a scenario key ("network.mtu=1024") or a profile parameter
/// ("switch.buffer=2MiB" or "params.switch.buffer=2MiB").
void apply_scenario_override(Scenario& s, std::string_view assignment);
/// The configuration the scenario describes, validated; errors located where possible.
LatConfig scenario_config(const Scenario& s);
/// Throws std::invalid_argument ("FILE:LINE:COL: outputs.KEY: <why>") when the scenario has an
/// [outputs] key: files are written by `rdmasim run` only, not by compare, sweep or the API.
void refuse_outputs(const Scenario& s, const std::string& why);
/// The scenario as a TOML document that parses back to it: command, name, description, every
/// key whose value differs from the command's default (config/scenario_keys.hpp), and [params]
/// (a parameter set twice: its last value).
std::string to_toml(const Scenario& s);
/// docs/scenario-format.md, generated from scenario_keys() and the profile parameters.
std::string scenario_format_markdown();

}  // namespace rdmasim::config
