// Host resources and PathInstance: a PathSpec instantiated as stage objects bound to the
// resources of the two hosts, ready to carry messages.
//
// HostResources are per host: its CPU cores (a path's core stages run on the core it is
// placed on, core 0 unless told), the two directions of its NIC's PCIe link, its
// egress link transmitter and its interrupt moderator. Every PathInstance built on the same
// resources contends for them (a ping-pong's two directions share both hosts). Network stages
// hand packets to the simulation's packet-level fabric (sim/fabric.hpp).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "model/path.hpp"
#include "rdmasim/latency.hpp"
#include "sim/fabric.hpp"
#include "sim/fifo_server.hpp"
#include "sim/interrupt_moderator.hpp"
#include "sim/rc_connection.hpp"
#include "sim/stage.hpp"
#include "sim/tcp_connection.hpp"

namespace rdmasim {

class NetworkStage;

struct HostResources {
  /// Host `index` of a run seeded `seed` (its random stream is that host's alone).
  HostResources(Scheduler& s, std::uint64_t seed, int index)
      : core(s), pcie_up(s), pcie_down(s), wire(s), moderator(s), nic_engine(s), jitter(seed, "host.jitter", static_cast<std::uint64_t>(index)), sched_(&s) {}
  FifoServer core;  // core 0: where every path runs unless placed on another (core_at)
  FifoServer pcie_up;
  FifoServer pcie_down;
  FifoServer wire;
  InterruptModerator moderator;
  FifoServer nic_engine;   // the adapter's WQE processing shared by all its QPs (nic.adapter_wqe)
  std::uint64_t interrupts = 0;  // interrupts the host's core took
  /// The random part of its stages' delays (nic.tx_jitter, OS noise on polls): drawn in the
  /// order of this host's own events, so another host's traffic does not change them.
  RandomStream jitter;
  /// The GPU's device-to-host copy engine (gpu_copy), its host-to-device one (gpu_copy_h2d: a GPU
  /// has one per direction), and the inter-socket link towards the GPU's socket (socket_up) and
  /// back towards the NIC (socket_down). Each exists once a path uses it: most hosts of a fabric
  /// run use none, and each would cost sizeof(FifoServer) (216 B).
  FifoServer& staging(ResourceKind r);
  /// Both copy engines' busy time (staging).
  Time gpu_copy_busy() const;
  /// Core i of the host (0: `core`); cores 1.. exist once a path is placed on them.
  FifoServer& core_at(int i);
  /// Cores that exist (1 + those paths were placed on).
  int cores() const { return 1 + static_cast<int>(more_cores_.size()); }
  /// CPU accounting: busy time of the cores (summed), interrupts, moderation (rdmasim/latency.hpp).
  HostCounters counters() const;

 private:
  Scheduler* sched_;
  std::vector<std::unique_ptr<FifoServer>> more_cores_;  // cores 1..
  std::array<std::unique_ptr<FifoServer>, 4> staging_;    // gpu_copy, gpu_copy_h2d, socket_up, socket_down
};

/// Where network stages find their packet-level fabric (one per simulation).
class FabricProvider {
 public:
  virtual Fabric& fabric_for(const NetworkSpec& spec) = 0;

 protected:
  ~FabricProvider() = default;
};

/// Told when a message's token passes a point of its path (PathInstance::observe_after).
class StageObserver {
 public:
  virtual void passed(Packet& token) = 0;

 protected:
  ~StageObserver() = default;
};

/// The RC transport's options for an acknowledged path across `n` (its parameters, rate
/// control, line rate and control-frame sizes).
RcOptions rc_options(const NetworkSpec& n);

class PathInstance {
 public:
  /// An acknowledged path (rc_data and rc_ack network stages) runs on an RC transport of its
  /// own, or on `shared_rc` (which outlives the path) when one is given.
  /// `core`: the core of each host its `core` stages run on (a process pinned there).
  PathInstance(SimContext& ctx, std::array<HostResources*, 2> hosts, const PathSpec& spec, MessageSink& sink,
               FabricProvider* fabrics = nullptr, RcConnection* shared_rc = nullptr, std::array<int, 2> core = {0, 0})
      : PathInstance(std::array<SimContext*, 2>{&ctx, &ctx}, hosts, spec, sink, fabrics, shared_rc, core) {}
  /// Each side's stages (and its side of the RC transport) in that side's context: the two
  /// hosts' logical processes in a partitioned run. Messages are posted on side 0.
  PathInstance(std::array<SimContext*, 2> ctx, std::array<HostResources*, 2> hosts, const PathSpec& spec,
               MessageSink& sink, FabricProvider* fabrics = nullptr, RcConnection* shared_rc = nullptr,
               std::array<int, 2> core = {0, 0});
  PathInstance(const PathInstance&) = delete;
  PathInstance& operator=(const PathInstance&) = delete;
  ~PathInstance();

