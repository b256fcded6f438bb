#include "core/scheduler.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace rdmasim {

Scheduler::Scheduler(unsigned wheel_bits)
    : bucket_count_(std::size_t{1} << wheel_bits),
      bucket_mask_(bucket_count_ - 1),
      words_(bucket_count_ / 64),
      summary_words_((words_ + 63) / 64),
      buckets_(bucket_count_),
      bits_(words_),
      summary_(summary_words_),
      unsorted_(words_) {
  if (wheel_bits < 10 || wheel_bits > 15) throw std::invalid_argument("Scheduler: wheel_bits must be 10..15");
  grow(64);
  slots_.reserve(1024);
}

void Scheduler::grow(std::size_t capacity) {
  Key* k = static_cast<Key*>(::operator new[]((capacity + kOffset) * sizeof(Key), std::align_val_t{64}));
  if (heap_size_ > 0) std::memcpy(static_cast<void*>(k + kOffset), static_cast<const void*>(&key(0)), heap_size_ * sizeof(Key));
  keys_.reset(k);
  capacity_ = capacity;
}

void Scheduler::bad_tag() { throw std::invalid_argument("Scheduler::tie: tags are 1..2^24 - 1 (0 is the untagged events')"); }

void Scheduler::bad_tie() { throw std::invalid_argument("Scheduler::schedule_at: not a tie from tie(), or taken after the event's time"); }

void Scheduler::too_many() { throw std::logic_error("Scheduler: more than 2^39 events scheduled"); }

void Scheduler::insert(Time at, EventHandler& h, std::uint64_t arg, std::uint64_t seq, std::uint32_t tag, Time since) {
  if (at < now_) throw std::logic_error("Scheduler: event scheduled in the past");
  const auto t = static_cast<std::uint64_t>(at.count_ps());
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    if (slots_.size() >= kNilSlot) throw std::logic_error("Scheduler: more than 2^24 - 1 events pending");
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  const std::uint64_t cause = cause_of(t, static_cast<std::uint64_t>(since.count_ps()), tag);
  slots_[slot] = Slot{t, seq << kSlotBits | kSlotMask, &h, arg, cause};
  ++size_;
  if ((t >> kBucketShift) - (static_cast<std::uint64_t>(now_.count_ps()) >> kBucketShift) < bucket_count_) {
    // Wheel: appended when it sorts last in its bucket (the common case: all there have times
    // <= t and, at t, earlier ties), else inserted after a short walk; a long walk would take
    // the heap instead.
    const std::size_t b = bucket_of(t);
    Bucket& bk = buckets_[b];
    const auto offset = static_cast<std::uint32_t>(t & ((std::uint64_t{1} << kBucketShift) - 1));
    const std::uint32_t tail = slot | offset << kSlotBits;
    if (bk.head == kNil) {
      bk.head = slot;
      bk.tail = tail;
      bits_[b >> 6] |= std::uint64_t{1} << (b & 63);
      summary_[b >> 12] |= std::uint64_t{1} << ((b >> 6) & 63);
      ++wheel_count_;
      return;
    }
    if ((bk.tail >> kSlotBits) < offset || ((bk.tail >> kSlotBits) == offset && before(bk.tail & kSlotMask, t, cause, seq))) {
      set_next(bk.tail & kSlotMask, slot);
      bk.tail = tail;
      ++wheel_count_;
      return;
    }
    const bool unsorted = unsorted_[b >> 6] >> (b & 63) & 1;
    if (!unsorted) {
      // Sorted and it sorts before the tail: inserted after the entries that sort before it, if
      // that takes a short walk.
      std::uint32_t prev = kNil, at = bk.head;  // insert between prev (kNil: the head) and at
      int walked = 0;
      while (before(at, t, cause, seq) && ++walked <= kMaxWalk)
        prev = at, at = next_of(at);  // ends before the tail
      if (walked <= kMaxWalk) {
        set_next(slot, at);
        if (prev == kNil) bk.head = slot;
        else set_next(prev, slot);
        ++wheel_count_;
        return;
      }
    }
    if (unsorted || b != bucket_of(static_cast<std::uint64_t>(now_.count_ps()))) {
      // A crowded bucket not yet being run: appended and left unsorted until it is the earliest.
      unsorted_[b >> 6] |= std::uint64_t{1} << (b & 63);
      set_next(bk.tail & kSlotMask, slot);
      bk.tail = tail;
      ++wheel_count_;
      return;
    }
  }
  heap_push(Key{t, seq << kSlotBits | slot});
}

