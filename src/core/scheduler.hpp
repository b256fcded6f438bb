// Discrete-event scheduler: a timing wheel for the near future over a 4-ary min-heap for the
// rest, sharing one slot table of (time, sequence, handler, argument).
//
// Invariants: events run in non-decreasing time; events at the same time run in the order
// they were scheduled (the sequence number breaks ties), so a run is deterministic — the exact
// order of one global (time, sequence) sort, whichever structure holds an event. A backdated
// event (a parallel run's crossing, below) takes the sequence it would have had if scheduled
// at an earlier instant.
//
// Wheel: 2^15 buckets of 2^8 ps (256 ps), so it spans the next 8.4 us — where nearly all of a
// fabric's events fall (serialization, propagation, pipelines, host stages); a scheduler that
// holds a share of them (a logical process of a parallel run) may take fewer buckets. An event goes to
// the wheel if its bucket is less than the wheel's size ahead of now's; since now only advances
// and never passes a pending event, the buckets from now's onwards (cyclically) are in time
// order. A bucket is a singly linked list of slots, sorted by (time, sequence) unless marked
// unsorted; it keeps its tail with the tail's time offset packed beside it, so the common case
// (the new event sorts last) appends without reading another slot; else the event is inserted
// after a walk of at most kMaxWalk entries from the head. When that walk is too long, an event
// for a later bucket is appended and the bucket marked unsorted — it is sorted once, when it
// becomes the earliest — and one for now's bucket (being run) goes to the heap; so inserting
// stays O(1) and a crowded bucket costs O(log n) per event once (buckets this fine hold ~1-3
// events in a fat-tree run; the hold model of bench/engine_bench with 10^6 pending within
// 1 us puts ~256 in each). A two-level bitmap
// finds the next non-empty bucket. Heap: those events and the ones further out
// (retransmission timers, link faults), 16-byte keys (time, sequence << 24 | slot) compared as
// one 128-bit number, four siblings per 64-byte cache line. The next event is the earlier of
// the wheel's and the heap's. Slots are 32 bytes (the sequence and the bucket link share a
// word) and recycled LIFO, so the live ones stay dense. Before an event runs, step() starts
// loading the next one's handler and the first three cache lines its argument points to (most
// arguments are a Packet*; a prefetch never faults, so for the others it is a wasted hint).
// Limits (checked): 2^24 - 1 events pending at once, 2^40 scheduled in all. No allocation per
// event: the arrays only grow when more events are pending than ever before. There is no
// global instance; components hold a reference to the scheduler they were built with, so
// several simulations can run side by side in one process. Cancellation is left to handlers
// (generation counters in `arg`).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
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
  static constexpr unsigned kWheelBits = 15;
  /// `wheel_bits`: the wheel holds 2^wheel_bits buckets (10..15; 15 spans 8.4 us).
  explicit Scheduler(unsigned wheel_bits = kWheelBits);
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  Time now() const { return now_; }
  /// Schedules `h.on_event(arg)` at absolute time `at` (must not be in the past).
  void schedule_at(Time at, EventHandler& h, std::uint64_t arg = 0);
  void schedule_in(Time delay, EventHandler& h, std::uint64_t arg = 0) { schedule_at(now_ + delay, h, arg); }

  /// Backdating, for the logical processes of a parallel run (ParallelRun), off by default: the
  /// events a crossing causes are scheduled when the crossing is delivered, after the window
  /// its sender sent it in, yet were caused at the sender's time. With backdating on, this
  /// scheduler leaves room in its sequence between the instants it scheduled at (it can then
  /// take 2^32 events in all, not 2^40), and between backdate(backdate_gap(since, ...), rank)
  /// and end_backdate() schedule_at() gives an event the sequence of one scheduled just after
  /// every event this scheduler scheduled at or before `since` and before any it scheduled
  /// later (`rank` orders those that fall in the same gap; a crossing due at the same time as a
  /// local event so runs in the order one scheduler would, unless both were scheduled at one
  /// instant). `since` must lie in the current window: no earlier than the last
  /// clear_backdating(). Enabled before anything is scheduled.
  void enable_backdating();
  void backdate(std::uint64_t gap, std::uint32_t rank);
  void end_backdate() { backdated_ = false; }
  /// The sequence an event backdated to `since` falls just below: the first one this scheduler
  /// gave after `since`, or with `before_since` the first it gave at `since` (the event then
  /// runs before the ones scheduled at that instant, not after them).
  std::uint64_t backdate_gap(Time since, bool before_since) const;
  /// Forgets the instants scheduled at so far (a window's end, after its crossings are in).
  void clear_backdating() { instants_.clear(); }

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

  std::size_t pending() const { return size_; }
  /// Time of the earliest pending event (Time::max() when none). Not const: it may sort the
  /// wheel bucket that holds it (the pending events stay the same).
  Time next_time();
  /// With a hook, run() stops at multiples of `every` (> 0) to call it; nullptr removes it.
  void set_slice_hook(SliceHook* h, Time every) {
    slice_hook_ = h;
    slice_every_ = every;
  }
  std::uint64_t executed() const { return executed_; }

 private:
  static constexpr unsigned kSlotBits = 24;
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
  static constexpr std::uint32_t kNil = 0xffffffffu;
  static constexpr unsigned kBucketShift = 8;  // 256 ps per bucket
  static constexpr int kMaxWalk = 4;  // longest in-bucket insertion walk before the heap takes it
  static constexpr std::size_t kOffset = 3;  // key(i) lives at keys_[i + 3]: children 4i+1.. start a line
  struct Slot {  // 32 bytes: two per cache line
    std::uint64_t at;        // time in ps (never negative)
    std::uint64_t seq_next;  // insertion sequence << kSlotBits | wheel: the next slot in its bucket (kNilSlot: last)
    EventHandler* handler;
    std::uint64_t arg;
  };
  static constexpr std::uint32_t kNilSlot = static_cast<std::uint32_t>(kSlotMask);  // never a slot index
  std::uint32_t next_of(std::uint32_t s) const {
    const auto n = static_cast<std::uint32_t>(slots_[s].seq_next & kSlotMask);
    return n == kNilSlot ? kNil : n;
  }
  void set_next(std::uint32_t s, std::uint32_t n) {
    slots_[s].seq_next = (slots_[s].seq_next & ~kSlotMask) | (n == kNil ? kSlotMask : n);
  }
  std::uint64_t seq_of(std::uint32_t s) const { return slots_[s].seq_next >> kSlotBits; }
  struct alignas(16) Key {  // heap entry
    std::uint64_t at;
    std::uint64_t seq_slot;  // sequence << kSlotBits | slot
  };
  struct AlignedFree {
    void operator()(Key* k) const { ::operator delete[](k, std::align_val_t{64}); }
  };
  static bool earlier(const Key& a, const Key& b) {
    __extension__ typedef unsigned __int128 u128;
    return ((static_cast<u128>(a.at) << 64) | a.seq_slot) < ((static_cast<u128>(b.at) << 64) | b.seq_slot);
  }
  std::size_t bucket_of(std::uint64_t at) const { return static_cast<std::size_t>(at >> kBucketShift) & bucket_mask_; }
  Key& key(std::size_t i) { return keys_[i + kOffset]; }
  const Key& key(std::size_t i) const { return keys_[i + kOffset]; }
  void grow(std::size_t capacity);
  void heap_push(Key e);
  /// Removes the heap's earliest key (heap_size_ > 0) and returns its slot.
  std::uint32_t heap_pop();
  /// The first non-empty bucket at or after now's, cyclically (wheel_count_ > 0).
  std::size_t first_bucket() const;
  /// The slot of the earliest pending event (size() > 0); `from_wheel` says where it is.
  /// Sorts the earliest wheel bucket first when it is marked unsorted.
  std::uint32_t earliest(bool& from_wheel, std::size_t& bucket);
  /// Sorts bucket b's list by (time, sequence) and clears its unsorted mark.
  void sort_bucket(std::size_t b);

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  // A bucket's first slot (kNil: empty) and its last, with the last's time within the bucket
  // in the top 8 bits (all times in a bucket share the bits above kBucketShift), so the common
  // append needs no look at the tail's slot.
  struct Bucket {
    std::uint32_t head = kNil;
    std::uint32_t tail = kNil;
  };
  static_assert(kBucketShift + kSlotBits <= 32, "a bucket's tail packs its slot and time offset in 32 bits");
  std::size_t bucket_count_, bucket_mask_, words_, summary_words_;
  std::vector<Bucket> buckets_;
  std::vector<std::uint64_t> bits_;      // bitmap of non-empty buckets
  std::vector<std::uint64_t> summary_;   // bitmap of non-zero words of bits_
  std::vector<std::uint64_t> unsorted_;  // buckets whose list is not in (time, sequence) order
  std::vector<Key> scratch_;                      // sort_bucket's keys (grows to the largest bucket)
  std::size_t wheel_count_ = 0;
  std::unique_ptr<Key[], AlignedFree> keys_;
  std::size_t heap_size_ = 0, capacity_ = 0;
  std::size_t size_ = 0;  // pending events, wheel and heap
  Time now_{};
  std::uint64_t next_seq_ = 0;
  static constexpr std::uint64_t kBackdateGap = 256;  // sequences per scheduled event with backdating
  std::uint64_t seq_step_ = 1;
  bool backdating_ = false, backdated_ = false;
  std::uint64_t backdate_seq_ = 0;  // the sequence of the next backdated event
  // With backdating: each instant schedule_at() was called at (since the last clear) and the
  // first sequence it gave then.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> instants_;
  std::uint64_t executed_ = 0;
  bool stopped_ = false;
  SliceHook* slice_hook_ = nullptr;
  Time slice_every_{};
};

}  // namespace rdmasim
