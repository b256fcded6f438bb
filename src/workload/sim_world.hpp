// SimWorld: everything one simulation of two hosts needs — the scheduler, the packet and
// message pools, the named random streams, both hosts' resources and the fabric's wires.
// Each workload owns one, so simulations never share state.
#pragma once

#include <array>
#include <cstdint>

#include "core/pool.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "sim/path_runner.hpp"

namespace rdmasim {

struct SimWorld {
  explicit SimWorld(std::uint64_t seed) : jitter(seed, "nic.tx_jitter") {}
  SimWorld(const SimWorld&) = delete;
  SimWorld& operator=(const SimWorld&) = delete;

  std::array<HostResources*, 2> hosts() { return {&a, &b}; }
  std::unique_ptr<PathInstance> instance(const PathSpec& spec, MessageSink& sink) {
    return std::make_unique<PathInstance>(ctx, hosts(), spec, sink, &wires);
  }

  Scheduler sched;
  Pool<Packet> packets;
  Pool<Message> messages;
  RandomStream jitter;
  SimContext ctx{sched, packets, messages, jitter};
  HostResources a{sched}, b{sched};
  FabricWires wires{sched};
};

}  // namespace rdmasim
