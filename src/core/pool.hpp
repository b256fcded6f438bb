// Object pool: hands out stable pointers to T from chunked storage and recycles them through
// a free list, so the hot path allocates nothing once the pool has grown to the peak number of
// live objects. Objects are value-reset on acquire (T must be default-constructible and
// trivially copyable). The free list is intrusive — a free object's first bytes link it to the
// next — so it costs no memory beside the objects. The pools of one partitioned run (one per
// logical process) may take each other's objects back: an object acquired in one pool can be
// released into another, whose live() then counts it negatively; their storage must all live
// until the run is over (trim them together, trim_all).
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace rdmasim {

template <typename T, std::size_t ChunkSize = 256>
class Pool {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) >= sizeof(T*),
                "Pool<T>: a free object's first bytes hold the free list's link");

 public:
  Pool() = default;
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  T* acquire() {
    if (!free_) grow();
    T* p = pop_free();
    *p = T{};
    ++live_;
    return p;
  }
  void release(T* p) {
    push_free(p);
    --live_;
  }
  /// Free objects held (ready for acquire() without growing).
  std::size_t free_count() const { return free_count_; }
  /// Between the windows of a partitioned run (no worker running): objects released far from
  /// where they were acquired pile up in one pool while another keeps growing, so a pool
  /// down to a quarter chunk of free objects takes a chunk's worth from a pool holding more
  /// than two. Keeps every pool's storage near its own peak in flight; costs a look at each
  /// pool's count when nothing moves.
  static void balance(std::span<Pool* const> pools) {
    for (Pool* r : pools) {
      if (r->free_count_ >= ChunkSize / 4) continue;
      for (Pool* d : pools) {
        if (d->free_count_ <= 2 * ChunkSize) continue;
        for (std::size_t i = 0; i < ChunkSize; ++i) r->push_free(d->pop_free());
        break;
      }
    }
  }
  std::int64_t live() const { return live_; }
  /// Frees the storage when no object is live (false otherwise): what a finished simulation
  /// no longer needs, before its report is built. The pool grows again on the next acquire().
  bool trim() {
    if (live_ > 0) return false;
    chunks_.clear();
    chunks_.shrink_to_fit();
    free_ = nullptr;
    free_count_ = 0;
    return true;
  }
  /// Trims every pool of `pools` when none of their objects is live in all (false otherwise):
  /// pools that took each other's objects back are freed together or not at all.
  static bool trim_all(std::span<Pool* const> pools) {
    std::int64_t live = 0;
    for (const Pool* p : pools) live += p->live_;
    if (live != 0) return false;
    for (Pool* p : pools) {
      p->live_ = 0;
      p->trim();
    }
    return true;
  }
  std::size_t capacity() const { return chunks_.size() * ChunkSize; }

 private:
  void grow() {
    chunks_.push_back(std::make_unique<T[]>(ChunkSize));
    T* base = chunks_.back().get();
    for (std::size_t i = ChunkSize; i-- > 0;) push_free(base + i);  // base + 0 comes out first
  }
  void push_free(T* p) {
    std::memcpy(static_cast<void*>(p), static_cast<const void*>(&free_), sizeof(T*));
    free_ = p;
    ++free_count_;
  }
  T* pop_free() {
    T* p = free_;
    std::memcpy(static_cast<void*>(&free_), static_cast<const void*>(p), sizeof(T*));
    --free_count_;
    return p;
  }
  std::vector<std::unique_ptr<T[]>> chunks_;
  T* free_ = nullptr;  // last released first (LIFO: the most recently used, likely cached)
  std::size_t free_count_ = 0;
  std::int64_t live_ = 0;
};

}  // namespace rdmasim