void Scheduler::heap_push(Key e) {
  if (heap_size_ == capacity_) grow(capacity_ * 2);
  // Sift up with a hole: move parents down until e's place is found.
  std::size_t i = heap_size_++;
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!earlier(e, key(parent))) break;
    key(i) = key(parent);
    i = parent;
  }
  key(i) = e;
}

std::uint32_t Scheduler::heap_pop() {
  const auto slot = static_cast<std::uint32_t>(key(0).seq_slot & kSlotMask);
  const Key last = key(--heap_size_);
  const std::size_t n = heap_size_;
  if (n == 0) return slot;
  // Sift the former last key down from the root: at each level the earliest of up to four
  // children (one cache line) moves up into the hole.
  std::size_t i = 0;
  for (;;) {
    const std::size_t first = 4 * i + 1;
    if (first >= n) break;
    std::size_t best = first;
    if (first + 4 <= n) {  // a full line of children: branch-free selection
      const std::size_t b01 = earlier(key(first + 1), key(first)) ? first + 1 : first;
      const std::size_t b23 = earlier(key(first + 3), key(first + 2)) ? first + 3 : first + 2;
      best = earlier(key(b23), key(b01)) ? b23 : b01;
    } else {
      for (std::size_t c = first + 1; c < n; ++c)
        if (earlier(key(c), key(best))) best = c;
    }
    if (!earlier(key(best), last)) break;
    key(i) = key(best);
    i = best;
  }
  key(i) = last;
  return slot;
}

std::size_t Scheduler::first_bucket() const {
  const std::size_t c = bucket_of(static_cast<std::uint64_t>(now_.count_ps()));
  const std::size_t w = c >> 6;
  if (const std::uint64_t m = bits_[w] & (~std::uint64_t{0} << (c & 63))) return (w << 6) | static_cast<std::size_t>(__builtin_ctzll(m));
  // The next non-zero word after w, then (wrapping) from word 0 up to w itself, whose bits
  // below c are the buckets furthest ahead.
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t from = pass == 0 ? w + 1 : 0;
    const std::size_t to = pass == 0 ? words_ : w + 1;  // word range [from, to)
    for (std::size_t sw = from >> 6; sw < summary_words_ && (sw << 6) < to; ++sw) {
      std::uint64_t sm = summary_[sw];
      if (sw == (from >> 6)) sm &= from & 63 ? ~std::uint64_t{0} << (from & 63) : ~std::uint64_t{0};
      if (!sm) continue;
      const std::size_t word = (sw << 6) | static_cast<std::size_t>(__builtin_ctzll(sm));
      if (word >= to) break;
      return (word << 6) | static_cast<std::size_t>(__builtin_ctzll(bits_[word]));
    }
  }
  throw std::logic_error("Scheduler: wheel count without a bucket");
}

[[gnu::noinline, gnu::cold]] void Scheduler::sort_bucket(std::size_t b) {
  scratch_.clear();
  std::uint32_t s = buckets_[b].head;
  if (ahead_bucket_ == b) {  // its first links were read ahead
    scratch_.swap(ahead_keys_);
    if (ahead_last_ != kNil) s = next_of(ahead_last_);
    ahead_bucket_ = kNoBucket;
  }
  for (; s != kNil; s = next_of(s)) scratch_.push_back(Key{slots_[s].at, slots_[s].seq_next >> kSlotBits << kSlotBits | s});
  std::sort(scratch_.begin(), scratch_.end(), [this](const Key& x, const Key& y) { return earlier(x, y); });
  for (std::size_t i = 0; i + 1 < scratch_.size(); ++i) set_next(static_cast<std::uint32_t>(scratch_[i].seq_slot & kSlotMask), static_cast<std::uint32_t>(scratch_[i + 1].seq_slot & kSlotMask));
  const Key& last = scratch_.back();
  const auto last_slot = static_cast<std::uint32_t>(last.seq_slot & kSlotMask);
  set_next(last_slot, kNil);
  buckets_[b].head = static_cast<std::uint32_t>(scratch_.front().seq_slot & kSlotMask);
  buckets_[b].tail = last_slot | static_cast<std::uint32_t>(last.at & ((std::uint64_t{1} << kBucketShift) - 1)) << kSlotBits;
  unsorted_[b >> 6] &= ~(std::uint64_t{1} << (b & 63));
}

