// Discrete-event scheduler: a 4-ary min-heap of (time, insertion sequence, handler, argument).
//
// Invariants: events run in non-decreasing time; events at the same time run in the order
// they were scheduled (the sequence number breaks ties), so a run is deterministic. No
// allocation per event: an entry is 32 bytes stored by value in a vector that only grows when
// more events are pending than ever before. There is no global instance; components hold a
// reference to the scheduler they were built with, so several simulations can run side by
// side in one process. Cancellation is left to handlers (generation counters in `arg`).
#pragma once

#include <cstdint>
#include <vector>

#include "rdmasim/units.hpp"

namespace rdmasim {

class EventHandler {
 public:
  virtual void on_event(std::uint64_t arg) = 0;

 protected:
  ~EventHandler() = default;
};

class Scheduler {
 public:
  Scheduler() { heap_.reserve(1024); }
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  Time now() const { return now_; }
  /// Schedules `h.on_event(arg)` at absolute time `at` (must not be in the past).
  void schedule_at(Time at, EventHandler& h, std::uint64_t arg = 0);
  void schedule_in(Time delay, EventHandler& h, std::uint64_t arg = 0) { schedule_at(now_ + delay, h, arg); }

  /// Runs the earliest event; false when none is pending.
  bool step();
  /// Runs until no event is pending, or until an event calls stop().
  void run();
  /// Ends run() / run_until() after the event now running (a simulation that decided it is
  /// finished, e.g. a detected deadlock); the pending events stay. Cleared by the next run().
  void stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }
  /// Runs every event with time <= limit; the clock ends at the last event run.
  void run_until(Time limit);

  std::size_t pending() const { return heap_.size(); }
  std::uint64_t executed() const { return executed_; }

 private:
  struct Entry {
    Time at;
    std::uint64_t seq;
    EventHandler* handler;
    std::uint64_t arg;
  };
  static bool earlier(const Entry& a, const Entry& b) {
    return a.at < b.at || (a.at == b.at && a.seq < b.seq);
  }
  void pop_into(Entry& out);

  std::vector<Entry> heap_;
  Time now_{};
  std::uint64_t next_seq_ = 0;
  std::uint64_t executed_ = 0;
  bool stopped_ = false;
};

}  // namespace rdmasim
