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

/// An optional observer of a running simulation (scheduler.set_slice_hook): run() then runs in
/// slices of simulated time and calls on_slice(end) after every event with time <= end has
/// run, before any later one. It may throw to stop the run (the exception leaves run()).
class SliceHook {
 public:
  virtual void on_slice(Time end) = 0;

 protected:
  ~SliceHook() = default;
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
  /// Time of the earliest pending event (Time::max() when none).
  Time next_time() const { return heap_.empty() ? Time::max() : heap_.front().at; }
  /// With a hook, run() stops at multiples of `every` (> 0) to call it; nullptr removes it.
  void set_slice_hook(SliceHook* h, Time every) {
    slice_hook_ = h;
    slice_every_ = every;
  }
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
  SliceHook* slice_hook_ = nullptr;
  Time slice_every_{};
};

}  // namespace rdmasim
