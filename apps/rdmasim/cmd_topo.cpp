#include "cmd_topo.hpp"

#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

#include "cli_common.hpp"
#include "config/scenario.hpp"
#include "io/json_report.hpp"
#include "io/topo_report.hpp"
#include "core/atomic_file.hpp"
#include "model/path.hpp"
#include "net/topology_file.hpp"

namespace rdmasim::cli {
namespace {

struct TopoOptions {
  ScenarioOptions scenario = default_options(Command::lat);
  bool hops = false, json = false;
  std::string write;  // --write-topology PATH
};

// The scenario keys `topo` takes: the fabric's shape, the host pair, and what the per-path
// latency is computed for.
bool topo_key(const ScenarioKey& k) {
  static const std::set<std::string> keys{"network.topology", "network.k",        "network.hosts",
                                          "network.leaves",   "network.spines",   "network.hosts_per_leaf",
                                          "network.switches", "network.hosts_per_switch", "network.ring_routing",
                                          "network.servers",  "network.nics_per_server", "network.servers_per_su", "network.server",
                                          "network.planes",   "network.topology_file",
                                          "network.from",     "network.to",       "network.mtu",
                                          "workload.size",    "profile"};
  return keys.count(k.path) > 0;
}

int host_arg(const Topology& t, const std::string& v, const char* flag) {
  const int h = t.find_host(v);
  if (h < 0)
    throw std::invalid_argument(std::string(flag) + ": no host \"" + v + "\" (hosts are h0..h" +
                                std::to_string(t.host_count() - 1) + ")");
  return h;
}

}  // namespace

std::function<int()> add_topo_command(CLI::App& app, CLI::App*& sub) {
  auto o = std::make_shared<TopoOptions>();
  o->scenario.topology = "fat-tree";
  sub = app.add_subcommand("topo", "topology summary, equal-cost paths and hop counts between hosts");
  add_key_options(*sub, o->scenario, Command::lat, topo_key);
  for (const char* pair : {"--from", "--to"}) sub->get_option(pair)->default_str("")->description("with the other: one host pair's paths");
  sub->add_option("--set", o->scenario.sets, "override a parameter, key=value (e.g. switch.cut_through=off)");
  sub->add_flag("--hops", o->hops, "histogram of hop counts over all host pairs");
  sub->add_flag("--json", o->json, "print JSON");
  sub->add_option("--write-topology", o->write,
                  "also write the fabric as a topology file (rdmasim-topology 1) to PATH, to edit and read back with "
                  "--topology file");
  CLI::App* topo = sub;
  return [o, topo]() {
    const bool from = topo->count("--from") > 0, to = topo->count("--to") > 0;
    if (from != to) throw std::invalid_argument("--from and --to go together");
    if (o->scenario.topology == "loopback") throw std::invalid_argument("--topology: loopback has no cables to describe");
    Scenario s = make_scenario(Command::lat);
    s.options = o->scenario;
    const LatConfig c = scenario_config(s);
    const Topology t = *FabricNetwork::make_topology(c);
    if (!o->write.empty()) write_text_file(o->write, write_topology_file(t), "--write-topology");
    std::optional<std::pair<int, int>> pair;
    if (from) {
      pair = std::pair{host_arg(t, o->scenario.from, "--from"), host_arg(t, o->scenario.to, "--to")};
      if (pair->first == pair->second) throw std::invalid_argument("--from and --to name the same host");
    }
    const TopoReport r = make_topo_report(t, pair, o->hops, c);
    if (o->json)
      std::cout << versioned(topo_json(r)).dump(2) << "\n";
    else
      print_topo(stdout, r);
    return 0;
  };
}

}  // namespace rdmasim::cli
