// Host resources and PathInstance: a PathSpec instantiated as stage objects bound to the
// resources of the two hosts, ready to carry messages.
//
// HostResources are per host: its CPU core, the two directions of its NIC's PCIe link, its
// egress link transmitter and its interrupt moderator. Every PathInstance built on the same
// resources contends for them (a ping-pong's two directions share both hosts).
#pragma once

#include <array>
#include <map>
#include <memory>
#include <vector>

#include "model/path.hpp"
#include "sim/fifo_server.hpp"
#include "sim/interrupt_moderator.hpp"
#include "sim/stage.hpp"

namespace rdmasim {

struct HostResources {
  explicit HostResources(Scheduler& s) : core(s), pcie_up(s), pcie_down(s), wire(s), moderator(s) {}
  FifoServer core;
  FifoServer pcie_up;
  FifoServer pcie_down;
  FifoServer wire;
  InterruptModerator moderator;
};

/// The transmitters of a fabric's cables, one per cable direction (StageSpec::instance).
class FabricWires {
 public:
  explicit FabricWires(Scheduler& s) : sched_(s) {}
  FifoServer& at(int instance);

 private:
  Scheduler& sched_;
  std::map<int, std::unique_ptr<FifoServer>> wires_;
};

class PathInstance {
 public:
  PathInstance(SimContext& ctx, std::array<HostResources*, 2> hosts, const PathSpec& spec, MessageSink& sink,
               FabricWires* wires = nullptr);
  PathInstance(const PathInstance&) = delete;
  PathInstance& operator=(const PathInstance&) = delete;

  /// Starts `m` now: its token enters the first stage with an empty ledger.
  void post(Message& m);
  std::size_t stage_count() const { return stages_.size(); }

 private:
  /// Appends the stages of `spec` to `route`; spray alternatives become routes of their own.
  void build(const PathSpec& spec, Route& route, std::array<HostResources*, 2> hosts, FabricWires* wires);

  SimContext& ctx_;
  std::vector<std::unique_ptr<Stage>> stages_;
  std::vector<std::unique_ptr<Route>> alternatives_;
  Route route_;
};

}  // namespace rdmasim
