#include "config/host_profile.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <toml++/toml.h>

#include "core/atomic_file.hpp"

namespace rdmasim {
namespace {

std::string where(const std::string& path, const toml::source_region& r) {
  return path + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
}

std::string value_text(const toml::node& n) {
  if (auto s = n.value<std::string>()) return *s;
  if (n.is_integer()) return std::to_string(*n.value<std::int64_t>());
  if (auto b = n.value<bool>()) return *b ? "on" : "off";
  return "";
}

}  // namespace

void apply_host_profile(Profile& p, const std::string& path) {
  toml::table doc;
  try {
    doc = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    throw std::invalid_argument(where(path, e.source()) + ": " + std::string(e.description()));
  }
  const toml::table* params = doc["parameters"].as_table();
  if (!params) throw std::invalid_argument(path + ": missing [parameters] table");
  Profile out = p;
  for (const auto& [group, node] : *params) {
    const toml::table* g = node.as_table();
    if (!g)
      throw std::invalid_argument(where(path, node.source()) + ": parameters." + std::string(group.str()) +
                                  ": expected a table of parameters");
    for (const auto& [key, value] : *g) {
      const std::string full = std::string(group.str()) + "." + std::string(key.str());
      const std::string text = value_text(value);
      if (text.empty())
        throw std::invalid_argument(where(path, value.source()) + ": parameters." + full +
                                    ": expected a string, integer or boolean");
      try {
        apply_override(out, full + "=" + text);
      } catch (const std::invalid_argument& e) {
        const std::string msg = e.what();
        throw std::invalid_argument(where(path, value.source()) + ": " +
                                    (msg.rfind(full + ":", 0) == 0 ? "parameters." + msg : msg));
      }
    }
  }
  out.name = p.name + "+" + path;
  validate(out);
  p = out;
}

void write_host_profile(const std::string& path, const HostProfileDoc& doc) {
  toml::table root;
  root.insert("machine", toml::table{{"description", doc.machine}, {"generated_by", doc.generated_by}});
  std::map<std::string, toml::table> groups;
  for (const auto& [key, value] : doc.parameters) {
    const auto dot = key.find('.');
    groups[key.substr(0, dot)].insert(key.substr(dot + 1), value);
  }
  toml::table params;
  for (auto& [g, t] : groups) params.insert(g, std::move(t));
  root.insert("parameters", std::move(params));
  toml::table meas;
  for (const auto& [k, v] : doc.measurements) meas.insert(k, v);
  root.insert("measurements", std::move(meas));

  std::ostringstream text;
  text << "# rdmasim host profile: use with `rdmasim lat --host-profile " << path << "`\n" << root << "\n";
  write_text_file(path, text.str(), "host profile");
}

}  // namespace rdmasim
