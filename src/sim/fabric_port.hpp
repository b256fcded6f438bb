// Fabric::Port: one end of a cable inside the packet-level fabric (sim/fabric.hpp) — its
// transmitter and per-class egress queues towards the peer (strict priority, or a registered
// queue scheduler), the PFC / credit state it
// obeys, and the ingress accounting of the frames it received and its node still buffers.
// Internal to the fabric's sources (fabric.cpp, fabric_links.cpp, fabric_pfc.cpp, fabric_stats.cpp,
// fabric_parallel.cpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/scheduler.hpp"
#include "net/packet.hpp"
#include "rdmasim/queue_scheduler.hpp"
#include "sim/critical_path.hpp"
#include "sim/fabric.hpp"

namespace rdmasim {
namespace fabric_detail {

inline constexpr int kClasses = 8;
inline constexpr std::uint8_t kNoClass = 0xff;  // Port::Classes::slot of a class no frame carries
inline constexpr std::int64_t kPauseFrameWire = 84;  // 64 B MAC control frame + preamble/SFD + IFG
// Control events (Fabric::on_control): the kind in bits 28..31 of the argument.
enum Control : std::uint64_t {
  kPause = 1, kResume = 2, kCredit = 3, kWatchdog = 4, kRestore = 5, kDeadlockCheck = 6, kLinkDown = 7, kLinkUp = 8, kReroute = 9
};
// A link change planned for a partitioned run (Fabric::plan_convergence): one end's. Those the
// constructor scheduled for the unpartitioned run lack it and are ignored once partitioned.
inline constexpr std::uint64_t kPlanned = std::uint64_t{1} << 24;
// An event or crossing argument that is a packet, and back.
inline std::uint64_t packet_arg(Packet& p) { return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&p)); }
inline Packet& arg_packet(std::uint64_t a) { return *reinterpret_cast<Packet*>(static_cast<std::uintptr_t>(a)); }

}  // namespace fabric_detail

// One traffic class of a port: its egress queue and its ingress accounting, one cache line.
struct alignas(64) Fabric::PortClass {
  Packet* head = nullptr;  // egress: the strict-priority queue toward the peer
  Packet* tail = nullptr;
  std::int64_t qbytes = 0;
  std::int64_t in_bytes = 0, in_headroom = 0;  // ingress: frames received from the peer and buffered at this node
  std::int64_t credits = 0;  // IB: room in the peer's input buffer for this VL
  Time paused_since{};       // when its pause began (switch ports)
  std::uint32_t wd_epoch = 0;  // PFC watchdog: bumped by every XON
};

struct alignas(64) Fabric::Port final : EventHandler {
  Port(Fabric& f, int i) : fabric(f), id(i) {}
  void on_event(std::uint64_t arg) override { fabric.on_port(*this, arg); }

  using Class = PortClass;
  /// Its traffic classes' lines, `cls[tc]`: one per class frames may carry
  /// (FabricOptions::classes), consecutive in the fabric's class store, the lowest class first.
  /// A class no frame carries has none (its slot is kNoClass; inject refuses such a frame).
  struct Classes {
    Class* line = nullptr;                                 // its first class's line
    std::array<std::uint8_t, fabric_detail::kClasses> slot{};  // by class, its line's index (the fabric's map)
    Class& operator[](unsigned tc) const { return line[slot[tc]]; }
    Class* begin() const { return line; }
    Class* end() const {
      return line + std::count_if(slot.begin(), slot.end(), [](std::uint8_t s) { return s != fabric_detail::kNoClass; });
    }
  };

