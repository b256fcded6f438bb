// SimWorld: everything one simulation of two hosts needs — the scheduler, the packet and
// message pools, the named random streams, both hosts' resources and the packet-level fabric
// (when a path crosses one).
// Each workload owns one, so simulations never share state.
//
// Partitioned (partition(), a fabric run on threads): the fabric's nodes run in the logical
// processes of a ParallelRun (sim/fabric_partition.hpp), each LP with a scheduler, pools and a
// SimContext of its own; a host's resources, its stages and its side of each RC connection
// run in its attachment switch's LP. `sched`, `packets`, `messages` and `ctx` then hold nothing.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/parallel_run.hpp"
#include "core/pool.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "sim/fabric_partition.hpp"
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
  /// Runs the simulation to its end (partitioned: on `threads` workers), then checks the
  /// fabric's invariants (packets conserved, none dropped in a lossless class:
  /// Fabric::check_invariants throws std::logic_error).
  /// Over `ranks` (MPI, partitioned runs only) this process runs its share of the LPs: the
  /// invariants hold only once the ranks' counts are merged (Fabric::merge_ranks), where the
  /// caller checks them.
  void run(int threads = 1, RankExchange* ranks = nullptr) {
    if (ranks && ranks->ranks() > 1) {
      if (!parallel) throw std::logic_error("SimWorld::run: over ranks, unpartitioned");
      parallel->run(1, Time::max(), ranks);
      return;
    }
    if (parallel) parallel->run(threads);
    else sched.run();
    if (fabric) fabric->check_invariants();
  }
  /// The simulation's fabric, built by the first network stage; every later one must name the
  /// same topology and options.
  Fabric& fabric_for(const NetworkSpec& spec) override;

  /// Cuts a fabric run over `topology` into LPs (before any host, path or fabric is made).
  void partition(const Topology& topology, std::int64_t velocity_mps);
  bool partitioned() const { return parallel != nullptr; }
  /// The context host `index` runs in (the one context unless partitioned).
  SimContext& ctx_of(int index) { return parallel ? lps_[static_cast<std::size_t>(host_lp_.at(static_cast<std::size_t>(index)))]->ctx : ctx; }
  /// The LP host `index` runs in (0 unpartitioned).
  int lp_of(int index) const { return parallel ? host_lp_.at(static_cast<std::size_t>(index)) : 0; }
  /// Events run, and packets that reached a merge out of order, in every context.
  std::uint64_t executed() const { return parallel ? parallel->executed() : sched.executed(); }
  std::uint64_t out_of_order() const;
  /// Frees the packet pools' storage once every packet is back (Pool::trim_all).
  void trim_packets();

  std::uint64_t seed_;
  Scheduler sched;
  Pool<Packet> packets;
  Pool<Message> messages;
  SimContext ctx{sched, packets, messages};
  HostResources a{sched, seed_, 0}, b{sched, seed_, 1};
  /// Host `index` of a fabric run (hosts 0 and 1 are `a` and `b`'s streams), in its LP.
  std::unique_ptr<HostResources> host(int index) {
    return std::make_unique<HostResources>(ctx_of(index).sched, seed_, index);
  }
  struct Lp {  // one logical process's own scheduler (the run's), pools and context
    explicit Lp(Scheduler& s) : ctx{s, packets, messages} { ctx.shared = true; }
    Pool<Packet> packets;
    Pool<Message> messages;
    SimContext ctx;
  };
  std::unique_ptr<ParallelRun> parallel;  // partitioned: the LPs (before the fabric, which sends to them)
  FabricPartition cut;
  std::vector<std::unique_ptr<Lp>> lps_;
  std::vector<int> host_lp_;            // by host
  std::vector<Pool<Packet>*> packet_pools_;    // the LPs' (balanced between windows)
  std::vector<Pool<Message>*> message_pools_;
  std::unique_ptr<Fabric> fabric;  // after everything it schedules on and sends to
};

}  // namespace rdmasim
