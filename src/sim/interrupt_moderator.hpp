// InterruptModerator: a NIC's interrupt (or CQ event) moderation on one host, like
// `ethtool -C rx-usecs N rx-frames M`. Packets needing an interrupt wait here; the interrupt
// fires when `frames` are pending or `usecs` after the first pending one arrived, whichever
// comes first, and releases every pending packet in arrival order; the first is marked as the
// batch head (it pays the irq cost downstream). The wait is charged to `interrupt`: it is the
// formula's L_batch. frames == 1 means no moderation. Tie rule: a packet arriving exactly when
// the timer expires does not join the expiring batch (the timer fires first), whatever the
// order of the two events at that instant.
#pragma once

#include <cstdint>

#include "core/scheduler.hpp"
#include "net/packet.hpp"

namespace rdmasim {

class Stage;

class InterruptModerator : public EventHandler {
 public:
  explicit InterruptModerator(Scheduler& s) : sched_(s) {}
  InterruptModerator(const InterruptModerator&) = delete;
  InterruptModerator& operator=(const InterruptModerator&) = delete;

  /// `release(p)` is called on `owner` for each packet when its batch fires.
  /// `adaptive`: with nothing pending and no interrupt in the last `usecs`, the packet's
  /// interrupt fires at once (light load keeps the latency; under load batches form).
  void arrive(Packet& p, Stage& owner, Time usecs, int frames, bool adaptive = false);
  std::uint64_t interrupts() const { return interrupts_; }
  std::uint64_t packets() const { return packets_; }
  /// Sum and maximum of the packets' waits here (the formula's L_batch), measured.
  Time total_wait() const { return total_wait_; }
  Time max_wait() const { return max_wait_; }

  void on_event(std::uint64_t generation) override;

 private:
  void fire();

  Scheduler& sched_;
  Packet* head_ = nullptr;
  Packet* tail_ = nullptr;
  int pending_ = 0;
  Time deadline_{};               // timer expiry of the pending batch
  std::uint64_t generation_ = 0;  // invalidates timers of batches already fired
  std::uint64_t interrupts_ = 0;
  std::uint64_t packets_ = 0;
  Time total_wait_{};
  Time max_wait_{};
  Time last_fire_{};
  bool fired_ = false;
};

}  // namespace rdmasim
