#include "verbs/world.hpp"

#include <stdexcept>

namespace rdmasim::verbs {

World::World(const ClusterConfig& c)
    : cfg_(c), ctx_{sched_, packets_, messages_} {
  validate(cfg_.profile);
  if (cfg_.hosts < 2) throw std::invalid_argument("a cluster needs at least 2 hosts, got " + std::to_string(cfg_.hosts));
  if (!cfg_.fabric) {
    // Two hosts share one cable; more cannot: put them on one switch.
    FabricConfig f;
    f.topology = cfg_.hosts > 2 ? "single-switch" : "back-to-back";
    f.hosts = cfg_.hosts;
    cfg_.fabric = f;
  }
  {
    LatConfig lc;
    lc.profile = cfg_.profile;
    lc.link_layer = cfg_.link_layer;
    lc.topology = LatTopology::fabric;
    lc.fabric = *cfg_.fabric;
    topology_ = FabricNetwork::make_topology(lc);
    fabric_options_ = fabric_options(lc);
    if (topology_->host_count() < cfg_.hosts)
      throw std::invalid_argument("the " + cfg_.fabric->topology + " topology has " +
                                  std::to_string(topology_->host_count()) + " hosts, the cluster wants " +
                                  std::to_string(cfg_.hosts));
  }
  for (int i = 0; i < cfg_.hosts; ++i) hosts_.push_back(std::make_unique<HostResources>(sched_, cfg_.seed, i));
  for (int i = 0; i < cfg_.hosts; ++i) devices_.push_back(std::make_unique<Device>(*this, i, *hosts_[static_cast<std::size_t>(i)]));
}

World::~World() {
  for (Root& r : roots_)
    if (r.h) r.h.destroy();
}

NetworkAppender World::network(int from, int to, std::uint16_t sport) const {
  const FabricNetwork net(topology_, cfg_.profile, fabric_options_, from, to, sport);
  return net.appender();
}

Fabric& World::fabric_for(const NetworkSpec& spec) {
  if (!fabric_) fabric_ = std::make_unique<Fabric>(sched_, spec.topology, spec.options, cfg_.seed);
  else if (fabric_->topology_ptr() != spec.topology) throw std::logic_error("one simulation, one fabric topology");
  return *fabric_;
}

void World::spawn(int host, std::coroutine_handle<Task::promise_type> h) {
  roots_.push_back(Root{host, h});
  sched_.schedule_at(sched_.now(), *this, reinterpret_cast<std::uintptr_t>(h.address()));
}

void World::run() {
  while (sched_.pending() > ctx_.idle_events && sched_.step()) {
  }
}

void World::on_event(std::uint64_t arg) { std::coroutine_handle<>::from_address(reinterpret_cast<void*>(arg)).resume(); }

void World::rethrow() {
  for (Root& r : roots_)
    if (r.h && r.h.done() && r.h.promise().error) {
      std::exception_ptr e = r.h.promise().error;
      r.h.promise().error = nullptr;
      std::rethrow_exception(e);
    }
  if (fabric_) fabric_->check_invariants();
}

bool World::all_done() const {
  for (const Root& r : roots_)
    if (!r.h.done()) return false;
  return true;
}

std::string World::waiting() const {
  std::string s;
  for (const Root& r : roots_)
    if (!r.h.done()) {
      const std::string w = devices_[static_cast<std::size_t>(r.host)]->waiting();
      s += "host " + std::to_string(r.host) + ": " + (w.empty() ? "sleeping" : w) + "\n";
    }
  return s;
}

}  // namespace rdmasim::verbs
