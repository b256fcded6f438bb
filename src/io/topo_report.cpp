#include "io/topo_report.hpp"

#include <string>

#include "model/budget.hpp"
#include "path/fabric_route.hpp"

namespace rdmasim {
namespace {

std::string route_text(const Topology& t, const FabricPath& p) {
  std::string s;
  for (int n : p.nodes) s += (s.empty() ? "" : " -> ") + t.nodes()[static_cast<std::size_t>(n)].name;
  return s;
}

}  // namespace

TopoReport make_topo_report(const Topology& t, std::optional<std::pair<int, int>> pair, bool hops, const LatConfig& c) {
  TopoReport r;
  r.topology = &t;
  if (pair) {
    r.from = pair->first;
    r.to = pair->second;
    const ResolvedToggles tog = resolve(c);
    for (const FabricPath& p : equal_cost_paths(t, r.from, r.to)) {
      const FabricRoute route(t, p, c.profile, c.link_layer == LinkLayer::ib);
      const PathSpec spec = build_path(c, tog, 0, [&](PathSpec& s, int from) { route.append(s, from); });
      r.paths.push_back({p, evaluate_path(spec, c.size, false)});
    }
  }
  if (hops) r.hops = hop_histogram(t);
  return r;
}

void print_topo(std::FILE* out, const TopoReport& r) {
  const Topology& t = *r.topology;
  std::fprintf(out, "topology %s: %s\n", t.name.c_str(), t.description.c_str());
  std::fprintf(out, "  hosts %d, switches %d, links %zu, bisection bandwidth %s\n", t.host_count(), t.switch_count(),
               t.cables().size(), format_rate(t.bisection).c_str());
  if (r.from >= 0) {
    std::fprintf(out, "\nh%d -> h%d: %zu equal-cost path%s", r.from, r.to, r.paths.size(), r.paths.size() == 1 ? "" : "s");
    if (!r.paths.empty())
      std::fprintf(out, ", %d switches / %d links each\n", r.paths[0].path.switches(), r.paths[0].path.links());
    else
      std::fprintf(out, "\n");
    std::fprintf(out, " %-4s %12s %10s %10s %10s %10s  route\n", "path", "one-way[us]", "transmit", "propagate", "switch",
                 "host+nic");
    int i = 0;
    for (const PathLatency& p : r.paths) {
      const Ledger& l = p.ledger;
      const Time host = l.total() - l[Category::transmit] - l[Category::propagate] - l[Category::switch_];
      std::fprintf(out, " %-4d %12.3f %10.3f %10.3f %10.3f %10.3f  %s\n", i++, l.total().to_us(),
                   l[Category::transmit].to_us(), l[Category::propagate].to_us(), l[Category::switch_].to_us(),
                   host.to_us(), route_text(t, p.path).c_str());
    }
  }
  if (!r.hops.empty()) {
    std::fprintf(out, "\nhop counts over all %d x %d ordered host pairs:\n %8s %8s %12s\n", t.host_count(),
                 t.host_count() - 1, "links", "switches", "pairs");
    for (const auto& [links, n] : r.hops)
      std::fprintf(out, " %8d %8d %12lld\n", links, links - 1, static_cast<long long>(n));
  }
}

nlohmann::ordered_json topo_json(const TopoReport& r) {
  const Topology& t = *r.topology;
  nlohmann::ordered_json j;
  j["topology"] = t.name;
  j["hosts"] = t.host_count();
  j["switches"] = t.switch_count();
  j["links"] = t.cables().size();
  j["bisection_bps"] = t.bisection.bits_per_sec();
  if (r.from >= 0) {
    j["from"] = r.from;
    j["to"] = r.to;
    nlohmann::ordered_json paths = nlohmann::ordered_json::array();
    for (const PathLatency& p : r.paths) {
      nlohmann::ordered_json o;
      nlohmann::ordered_json names = nlohmann::ordered_json::array();
      for (int n : p.path.nodes) names.push_back(t.nodes()[static_cast<std::size_t>(n)].name);
      o["route"] = names;
      o["switches"] = p.path.switches();
      o["links"] = p.path.links();
      o["one_way_ps"] = p.ledger.total().count_ps();
      nlohmann::ordered_json l;
      for (Category c : kAllCategories) l[std::string(category_name(c))] = p.ledger[c].count_ps();
      o["ledger_ps"] = l;
      paths.push_back(std::move(o));
    }
    j["paths"] = std::move(paths);
  }
  if (!r.hops.empty()) {
    nlohmann::ordered_json h;
    for (const auto& [links, n] : r.hops) h[std::to_string(links)] = n;
    j["hop_histogram"] = h;
  }
  return j;
}

}  // namespace rdmasim
