// World: everything one verbs simulation (a Cluster) shares — the scheduler, the packet and
// message pools, the named random streams, every host's resources and Device, the switched
// fabric when there is one, and the application coroutines.
//
// Hosts are joined by one cable (two hosts, like `rdmasim lat`'s back-to-back) or are the
// hosts of a switched topology; network(from, to, sport) appends the way between two hosts
// to a path, as model/path does for `lat`. No global state: several Worlds can run side by side.
#pragma once

#include <coroutine>
#include <exception>
#include <memory>
#include <vector>

#include "core/pool.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "model/path.hpp"
#include "sim/fabric.hpp"
#include "sim/path_runner.hpp"
#include "verbs/device.hpp"

namespace rdmasim::verbs {

class World final : public FabricProvider, public EventHandler {
 public:
  explicit World(const ClusterConfig& c);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int host_count() const { return static_cast<int>(devices_.size()); }
  Device& device(int host) { return *devices_[static_cast<std::size_t>(host)]; }
  const ClusterConfig& config() const { return cfg_; }
  Scheduler& sched() { return sched_; }
  SimContext& ctx() { return ctx_; }
  Pool<Message>& messages() { return messages_; }
  /// A message from the pool with an id of its own: the ledger's critical-path rule tells a
  /// wait behind the same message from a wait behind another by the id (sim/critical_path.hpp).
  Message& new_message() {
    Message& m = *messages_.acquire();
    m.id = next_message_id_++;
    return m;
  }
  Pool<Packet>& packets() { return packets_; }
  /// Appends the network from host `from` to host `to` (side 0 -> 1 of a path whose sides are
  /// those hosts) and back (side 1 -> 0); `sport` is the RoCEv2 UDP source port of the QP.
  NetworkAppender network(int from, int to, std::uint16_t sport) const;
  Fabric& fabric_for(const NetworkSpec& spec) override;

  void spawn(int host, std::coroutine_handle<Task::promise_type> h);
  /// Runs until no event is left but those that will find nothing to do (an RC timer with
  /// nothing left to resend: SimContext::idle_events); they do not run, so they do not move the
  /// clock past the last thing that happened.
  void run();
  /// Rethrows the first exception of a finished application, then checks the fabric's
  /// invariants (Fabric::check_invariants).
  void rethrow();
  bool all_done() const;
  std::string waiting() const;
  void on_event(std::uint64_t arg) override;  // resumes a coroutine (arg = its address)

 private:
  ClusterConfig cfg_;
  Scheduler sched_;
  Pool<Packet> packets_;
  Pool<Message> messages_;
  std::uint64_t next_message_id_ = 1;
  SimContext ctx_;
  std::vector<std::unique_ptr<HostResources>> hosts_;
  std::shared_ptr<const Topology> topology_;
  FabricOptions fabric_options_;
  std::unique_ptr<Fabric> fabric_;
  std::vector<std::unique_ptr<Device>> devices_;
  struct Root {
    int host;
    std::coroutine_handle<Task::promise_type> h;
  };
  std::vector<Root> roots_;
};

}  // namespace rdmasim::verbs
