// Object pool: hands out stable pointers to T from chunked storage and recycles them through
// a free list, so the hot path allocates nothing once the pool has grown to the peak number of
// live objects. Objects are value-reset on acquire (T must be default-constructible).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace rdmasim {

template <typename T, std::size_t ChunkSize = 256>
class Pool {
 public:
  Pool() = default;
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  T* acquire() {
    if (free_.empty()) grow();
    T* p = free_.back();
    free_.pop_back();
    *p = T{};
    ++live_;
    return p;
  }
  void release(T* p) {
    free_.push_back(p);
    --live_;
  }
  std::size_t live() const { return live_; }
  std::size_t capacity() const { return chunks_.size() * ChunkSize; }

 private:
  void grow() {
    chunks_.push_back(std::make_unique<T[]>(ChunkSize));
    T* base = chunks_.back().get();
    free_.reserve(capacity());
    for (std::size_t i = ChunkSize; i-- > 0;) free_.push_back(base + i);
  }
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::vector<T*> free_;
  std::size_t live_ = 0;
};

}  // namespace rdmasim