void Scheduler::walk_ahead(std::size_t b) {
  if (ahead_bucket_ != b) {
    ahead_bucket_ = b;
    ahead_keys_.clear();
    ahead_last_ = kNil;
    ahead_next_ = buckets_[b].head;
  } else if (ahead_next_ == kNil) {
    ahead_next_ = next_of(ahead_last_);  // appended to since the last link was read
  }
  const std::uint32_t s = ahead_next_;
  if (s == kNil) return;
  const Slot& slot = slots_[s];
  ahead_keys_.push_back(Key{slot.at, slot.seq_next >> kSlotBits << kSlotBits | s});
  ahead_last_ = s;
  ahead_next_ = next_of(s);
  if (ahead_next_ != kNil) __builtin_prefetch(&slots_[ahead_next_]);
}

std::uint32_t Scheduler::earliest(bool& from_wheel, std::size_t& bucket) {
  std::uint32_t best = kNil;
  if (wheel_count_ > 0) {
    bucket = first_bucket();
    if (unsorted_[bucket >> 6] >> (bucket & 63) & 1) sort_bucket(bucket);
    best = buckets_[bucket].head;
    from_wheel = true;
  }
  if (heap_size_ > 0) {
    const Key& top = key(0);
    const auto hs = static_cast<std::uint32_t>(top.seq_slot & kSlotMask);
    if (best == kNil || !before(best, hs)) {
      best = hs;
      from_wheel = false;
    }
  }
  return best;
}

Time Scheduler::next_time() {
  if (size_ == 0) return Time::max();
  bool wheel = false;
  std::size_t b = 0;
  return Time::ps(static_cast<std::int64_t>(slots_[earliest(wheel, b)].at));
}

bool Scheduler::step() {
  if (size_ == 0) return false;
  bool wheel = false;
  std::size_t b = 0;
  const std::uint32_t s = earliest(wheel, b);
  if (wheel) {
    buckets_[b].head = next_of(s);
    if (buckets_[b].head == kNil) {
      bits_[b >> 6] &= ~(std::uint64_t{1} << (b & 63));
      if (bits_[b >> 6] == 0) summary_[b >> 12] &= ~(std::uint64_t{1} << ((b >> 6) & 63));
    }
    --wheel_count_;
  } else {
    heap_pop();
  }
  --size_;
  if (wheel_count_ > 0) {
    // A hint: start loading the next event's handler and argument (most handlers' argument is
    // a Packet*; a prefetch never faults, so one that is not costs only the hint). The next
    // event is nearly always the new head of this bucket or of the next non-empty bucket in
    // the same bitmap word (a fabric's buckets hold 1-3 events); further ones are not looked for.
    // The next bucket in the word, if crowded and unsorted, is read ahead one link (walk_ahead).
    // (From the heap, b is the wheel's first bucket: its head is next, and nothing is read ahead.)
    std::uint32_t n = buckets_[b].head;
    if (const std::uint64_t m = bits_[b >> 6] & (~std::uint64_t{1} << (b & 63)); m && wheel) {
      const std::size_t nb = (b & ~std::size_t{63}) | static_cast<std::size_t>(__builtin_ctzll(m));
      if (n == kNil) n = buckets_[nb].head;
      if (unsorted_[nb >> 6] >> (nb & 63) & 1) walk_ahead(nb);
    }
    if (n != kNil) {
      __builtin_prefetch(slots_[n].handler);
      // A Packet's first three lines: what a hop or a stage touches. The addresses are summed
      // as integers: an argument may be 0 (no pointer), and null + 64 as a pointer is undefined.
      const auto arg = static_cast<std::uintptr_t>(slots_[n].arg);
      __builtin_prefetch(reinterpret_cast<const void*>(arg));
      __builtin_prefetch(reinterpret_cast<const void*>(arg + 64));
      __builtin_prefetch(reinterpret_cast<const void*>(arg + 128));
    }
  }
  const Slot e = slots_[s];
  free_slots_.push_back(s);
  now_ = Time::ps(static_cast<std::int64_t>(e.at));
  ++executed_;
  e.handler->on_event(e.arg);
  return true;
}

void Scheduler::run() {
  stopped_ = false;
  while (slice_hook_ && size_ > 0) {
    // The end of the slice holding the next event; the hook may change or remove itself.
    const Time every = slice_every_;
    const Time end = Time::ps((next_time().count_ps() / every.count_ps() + 1) * every.count_ps());
    run_until(end);  // clears and honours stop()
    if (stopped_) return;
    slice_hook_->on_slice(end);
  }
  while (!stopped_ && step()) {
  }
}

void Scheduler::run_until(Time limit) {
  stopped_ = false;
  while (!stopped_ && size_ > 0 && next_time() <= limit) step();
}

}  // namespace rdmasim
