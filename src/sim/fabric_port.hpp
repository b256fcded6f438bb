// Fabric::Port: one end of a cable inside the packet-level fabric (sim/fabric.hpp) — its
// transmitter and strict-priority egress queues towards the peer, the PFC / credit state it
// obeys, and the ingress accounting of the frames it received and its node still buffers.
// Internal to the fabric's sources (fabric.cpp, fabric_pfc.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/scheduler.hpp"
#include "net/packet.hpp"
#include "sim/critical_path.hpp"
#include "sim/fabric.hpp"

namespace rdmasim {
namespace fabric_detail {

inline constexpr int kClasses = 8;
inline constexpr std::int64_t kPauseFrameWire = 84;  // 64 B MAC control frame + preamble/SFD + IFG
// Control events (Fabric::on_control): the kind in bits 28..31 of the argument.
enum Control : std::uint64_t {
  kPause = 1, kResume = 2, kCredit = 3, kWatchdog = 4, kRestore = 5, kDeadlockCheck = 6, kLinkDown = 7, kLinkUp = 8, kReroute = 9
};

}  // namespace fabric_detail

struct Fabric::Port final : EventHandler {
  Port(Fabric& f, int i) : fabric(f), id(i) {}
  void on_event(std::uint64_t arg) override { fabric.on_port(*this, arg); }

  // Member order is the access order of a packet-hop (arrival, admit, start, free): the
  // scalars every frame touches share the first cache lines, then the per-class queues and
  // ingress accounting, the counters and critical path, and last what only PFC pathologies,
  // InfiniBand credits or link faults use.
  Fabric& fabric;
  int id;
  int node = 0, peer = 0;
  bool peer_switch = false;
  bool node_switch = false;  // its own node is a switch (not a host NIC)
  bool busy = false;
  bool blocked = false;
  bool down = false;  // its link is down (link fault)
  std::uint8_t paused = 0;       // PFC: priorities the peer has paused
  std::uint8_t wd_dropping = 0;  // PFC watchdog: priorities in drop mode
  std::uint8_t xoff_sent = 0;    // ingress: priorities it has sent XOFF for
  std::uint8_t cur_tc = 0;
  int cur_in = -1;  // ingress port the frame in transmission was buffered under (-1: a host)
  std::uint32_t queued_packets = 0;
  Rate rate{};
  Time prop{};
  std::int64_t queued = 0;
  Time queue_since{};  // last change of `queued` (for the time-weighted mean)
  Time busy_until{}, service{}, release{};
  std::int64_t cur_bytes = 0;
  std::int64_t headroom = 0;
  std::int64_t ser_wire = -1;  // the last frame size it sent and its serialization time (memo)
  Time ser_time{};
  Time ct_release{};           // cut-through: serialization of switch.cut_through_bytes
  double loss = 0;  // the cable's frame corruption probability (checked on arrival here)
  FabricFlow* ring = nullptr;  // host port: the flow served last (ring of flows with packets)
  /// A frame this port sent arrives at the peer `now`: lost in a burst window (the windows
  /// that ended before now are passed for good; a one-shot window takes one frame).
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
  std::vector<std::uint64_t> drops;  // frames it sends that are lost, by count (1-based, ascending)
  std::vector<DropWindow> windows;   // frames it sends that are lost, by arrival time (by start)
  std::size_t next_window = 0;       // windows before it are over
  // Egress: strict-priority queues toward the peer.
  std::array<std::int64_t, fabric_detail::kClasses> qbytes{};
  std::array<Packet*, fabric_detail::kClasses> head{}, tail{};
  // Ingress: frames received from the peer and buffered at this node.
  std::array<std::int64_t, fabric_detail::kClasses> in_bytes{}, in_headroom{};
  PortCounters c;
  CriticalPath path;
  std::size_t next_drop = 0;
  std::uint64_t sent_count = 0;      // frames it sent that reached the far end (counted when drops)
  Time blocked_since{};
  std::array<Time, fabric_detail::kClasses> paused_since{};   // when each priority's pause began (switch ports)
  std::array<std::uint32_t, fabric_detail::kClasses> wd_epoch{};  // PFC watchdog: bumped by every XON
  std::array<std::int64_t, fabric_detail::kClasses> credits{};  // IB: room in the peer's input buffer per VL
};

template <typename Drop>
void Fabric::drain_queue(Port& e, unsigned tc, Drop&& drop) {
  Packet* p = e.head[tc];
  e.head[tc] = e.tail[tc] = nullptr;
  while (p) {
    Packet* next = p->next_in_queue;
    const std::int64_t w = p->wire.count();
    e.qbytes[tc] -= w;
    note_queue(e);
    e.queued -= w;
    --e.queued_packets;
    release_buffer(e.node, p->fab_port ^ 1, static_cast<std::uint8_t>(tc), w);
    drop(*p);
    p = next;
  }
}

}  // namespace rdmasim