  // Member order follows a packet-hop (arrival, admit, start, free): the scalars every frame
  // touches fill the first two cache lines, the critical path's ledger the next two, then the
  // per-frame counters; scheduled losses apart. Each traffic class's queue and ingress
  // accounting is a cache line of the fabric's class store (`cls`).
  Fabric& fabric;
  int id;
  int node = 0, peer = 0;
  int cur_in = -1;  // ingress port the frame in transmission was buffered under (-1: a host)
  bool peer_switch = false;
  bool node_switch = false;  // its own node is a switch (not a host NIC)
  bool busy = false;
  bool blocked = false;
  bool down = false;    // its link is down (link fault): frames arriving here are lost
  bool faulty = false;  // frames it sends may be lost on arrival: scheduled drops, windows or loss
  bool scheduled = false;  // a switch port with a queue scheduler (Fabric::schedulers_)
  // Into a cut-through switch: every frame may be handed on early (no cable out of the peer
  // is faster than this one), or only those whose next hops are not faster (checked per frame).
  enum class CutThrough : std::uint8_t { off, always, per_frame } cut_through = CutThrough::off;
  std::uint8_t backlog = 0;      // switch port: priorities with frames queued
  std::uint8_t paused = 0;       // PFC: priorities the peer has paused
  std::uint8_t wd_dropping = 0;  // PFC watchdog: priorities in drop mode
  std::uint8_t xoff_sent = 0;    // ingress: priorities it has sent XOFF for
  std::uint8_t cur_tc = 0;
  std::uint16_t lp = 0;  // the logical process its node runs in (Fabric::partition; 0 when unpartitioned)
  std::uint32_t queued_packets = 0;
  Rate rate{};
  Time prop{};
  std::int64_t queued = 0;
  Time queue_since{};  // last change of `queued` (for the time-weighted mean)
  Time busy_until{};
  std::int64_t cur_bytes = 0;
  std::int64_t ser_wire = -1;  // the last frame size it sent and its serialization time (memo)
  Time ser_time{};
  Time ct_release{};           // cut-through: serialization of switch.cut_through_bytes
  std::int64_t headroom = 0;
  Classes cls;  // (the proxy only: the lines are the fabric's)
  CriticalPath path;  // on the third line: its ledger, message and time fill two (static_assert below)
  FabricFlow* ring = nullptr;  // host port: the flow served last (ring of flows with packets)
  PortCounters c;              // the per-frame ones first: on the line after the critical path's two
  Time blocked_since{};
  /// Its cable's losses, kept apart (few ports have any): scheduled losses of the frames it
  /// sends (the cable's `drops` and `drop_burst`) and its corruption probability.
  struct Losses {
    double loss = 0;  // the cable's frame corruption probability (checked on arrival here)
    std::vector<std::uint64_t> drops;  // frames lost, by count (1-based, ascending)
    std::vector<DropWindow> windows;   // frames lost, by arrival time (by start)
    std::size_t next_window = 0;       // windows before it are over
    std::size_t next_drop = 0;
    std::uint64_t sent_count = 0;      // frames it sent that reached the far end (counted when drops)
    /// A frame arrives at the peer `now`: lost by its count or in a burst window (the windows
    /// that ended before now are passed for good; a one-shot window takes one frame).
    bool lose(Time now) {
      const bool by_count = next_drop < drops.size() && drops[next_drop] == ++sent_count && (++next_drop, true);
      return window_drop(now) || by_count;
    }
    bool window_drop(Time now) {
      while (next_window < windows.size()) {
        const DropWindow& w = windows[next_window];
        if (now < w.from) return false;
        if (w.one_shot()) return ++next_window, true;
        if (now < w.to) return true;
        ++next_window;
      }
      return false;
    }
  };
  std::unique_ptr<Losses> losses;  // nullptr: none (neither scheduled nor corruption)
  void fill_credits(std::int64_t bytes) {
    for (Class& k : cls) k.credits = bytes;
  }
  void refresh_faulty() { faulty = losses != nullptr; }
  /// Starts loading what receiving a frame of class `tc` touches here: the node, the receive
  /// counters and the class's ingress accounting.
  /// (`line`: the class's, Fabric::class_line: found without waiting for this port's line.)
  void prefetch_ingress(const Class* line) const {
    __builtin_prefetch(this);
    __builtin_prefetch(&c.rx_packets);
    __builtin_prefetch(line);
  }
  /// Starts loading what queueing a frame of class `tc` here touches: the queue scalars and
  /// counters, and the class's queue.
  void prefetch_egress(const Class* line) const {
    __builtin_prefetch(&queued, 1);
    __builtin_prefetch(&c.max_queue_bytes, 1);
    __builtin_prefetch(line, 1);
  }
  /// Starts loading the critical path (what starting a frame reads and overwrites: a ledger).
  void prefetch_path() const {
    const char* b = reinterpret_cast<const char*>(&path);
    __builtin_prefetch(b, 1);
    __builtin_prefetch(b + 64, 1);
  }
};

inline Fabric::Tally& Fabric::tally(const Port& e) { return tally_[e.lp]; }
inline const Fabric::PortClass* Fabric::class_line(const Port& e, unsigned tc) const {
  return class_store_.data() + static_cast<std::size_t>(&e - ports_.data()) * port_classes_ + class_slot_[tc];
}
inline Scheduler& Fabric::sched(const Port& e) { return *lp_sched_[e.lp]; }
inline Time Fabric::now_at(const Port& e) const { return lp_sched_[e.lp]->now(); }

template <typename Drop>
void Fabric::drain_queue(Port& e, unsigned tc, Drop&& drop) {
  Packet* p = e.cls[tc].head;
  e.cls[tc].head = e.cls[tc].tail = nullptr;
  e.backlog = static_cast<std::uint8_t>(e.backlog & ~(1u << tc));
  while (p) {
    Packet* next = p->next_in_queue;
    const std::int64_t w = p->wire.count();
    e.cls[tc].qbytes -= w;
    note_queue(e);
    e.queued -= w;
    --e.queued_packets;
    release_buffer(e.node, p->fab_port ^ 1, static_cast<std::uint8_t>(tc), w);
    drop(*p);
    p = next;
  }
}

}  // namespace rdmasim
