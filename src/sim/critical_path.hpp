// CriticalPath: the ledger rule for a resource that serves packets one at a time (a FIFO
// server, a switch egress port).
//
// A packet that waited for service takes the critical path into account: if the packet served
// just before it belongs to the SAME message and finished exactly when this one starts, the
// waiting packet's path continues through that packet — it takes over the predecessor's
// ledger as it was when the resource freed (which ends exactly at this start time). Any other
// wait (behind another message, or while the resource was paused or idle) is `queue`. So for a
// message whose packets pile up at a bottleneck the ledger shows the pipeline fill plus the
// bottleneck's service of every packet (L_transmit = S/B for a link-bound message). A
// transport's control frame (an ACK, NAK or CNP, served between two packets of a message) does
// not break the path: the next packet continues through its predecessor and the control
// frame's service, charged to `queue` (it waited for it), when the three were back to back.
//
// Tracing: a traced packet's trail (its recorded steps, sim/tracer.hpp) is inherited together
// with the ledger, so the steps of the packet that completes a message are its critical path.
#pragma once

#include <climits>
#include <cstdint>

#include "net/packet.hpp"

namespace rdmasim {

class CriticalPath {
 public:
  /// `p` starts service at `now` after waiting since `p.stamp` (a wait at `site`).
  /// `Traced` false: the caller knows no packet is traced (the trail is left alone).
  template <bool Traced = true>
  void start(Packet& p, Time now, TraceSite site) {
    if (p.stamp >= now) return;
    if (p.msg->id == last_msg_ && now == last_done_) {
      p.ledger = last_ledger_;
      if constexpr (Traced) {
        p.trail = last_trail_;
        if (p.trail >= 0 && interposed_ps_ > 0) [[unlikely]]
          p.trail = trace_step(p, p.trail, site, Category::queue, now - Time::ps(interposed_ps_), Time::ps(interposed_ps_), true);
      }
    } else {
      if (Traced && p.trail >= 0) [[unlikely]] p.trail = trace_step(p, p.trail, site, Category::queue, p.stamp, now - p.stamp, true);
      p.ledger.add(Category::queue, now - p.stamp);
    }
    p.stamp = now;
  }
  /// `p` has been charged up to its hand-on at `at`; the resource (`site`) stays busy
  /// `remainder` longer on it.
  template <bool Traced = true>
  void departed(const Packet& p, Category cat, Time remainder, Time at, TraceSite site) {
    interposed_ps_ = 0;
    last_msg_ = p.msg->id;
    last_ledger_ = p.ledger;
    last_ledger_.add(cat, remainder);
    if constexpr (!Traced) return;
    last_trail_ = p.trail;
    if (p.trail >= 0) [[unlikely]] last_trail_ = trace_step(p, p.trail, site, cat, at, remainder);
  }
  /// `p` has been charged up to the end of its service (no remainder).
  void departed(const Packet& p) {
    interposed_ps_ = 0;
    last_msg_ = p.msg->id;
    last_ledger_ = p.ledger;
    last_trail_ = p.trail;
  }
  /// A control frame took the resource at `start` for `service`, instead of departed(): the
  /// path of the packet before it continues through it if it started as that one finished.
  void interposed(Time start, Time service) {
    const std::int64_t total = interposed_ps_ + service.count_ps();
    if (start != last_done_ || total > INT32_MAX) {  // not back to back: no path through it
      last_msg_ = ~std::uint64_t{0};
      return;
    }
    last_ledger_.add(Category::queue, service);
    interposed_ps_ = static_cast<std::int32_t>(total);
  }
  /// The resource became free at `t`.
  void freed(Time t) { last_done_ = t; }

 private:
  // What an untraced start and departure touch first, in 128 bytes: placed on a cache-line
  // boundary (as a fabric port does), exactly two lines; the trail after them.
  Ledger last_ledger_;
  std::uint64_t last_msg_ = ~std::uint64_t{0};
  Time last_done_ = Time::ps(-1);
  std::int32_t last_trail_ = -1;
  std::int32_t interposed_ps_ = 0;  // control frames' service since the last departure (in the ledger)
};
static_assert(sizeof(Ledger) + 2 * sizeof(std::uint64_t) == 128, "CriticalPath: ledger, message and time in two lines");

}  // namespace rdmasim
