// Presets: the repository's scenarios/*.toml, compiled into the binary (embedded_files.hpp),
// offered to the dashboard as JSON (the same tree the HTTP API takes). Each is parsed by the
// scenario parser when the table is built, so a preset that does not parse fails loudly.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace rdmasim::web {

struct Preset {
  std::string id;            // file stem: "incast-pfc"
  std::string name, description, command;
  nlohmann::ordered_json scenario;  // the TOML file as JSON
  /// A switched network's egress ports ("edge0.0->h0"), switch-to-host ones first; empty
  /// without a fabric. The live view offers them to watch.
  std::vector<std::string> ports;
};

const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& id);
/// TOML text -> the same tree as JSON (std::invalid_argument on a parse error).
nlohmann::ordered_json toml_to_json(const std::string& text, const std::string& name);

}  // namespace rdmasim::web
