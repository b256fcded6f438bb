// EventRelay: events for handlers that may be destroyed while one of their events is pending.
// The scheduler cannot cancel an event (src/core/scheduler.hpp), so a handler that can go away
// mid-run (an open-loop flow's RC connection, freed once the flow is done) takes a slot here and
// schedules through the relay: the scheduler calls the relay, and the relay calls the slot's
// handler if the slot still belongs to it (same generation), else drops the event.
// Invariants: a slot is live from add() to remove(); an event scheduled for a slot reaches its
// handler only while that slot is live; the handler's own argument is 8 bits. Slots are
// recycled (LIFO) with a new generation, so a late event never reaches the slot's next owner;
// 2^24 generations per slot before it is retired. Memory: 16 bytes per slot ever live at once.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/scheduler.hpp"

namespace rdmasim {

class EventRelay final : public EventHandler {
 public:
  struct Slot {
    std::uint32_t index = 0, generation = 0;
  };

  Slot add(EventHandler& h) {
    if (!free_.empty()) {
      const std::uint32_t i = free_.back();
      free_.pop_back();
      slots_[i].handler = &h;
      return {i, slots_[i].generation};
    }
    slots_.push_back({&h, 0});
    return {static_cast<std::uint32_t>(slots_.size() - 1), 0};
  }
  /// Its pending events are dropped when they come due.
  void remove(Slot s) {
    Entry& e = slots_.at(s.index);
    if (e.handler == nullptr || e.generation != s.generation) throw std::logic_error("EventRelay: slot removed twice");
    e.handler = nullptr;
    if (++e.generation < kGenerations) free_.push_back(s.index);  // else retired
  }
  void schedule_at(Scheduler& sched, Time at, Slot s, std::uint8_t arg) {
    sched.schedule_at(at, *this, std::uint64_t{s.index} << 32 | std::uint64_t{s.generation} << 8 | arg);
  }
  void on_event(std::uint64_t a) override {
    const Entry& e = slots_[static_cast<std::size_t>(a >> 32)];
    if (e.handler != nullptr && e.generation == ((a >> 8) & (kGenerations - 1))) e.handler->on_event(a & 0xff);
  }
  std::size_t live() const { return slots_.size() - free_.size(); }

 private:
  static constexpr std::uint32_t kGenerations = 1u << 24;
  struct Entry {
    EventHandler* handler;
    std::uint32_t generation;
  };
  std::vector<Entry> slots_;
  std::vector<std::uint32_t> free_;
};

}  // namespace rdmasim
