// SimWorld: everything one simulation of two hosts needs — the scheduler, the packet and
// message pools, the named random streams, both hosts' resources and the packet-level fabric
// (when a path crosses one).
// Each workload owns one, so simulations never share state.
#pragma once

#include <array>
#include <cstdint>

#include "core/pool.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "sim/path_runner.hpp"

namespace rdmasim {

struct SimWorld : FabricProvider {
  explicit SimWorld(std::uint64_t seed) : seed_(seed) {}
  SimWorld(const SimWorld&) = delete;
  SimWorld& operator=(const SimWorld&) = delete;

  std::array<HostResources*, 2> hosts() { return {&a, &b}; }
  /// `spec` on the two hosts; `reversed`: its side 0 is host B (a flow from B to A); its CPU
  /// work on core `core` of each host.
  std::unique_ptr<PathInstance> instance(const PathSpec& spec, MessageSink& sink, bool reversed = false, int core = 0) {
    return std::make_unique<PathInstance>(ctx, reversed ? std::array<HostResources*, 2>{&b, &a} : hosts(), spec, sink,
                                          this, nullptr, std::array<int, 2>{core, core});
  }
  /// Runs the simulation to its end, then checks the fabric's invariants (packets conserved,
  /// none dropped in a lossless class: Fabric::check_invariants throws std::logic_error).
  void run() {
    sched.run();
    if (fabric) fabric->check_invariants();
  }
  /// The simulation's fabric, built by the first network stage; every later one must name the
  /// same topology and options.
  Fabric& fabric_for(const NetworkSpec& spec) override {
    if (!fabric) fabric = std::make_unique<Fabric>(sched, spec.topology, spec.options, seed_);
    else if (fabric->topology_ptr() != spec.topology) throw std::logic_error("one simulation, one fabric topology");
    return *fabric;
  }

  std::uint64_t seed_;
  Scheduler sched;
  Pool<Packet> packets;
  Pool<Message> messages;
  SimContext ctx{sched, packets, messages};
  HostResources a{sched, seed_, 0}, b{sched, seed_, 1};
  /// Host `index` of a fabric run (hosts 0 and 1 are `a` and `b`'s streams).
  std::unique_ptr<HostResources> host(int index) { return std::make_unique<HostResources>(sched, seed_, index); }
  std::unique_ptr<Fabric> fabric;  // after everything it schedules on and sends to
};

}  // namespace rdmasim