  /// Starts `m` now: its token enters the first stage with an empty ledger.
  void post(Message& m);
  /// Starts `m` now as the continuation of work done for it since `posted` (a post list's
  /// shared doorbell, PathSpecs cut by build_post_list_paths): the token carries `ledger`,
  /// whose total must be now - posted, so the message's ledger still sums to its latency.
  void post(Message& m, const Ledger& ledger, Time posted);
  std::size_t stage_count() const { return stages_.size(); }
  /// Tells `o` whenever a packet leaves the stage labelled `label` (for a merge: the message is
  /// complete there), before it continues. Throws std::logic_error if no such stage exists.
  void observe_after(const std::string& label, StageObserver& o);
  /// The QP pair (connection) this path belongs to: a capture's DestQP (default 0).
  void set_connection(std::uint32_t c);
  /// The network stages of this path (one per direction across a fabric).
  const std::vector<const NetworkStage*>& network_stages() const { return network_; }
  /// The RC transport of an acknowledged path across a fabric (nullptr otherwise).
  const RcConnection* rc() const { return rc_; }
  /// The packet-level TCP of a TCP path across a fabric (nullptr otherwise).
  const TcpConnection* tcp() const { return tcp_.get(); }
  TcpConnection* tcp() { return tcp_.get(); }
  RcConnection* rc_mut() { return rc_; }
  /// Its packets' traffic class, both ways (ACKs with the data; CNPs keep their own class).
  void set_traffic_class(int tc);
  /// Nothing of this path is left to happen: its RC (if its own) is quiescent and none of its
  /// packets is in the fabric. Host stages are not checked: a message's completion means its
  /// packets have left them (for an acknowledged path, the one case this is meant for).
  bool idle() const { return quiet_here().idle(); }
  /// What idle() reads, as this process holds it. Over MPI ranks each process holds its LPs'
  /// share (the RC's requester state on the requester's rank, a fabric flow's counts where its
  /// packets went): the path is idle when every rank's RC is quiescent, no rank queues any of
  /// its packets and the in-flight counts sum to 0 (each rank's alone may be negative).
  struct Quiet {
    bool rc_quiescent = true;
    bool queued = false;         // a packet of it waits in a source NIC's send queue
    std::int64_t in_flight = 0;  // its packets injected and neither delivered nor dropped
    bool idle() const { return rc_quiescent && !queued && in_flight == 0; }
  };
  Quiet quiet_here() const;
  /// Gives its fabric flows back before it is destroyed mid-run (idle() must hold, or over ranks
  /// every rank's quiet_here() added up to idle: `counted_over_ranks`): the path must not be
  /// used again.
  void release_fabric_flows(bool counted_over_ranks = false);

 private:
  void link_route();  // each stage to the next on route_ (Stage::link)

  SimContext& ctx_;  // side 0's (where messages are posted)
  std::array<std::unique_ptr<FifoServer>, 2> engines_;  // qp_engine per side (before the stages bound to them)
  std::vector<std::unique_ptr<Stage>> stages_;
  std::vector<const std::string*> labels_;  // interned (SimContext::labels)
  std::vector<const NetworkStage*> network_;
  std::unique_ptr<NetworkStage> tcp_ack_;  // TCP: the reverse flow its ACKs take (not on the route)
  std::unique_ptr<RcConnection> own_rc_;  // after the stages it is bound to
  RcConnection* rc_ = nullptr;            // own_rc_ or a shared one
  std::unique_ptr<TcpConnection> tcp_;
  Route route_;
};

}  // namespace rdmasim
