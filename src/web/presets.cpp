#include "web/presets.hpp"

#include <sstream>
#include <utility>
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
        std::vector<std::string> to_host, rest;  // in egress_port_names' order: a->b, b->a, cable by cable
        const auto is_host = [&topo](int n) { return topo->nodes()[static_cast<std::size_t>(n)].kind == NodeKind::host; };
        for (const Cable& k : topo->cables())
          for (const auto& [from, to] : {std::pair{k.a, k.b}, std::pair{k.b, k.a}})
            (is_host(to) && !is_host(from) ? to_host : rest).push_back(topo->egress_name(from, to));
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
