// Discrete-event scheduler: a timing wheel for the near future over a 4-ary min-heap for the
// rest, sharing one slot table of (time, sequence, handler, argument).
//
// Invariants: events run in non-decreasing time; events at the same time run in the order they
// were scheduled: by the time they were scheduled at and, of those scheduled at one instant,
// untagged events first in the order of the calls, then tagged ones (schedule_at with a Tie) by
// tag and, within a tag, in the order their ties were taken (tie()). So a run is deterministic —
// the exact order of one global (time, tie) sort, whichever structure holds an event. Tags make
// that order independent of how a model is cut: a parallel run's LPs (ParallelRun) each have a
// scheduler, and an event that crosses between them — a frame on a cable — carries the tie its
// sender took (its sending time, the sending node as tag). When every tag's ties are taken in
// one LP and an untagged event runs in the LP that scheduled it, each LP orders its events as
// one scheduler running the whole model does.
//
// Wheel: 2^15 buckets of 2^8 ps (256 ps), so it spans the next 8.4 us — where nearly all of a
// fabric's events fall (serialization, propagation, pipelines, host stages); a scheduler that
// holds a share of them (a logical process of a parallel run) may take fewer buckets. An event goes to
// the wheel if its bucket is less than the wheel's size ahead of now's; since now only advances
// and never passes a pending event, the buckets from now's onwards (cyclically) are in time
// order. A bucket is a singly linked list of slots, sorted by (time, tie) unless marked
// unsorted; it keeps its tail with the tail's time offset packed beside it, so the common case
// (the new event sorts last) appends without reading another slot; else the event is inserted
// after a walk of at most kMaxWalk entries from the head. When that walk is too long, an event
// for a later bucket is appended and the bucket marked unsorted — it is sorted once, when it
// becomes the earliest, its list read ahead one link per event while the bucket before it runs
// (walk_ahead) — and one for now's bucket (being run) goes to the heap; so inserting
// stays O(1) and a crowded bucket costs O(log n) per event once (buckets this fine hold ~1-3
// events in a fat-tree run; the hold model of bench/engine_bench with 10^6 pending within
// 1 us puts ~256 in each). A two-level bitmap
// finds the next non-empty bucket. Heap: those events and the ones further out
// (retransmission timers, link faults), 16-byte keys (time, sequence << 24 | slot) compared as one
// 128-bit number unless their times are equal and one is tagged (the sequence's top bit): then the
// ties compare, from the slots. Four siblings per 64-byte cache line. The next event is the earlier
// of the wheel's and the heap's. Slots are 40 bytes (the sequence and the bucket link share a word;
// the tag and the lead — how long before its time an event was scheduled — another) and recycled
// LIFO, so the live ones stay dense. Before an event runs, step() starts loading the next one's
// handler and the first three cache lines its argument points to (most arguments are a Packet*; a
// prefetch never faults, so for the others it is a wasted hint). Limits (checked): 2^24 - 1 events
// pending at once, 2^39 scheduled or ties taken in all, tags below 2^24; events scheduled more than
// 2^40 ps (1.1 s) ahead tie as if scheduled 1.1 s ahead. No allocation per event: the arrays only
// grow when more events are pending than ever before. There is no global instance; components hold
// a reference to the scheduler they were built with, so several simulations can run side by side in
// one process. Cancellation is left to handlers (generation counters in `arg`).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
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
  void schedule_at(Time at, EventHandler& h, std::uint64_t arg = 0) { insert(at, h, arg, next_seq(), 0, now_); }
  void schedule_in(Time delay, EventHandler& h, std::uint64_t arg = 0) { schedule_at(now_ + delay, h, arg); }

  /// What orders an event among those due at the same time (the invariants above).
  struct Tie {
    std::uint32_t tag = 0;     // > 0
    std::uint64_t seq = 0;     // taken from one scheduler's sequence, top bit set
    std::int64_t since_ps = 0;  // when it was taken
  };
  /// The largest tag: above every node's, for a model-wide event (a collective's barrier) that
  /// runs after the frames due at its time.
  static constexpr std::uint32_t kMaxTag = (std::uint32_t{1} << 24) - 1;
  /// A tie tagged `tag` (> 0) taken now, after every one this scheduler gave before; it may
  /// order an event on another scheduler (a parallel run's crossing, sent by a node whose tag
  /// it is).
  Tie tie(std::uint32_t tag) {
    if (tag == 0 || tag > kMaxTag) [[unlikely]] bad_tag();
    return Tie{tag, next_seq() | kTagged, now_.count_ps()};
  }
  /// Schedules `h.on_event(arg)` at `at`, ordered among the events due then by `tie`.
  void schedule_at(Time at, EventHandler& h, std::uint64_t arg, Tie tie) {
    if (tie.tag == 0 || (tie.seq & ~kTaggedMask) != kTagged || Time::ps(tie.since_ps) > at) [[unlikely]] bad_tie();
    insert(at, h, arg, tie.seq, tie.tag, Time::ps(tie.since_ps));
  }

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
  struct Slot {  // 40 bytes
    std::uint64_t at;        // time in ps (never negative)
    std::uint64_t seq_next;  // insertion sequence << kSlotBits | wheel: the next slot in its bucket (kNilSlot: last)
    EventHandler* handler;
    std::uint64_t arg;
    std::uint64_t cause;  // tag << kLeadBits | lead: how long before `at` it was scheduled (at most kMaxLead)
  };
  static constexpr unsigned kLeadBits = 40;
  static constexpr std::uint64_t kMaxLead = (std::uint64_t{1} << kLeadBits) - 1;  // 1.1 s
  static_assert(kMaxTag == (std::uint64_t{1} << (64 - kLeadBits)) - 1, "a cause holds a tag above the lead");
  /// A cause: the event's tag and its lead. Events scheduled more than kMaxLead ahead share
  /// the longest lead, so their ties compare as if scheduled kMaxLead ahead (an order as
  /// deterministic and as independent of a cut; sequences stay in lead order).
  static std::uint64_t cause_of(std::uint64_t at, std::uint64_t since, std::uint32_t tag) {
    return static_cast<std::uint64_t>(tag) << kLeadBits | std::min(at - since, kMaxLead);
  }
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
  static constexpr std::uint64_t kTagged = std::uint64_t{1} << (63 - kSlotBits);  // a tagged event's sequence bit
  static constexpr std::uint64_t kTaggedKey = kTagged << kSlotBits;
  static constexpr std::uint64_t kTaggedMask = kTagged - 1;  // a tagged sequence's count
  [[noreturn]] static void bad_tag();
  [[noreturn]] static void bad_tie();
  /// Whether slot a's event runs before an event due at a's time with `cause` and `seq`: by
  /// scheduling time (the longer lead first), then a tagged pair by tag, then by sequence.
  bool tie_before(std::uint32_t a, std::uint64_t cause, std::uint64_t seq) const {
    const std::uint64_t ca = slots_[a].cause;
    if ((ca & kMaxLead) != (cause & kMaxLead)) return (ca & kMaxLead) > (cause & kMaxLead);
    const std::uint64_t sa = seq_of(a);
    if ((sa & seq & kTagged) && (ca >> kLeadBits) != (cause >> kLeadBits)) return (ca >> kLeadBits) < (cause >> kLeadBits);
    return sa < seq;
  }
  /// Whether slot a's event runs before an event at `t` with `cause` and `seq`. Two untagged
  /// events at one time need no more: their sequences are in the order of their scheduling.
  bool before(std::uint32_t a, std::uint64_t t, std::uint64_t cause, std::uint64_t seq) const {
    if (slots_[a].at != t) return slots_[a].at < t;
    if (!((seq_of(a) | seq) & kTagged)) return seq_of(a) < seq;
    return tie_before(a, cause, seq);
  }
  bool before(std::uint32_t a, std::uint32_t b) const { return before(a, slots_[b].at, slots_[b].cause, seq_of(b)); }
  bool earlier(const Key& a, const Key& b) const {
    __extension__ typedef unsigned __int128 u128;
    if (a.at == b.at && ((a.seq_slot | b.seq_slot) & kTaggedKey)) [[unlikely]] {
      const auto sb = static_cast<std::uint32_t>(b.seq_slot & kSlotMask);
      return tie_before(static_cast<std::uint32_t>(a.seq_slot & kSlotMask), slots_[sb].cause, b.seq_slot >> kSlotBits);
    }
    return ((static_cast<u128>(a.at) << 64) | a.seq_slot) < ((static_cast<u128>(b.at) << 64) | b.seq_slot);
  }
  std::uint64_t next_seq() {
    if (next_seq_ >= kTagged) [[unlikely]] too_many();
    return next_seq_++;
  }
  [[noreturn]] static void too_many();
  void insert(Time at, EventHandler& h, std::uint64_t arg, std::uint64_t seq, std::uint32_t tag, Time since);
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
  /// Reads one more link of the next bucket's list when it is unsorted (its keys then wait in
  /// ahead_keys_ for sort_bucket), the link after it prefetched: a crowded bucket's list is a
  /// chain of slots in no order a cache follows, walked one link per event in the events before
  /// it comes due rather than all at once then. An unsorted bucket that is not the earliest
  /// only grows at its tail, so the keys read stay its list's first ones.
  void walk_ahead(std::size_t b);

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
  static constexpr std::size_t kNoBucket = ~std::size_t{0};
  std::size_t ahead_bucket_ = kNoBucket;  // walk_ahead's bucket, its list read up to ahead_last_
  std::uint32_t ahead_last_ = kNil;       // (kNil: none read), the next link ahead_next_ (prefetched)
  std::uint32_t ahead_next_ = kNil;
  std::vector<Key> ahead_keys_;
  std::size_t wheel_count_ = 0;
  std::unique_ptr<Key[], AlignedFree> keys_;
  std::size_t heap_size_ = 0, capacity_ = 0;
  std::size_t size_ = 0;  // pending events, wheel and heap
  Time now_{};
  std::uint64_t next_seq_ = 0;
  std::uint64_t executed_ = 0;
  bool stopped_ = false;
  SliceHook* slice_hook_ = nullptr;
  Time slice_every_{};
};

}  // namespace rdmasim
