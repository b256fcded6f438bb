#include "cmd_topo.hpp"

#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>

#include "io/json_report.hpp"
#include "io/topo_report.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim::cli {
namespace {

struct TopoOptions {
  TopologyParams topo;
  std::string from, to;
  bool hops = false, json = false;
  std::int64_t size = 2, mtu = 4096;
  std::string profile = "default";
  std::vector<std::string> sets;
};

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
  o->topo.name = "fat-tree";
  sub = app.add_subcommand("topo", "topology summary, equal-cost paths and hop counts between hosts");
  std::vector<std::string> names;
  for (const TopologyBuilder& b : topology_builders()) names.push_back(b.name);
  sub->add_option("--topology", o->topo.name, "back-to-back | single-switch | leaf-spine | fat-tree | ring")
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  sub->add_option("--k", o->topo.k, "fat-tree arity (even)")->capture_default_str();
  sub->add_option("--hosts", o->topo.hosts, "single-switch: number of hosts")->capture_default_str();
  sub->add_option("--leaves", o->topo.leaves, "leaf-spine: leaves")->capture_default_str();
  sub->add_option("--spines", o->topo.spines, "leaf-spine: spines")->capture_default_str();
  sub->add_option("--hosts-per-leaf", o->topo.hosts_per_leaf, "leaf-spine: hosts per leaf")->capture_default_str();
  sub->add_option("--switches", o->topo.switches, "ring: switches")->capture_default_str();
  sub->add_option("--hosts-per-switch", o->topo.hosts_per_switch, "ring: hosts per switch")->capture_default_str();
  sub->add_option("--ring-routing", o->topo.ring_routing, "ring: clockwise | up-down")
      ->check(CLI::IsMember({"clockwise", "up-down"}))
      ->capture_default_str();
  sub->add_option("--from", o->from, "source host (h0 or 0)");
  sub->add_option("--to", o->to, "destination host");
  sub->add_flag("--hops", o->hops, "histogram of hop counts over all host pairs");
  sub->add_option("-s,--size", o->size, "message size for the per-path latency (RDMA WRITE)")->capture_default_str();
  sub->add_option("-m,--mtu", o->mtu, "RDMA path MTU")->capture_default_str();
  sub->add_option("--profile", o->profile, "parameter profile")->capture_default_str();
  sub->add_option("--set", o->sets, "override a parameter, key=value (e.g. switch.cut_through=off)");
  sub->add_flag("--json", o->json, "print JSON");
  return [o]() {
    LatConfig c;
    c.size = Bytes(o->size);
    c.mtu = Bytes(o->mtu);
    c.profile = make_profile(o->profile);
    for (const std::string& s : o->sets) apply_override(c.profile, s);
    validate(c);
    TopologyParams tp = o->topo;
    tp.host_rate = tp.fabric_rate = c.profile.link.rate;
    tp.host_length_mm = c.profile.link.length_mm;
    tp.fabric_length_mm = c.profile.sw.fabric_length_mm;
    const Topology t = build_topology(tp);
    if (o->from.empty() != o->to.empty()) throw std::invalid_argument("--from and --to go together");
    std::optional<std::pair<int, int>> pair;
    if (!o->from.empty()) {
      pair = std::pair{host_arg(t, o->from, "--from"), host_arg(t, o->to, "--to")};
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
