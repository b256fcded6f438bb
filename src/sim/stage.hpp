// Stages: the pieces a packet is handed through on its route, and the context they share.
//
// A Route is the ordered list of stages of one PathSpec; each stage is linked to the one after
// it, and a packet remembers its route for the sink at the end. A stage does its work (a
// delay, a turn on a FIFO server, a split, a merge, a moderation wait), charges the elapsed
// time to the packet's ledger, and forwards the packet to the next stage; after the last stage
// the route's MessageSink receives the message token. Nothing here allocates per packet
// except through the pools, which stop growing once they reach the peak number of live
// packets.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <string>
#include <vector>

#include "core/event_relay.hpp"
#include "core/pool.hpp"
#include "core/scheduler.hpp"
#include "net/packet.hpp"
#include "model/path.hpp"
#include "sim/intern_table.hpp"
#include "sim/tracer.hpp"
#include "sim/wire_tap.hpp"

namespace rdmasim {

class MessageSink {
 public:
  /// Receives the message token at the end of its route; the sink owns it from then on.
  virtual void delivered(Packet& token) = 0;

 protected:
  ~MessageSink() = default;
};

/// An optional observer of completed messages (the dashboard's live latency and throughput):
/// told once per message when its owner releases it, i.e. when the workload saw it complete.
class MessageObserver {
 public:
  virtual void message_done(const Message& m, Time now) = 0;

 protected:
  ~MessageObserver() = default;
};

struct SimContext {
  Scheduler& sched;
  Pool<Packet>& packets;
  Pool<Message>& messages;
  std::uint64_t out_of_order = 0;  // packets that reached a merge after a later packet of their message
  // Pending events that will find nothing to do (an RC retransmission timer with nothing left
  // unacknowledged): a run may end when only these are left, so they do not move its clock.
  std::size_t idle_events = 0;
  Tracer* tracer = nullptr;        // optional trace of the first messages (sim/tracer.hpp)
  WireTap* tap = nullptr;          // optional packet capture (sim/wire_tap.hpp)
  MessageObserver* observer = nullptr;  // optional (workload/run_probe.hpp)
  InternTable<Cost> costs{};           // the stages' costs, one copy each (sim/intern_table.hpp)
  InternTable<std::string> labels{};   // the stages' labels, one copy each
  EventRelay relay{};                  // timers of handlers freed mid-run (an open-loop flow's RC)
  // One of several contexts of a partitioned run (one per logical process): a message's last
  // pin may then be dropped on another LP's worker while its owner releases it, so pins and
  // the owner's release meet in one atomic word.
  bool shared = false;

  static constexpr std::uint32_t kOrphaned = 1u << 31;  // Message::pins: released by its owner
  /// An RC copy or resend of `m`'s packets now refers to it.
  void pin(Message& m) {
    if (shared) std::atomic_ref<std::uint32_t>(m.pins).fetch_add(1, std::memory_order_relaxed);
    else ++m.pins;
  }
  /// The owner is done with `m`; it returns to the pool once no RC copy or resend refers to it.
  void release_message(Message& m) {
    if (observer) observer->message_done(m, sched.now());
    const std::uint32_t before = shared ? std::atomic_ref<std::uint32_t>(m.pins).fetch_or(kOrphaned, std::memory_order_acq_rel)
                                        : std::exchange(m.pins, m.pins | kOrphaned);
    if (before == 0) messages.release(&m);
  }
  /// An RC copy or resend of `m`'s packets is gone.
  void unpin(Message& m) {
    const std::uint32_t before = shared ? std::atomic_ref<std::uint32_t>(m.pins).fetch_sub(1, std::memory_order_acq_rel) : m.pins--;
    if (before == (kOrphaned | 1)) messages.release(&m);
  }
  /// A transport's retransmission copy of `p`: out of every queue, no pacer, pinning its message.
  Packet& pinned_copy(const Packet& p) {
    Packet& c = *packets.acquire();
    c = p;
    c.next_in_queue = nullptr;
    c.pacer = nullptr;
    c.pinned = true;
    pin(*c.msg);
    return c;
  }
  /// Returns a packet to the pool, unpinning its message if it was a copy.
  void release_packet(Packet& p) {
    if (p.pinned) unpin(*p.msg);
    packets.release(&p);
  }
};

class Stage : public EventHandler {
 public:
  explicit Stage(SimContext& ctx) : ctx_(ctx) {}
  virtual ~Stage() = default;
  virtual void receive(Packet& p) = 0;
  /// The stage after this one on its route (nullptr: the last, the route's sink follows), set
  /// once the route is built; a wrapping stage passes it on to the stage it wraps.
  virtual void link(Stage* next) { next_ = next; }
  /// Where this stage's time goes in a trace (set when the simulation is traced).
  TraceSite site() const { return site_; }
  void set_site(TraceSite s) { site_ = s; }

 protected:
  void forward(Packet& p);
  static Packet& packet_of(std::uint64_t arg) { return *reinterpret_cast<Packet*>(static_cast<std::uintptr_t>(arg)); }
  static std::uint64_t arg_of(Packet& p) { return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&p)); }
  SimContext& ctx_;
  Stage* next_ = nullptr;
  TraceSite site_ = 0;
};

class NetworkStage;

struct Route {
  std::vector<Stage*> hops;
  MessageSink* sink = nullptr;
  std::uint32_t connection = 0;  // the QP pair it belongs to (a capture's DestQP)
  // An acknowledged path's network stages (sim/rc_connection.hpp): the RC transport hands each
  // packet to its own route's stages, so one RC can serve several paths (a verbs QP's requests).
  NetworkStage* rc_data = nullptr;
  NetworkStage* rc_ack = nullptr;
};

inline void Stage::forward(Packet& p) {
  if (next_) [[likely]]
    return next_->receive(p);
  if (p.trail >= 0) [[unlikely]] ctx_.tracer->delivered(p, ctx_.sched.now());
  p.route->sink->delivered(p);
}

}  // namespace rdmasim
