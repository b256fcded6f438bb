#include "io/list_report.hpp"

#include <string>

#include <algorithm>

#include "config/catalogue.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

nlohmann::ordered_json list_json() {
  nlohmann::ordered_json j;
  j["profiles"] = profile_names();
  nlohmann::ordered_json params = nlohmann::ordered_json::array();
  for (const ParamDef& d : profile_params()) {
    nlohmann::ordered_json o;
    o["key"] = d.key;
    o["type"] = d.type;
    o["range"] = d.range;
    for (const std::string& name : profile_names()) o[name] = d.get(make_profile(name));
    o["help"] = d.help;
    o["source"] = d.source;
    params.push_back(std::move(o));
  }
  j["parameters"] = std::move(params);
  nlohmann::ordered_json comps = nlohmann::ordered_json::array();
  for (const config::Component& c : config::components())
    comps.push_back({{"kind", c.kind},
                     {"name", c.name},
                     {"description", c.description},
                     {"selected_by", c.selected_by},
                     {"params", c.params}});
  j["components"] = std::move(comps);
  return j;
}

void print_list(std::FILE* out) {
  const Profile def = make_profile("default"), seed = make_profile("seed-demo");
  int kind_w = 9;  // "component"
  for (const config::Component& c : config::components()) kind_w = std::max(kind_w, static_cast<int>(c.kind.size()));
  std::fprintf(out, "%-*s %-24s %s  [%s]\n", kind_w, "component", "name", "what it models", "selected by");
  for (const config::Component& c : config::components())
    std::fprintf(out, "%-*s %-24s %s  [%s]\n", kind_w, c.kind.c_str(), c.name.c_str(), c.description.c_str(),
                 c.selected_by.c_str());
  std::string names;
  for (const std::string& n : profile_names()) names += (names.empty() ? "" : ", ") + n;
  std::fprintf(out,
               "\nParameters (the default and seed-demo profiles' values; profiles: %s; set with --set key=value or "
               "[params] in a scenario):\n\n",
               names.c_str());
  std::fprintf(out, "%-24s %-7s %-12s %-12s %-24s %s\n", "parameter", "type", "default", "seed-demo", "range",
               "meaning [source]");
  for (const ParamDef& d : profile_params())
    std::fprintf(out, "%-24s %-7s %-12s %-12s %-24s %s [%s]\n", d.key.c_str(), d.type.c_str(), d.get(def).c_str(),
                 d.get(seed).c_str(), d.range.c_str(), d.help.c_str(), d.source.c_str());
}

}  // namespace rdmasim
