#include "io/topo_report.hpp"

#include <set>
#include <string>

#include "model/budget.hpp"
#include "path/fabric_route.hpp"
#include "rdmasim/server.hpp"

namespace rdmasim {
namespace {

std::string route_text(const Topology& t, const FabricPath& p) {
  std::string s;
  for (int n : p.nodes) s += (s.empty() ? "" : " -> ") + t.nodes()[static_cast<std::size_t>(n)].name;
  return s;
}

// Server s's port on NIC `rail`, plane 0; -1 if none.
int port(const Topology& t, int s, int rail) {
  if (s >= t.server_count()) return -1;
  const std::vector<int>& h = t.server_hosts(s);
  const std::size_t i = static_cast<std::size_t>(rail * t.planes());
  return i < h.size() ? h[i] : -1;
}

int unit_of(const Topology& t, int s) { return t.nodes()[static_cast<std::size_t>(t.host_node(t.server_hosts(s)[0]))].pod; }

void add_rails(const Topology& t, TopoReport& r) {
  const int nics = t.server_nics(0);
  int same = -1, other = -1;  // a server in server 0's unit, one in another
  for (int s = 1; s < t.server_count(); ++s) {
    const bool here = unit_of(t, s) == unit_of(t, 0);
    if (here && same < 0) same = s;
    if (!here && other < 0) other = s;
  }
  std::set<int> units;
  for (int s = 0; s < t.server_count(); ++s)
    if (unit_of(t, s) >= 0) units.insert(unit_of(t, s));
  r.units = static_cast<int>(units.size());
  const auto paths = [&t](int a, int b, std::size_t& n, int& links) {
    if (a < 0 || b < 0) return;
    const std::vector<FabricPath> p = equal_cost_paths(t, a, b);
    n = p.size();
    links = p.empty() ? 0 : p[0].links();
  };
  for (int rail = 0; rail < nics; ++rail) {
    RailRow row;
    row.rail = rail;
    for (const Node& n : t.nodes())
      if (n.kind == NodeKind::switch_ && n.rail == rail) ++row.leaves;
    const int a = port(t, 0, rail);
    paths(a, same < 0 ? -1 : port(t, same, rail), row.same_unit, row.same_unit_links);
    paths(a, other < 0 ? -1 : port(t, other, rail), row.other_unit, row.other_unit_links);
    paths(a, nics > 1 ? port(t, 0, (rail + 1) % nics) : -1, row.next_rail, row.next_rail_links);
    r.rails.push_back(row);
  }
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
  if (t.server_count() > 0) add_rails(t, r);
  if (t.server_count() > 0 && !c.fabric.server.empty()) {
    const ServerSpec& s = server(c.fabric.server);
    for (int g = 0; g < s.gpus; ++g) {
      const PcieTopology p = s.gpu_path(g).value_or(c.profile.pcie.topology);
      r.gpu_paths += (g == 0 ? "" : ", ") + std::string("gpu") + std::to_string(g) + " -> nic" +
                     std::to_string(g % t.server_nics(0)) + " (" + std::string(to_string(p)) + ")";
    }
  }
  return r;
}

void print_topo(std::FILE* out, const TopoReport& r) {
  const Topology& t = *r.topology;
  std::fprintf(out, "topology %s: %s\n", t.name.c_str(), t.description.c_str());
  std::fprintf(out, "  hosts %d, switches %d, links %zu, bisection bandwidth %s\n", t.host_count(), t.switch_count(),
               t.cables().size(), t.bisection.bits_per_sec() > 0 ? format_rate(t.bisection).c_str() : "unknown (not computed for a file)");
  if (!r.rails.empty()) {
    std::string units = r.units == 0 ? "" : ", " + std::to_string(r.units) + " scalable unit" + (r.units == 1 ? "" : "s");
    std::fprintf(out, "  servers %d x %zu NICs (one rail each)%s, %d plane%s%s\n", t.server_count(), r.rails.size(),
                 units.c_str(), t.planes(), t.planes() == 1 ? "" : "s", t.planes() > 1 ? " (each NIC one port per plane)" : "");
    std::string placement;  // server 0's ports and the switch each is cabled to
    for (int h : t.server_hosts(0)) {
      const Node& port = t.nodes()[static_cast<std::size_t>(t.host_node(h))];
      const Cable& c = t.cables()[static_cast<std::size_t>(port.cables.at(0))];
      placement += (placement.empty() ? "" : ", ") + port.name + " -> " + t.nodes()[static_cast<std::size_t>(c.other(t.host_node(h)))].name;
    }
    std::fprintf(out, "  NIC placement: %s\n", placement.c_str());
    if (!r.gpu_paths.empty()) std::fprintf(out, "  GPU placement (PCIe path to the NIC): %s\n", r.gpu_paths.c_str());
    std::fprintf(out,
                 "\n equal-cost paths / links from server 0's NIC on each rail%s: to that rail in its unit, in another "
                 "unit, and to its next rail\n %4s %7s %12s %12s %12s\n",
                 t.planes() > 1 ? " (plane 0)" : "", "rail", "leaves", "same unit", "other unit", "next rail");
    const auto cell = [](std::size_t n, int links) {
      return n == 0 ? std::string("-") : std::to_string(n) + " / " + std::to_string(links);
    };
    for (const RailRow& x : r.rails)
      std::fprintf(out, " %4d %7d %12s %12s %12s\n", x.rail, x.leaves, cell(x.same_unit, x.same_unit_links).c_str(),
                   cell(x.other_unit, x.other_unit_links).c_str(), cell(x.next_rail, x.next_rail_links).c_str());
  }
  if (r.from >= 0) {
    std::fprintf(out, "\n%s -> %s: %zu equal-cost path%s", t.nodes()[static_cast<std::size_t>(t.host_node(r.from))].name.c_str(),
                 t.nodes()[static_cast<std::size_t>(t.host_node(r.to))].name.c_str(), r.paths.size(), r.paths.size() == 1 ? "" : "s");
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
  if (!r.rails.empty()) {
    j["servers"] = t.server_count();
    j["units"] = r.units;
    j["planes"] = t.planes();
    nlohmann::ordered_json rails = nlohmann::ordered_json::array();
    for (const RailRow& x : r.rails)
      rails.push_back({{"rail", x.rail},
                       {"leaves", x.leaves},
                       {"same_unit_paths", x.same_unit},
                       {"same_unit_links", x.same_unit_links},
                       {"other_unit_paths", x.other_unit},
                       {"other_unit_links", x.other_unit_links},
                       {"next_rail_paths", x.next_rail},
                       {"next_rail_links", x.next_rail_links}});
    j["rails"] = rails;
    if (!r.gpu_paths.empty()) j["gpu_placement"] = r.gpu_paths;
  }
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
