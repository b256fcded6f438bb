#include "web/presets.hpp"

#include <sstream>
#include <stdexcept>
#include <toml++/toml.h>

#include "config/scenario.hpp"
#include "model/path.hpp"
#include "web/embedded_files.hpp"

namespace rdmasim::web {

nlohmann::ordered_json toml_to_json(const std::string& text, const std::string& name) {
  toml::table t;
  try {
    t = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    throw std::invalid_argument(name + ": " + std::string(e.description()));
  }
  std::ostringstream out;
  out << toml::json_formatter{t};
  return nlohmann::ordered_json::parse(out.str());
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> table = [] {
    std::vector<Preset> v;
    const std::string prefix = "preset:";
    for (const EmbeddedFile& f : embedded_files()) {
      const std::string n = f.name;
      if (n.rfind(prefix, 0) != 0) continue;
      Preset p;
      p.id = n.substr(prefix.size(), n.size() - prefix.size() - 5);  // without ".toml"
      const std::string text(f.text());
      const Scenario s = parse_scenario(text, p.id + ".toml");
      p.name = s.name;
      p.description = s.description;
      p.scenario = toml_to_json(text, p.id + ".toml");
      p.command = p.scenario.value("command", "");
      const LatConfig c = config::scenario_config(s);
      if (c.topology == LatTopology::fabric) {
        const auto topo = FabricNetwork::make_topology(c);
        std::vector<std::string> to_host, rest;
        for (std::string& name : topo->egress_port_names()) {
          const std::string to = name.substr(name.find("->") + 2);
          const bool host = topo->find_host(to) >= 0 && topo->find_host(name.substr(0, name.find("->"))) < 0;
          (host ? to_host : rest).push_back(std::move(name));
        }
        p.ports = std::move(to_host);
        p.ports.insert(p.ports.end(), rest.begin(), rest.end());
      }
      v.push_back(std::move(p));
    }
    return v;
  }();
  return table;
}

const Preset* find_preset(const std::string& id) {
  for (const Preset& p : presets())
    if (p.id == id) return &p;
  return nullptr;
}

}  // namespace rdmasim::web
