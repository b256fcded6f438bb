#include "sim/copy_log.hpp"

#include <algorithm>

namespace rdmasim {

void CopyLog::push(const Packet& p) {
  const Words w = words(p);
  if (count_++ == 0) {
    std::memcpy(static_cast<void*>(&front_), static_cast<const void*>(&p), sizeof(Packet));  // raw, padding too
    back_ = w;
    return;
  }
  std::uint32_t mask = 0;
  for (std::size_t i = 0; i < kWords; ++i)
    if (w[i] != back_[i]) mask |= std::uint32_t{1} << i;
  // Room for the longest record (flag, mask, ten bytes per word), written through a pointer.
  constexpr std::size_t kMaxRecord = 5 + 10 * kWords;
  if (buf_.size() < end_ + kMaxRecord) {
    // Grows by a quarter (amortised O(1)): thousands of QPs each hold a message's copies, so
    // the slack a doubling leaves would be a large part of the fabric's memory.
    const std::size_t size = std::max(buf_.size() + buf_.size() / 4, end_ + kMaxRecord);
    buf_.reserve(size);
    buf_.resize(size);
  }
  std::uint8_t* out = buf_.data() + end_;
  if (mask == push_mask_) {
    *out++ = 0;  // the mask of the record before
  } else {
    *out++ = 1;
    for (int b = 0; b < 4; ++b) *out++ = static_cast<std::uint8_t>(mask >> (8 * b));
    push_mask_ = mask;
  }
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const auto i = static_cast<std::size_t>(__builtin_ctz(m));
    const std::uint64_t d = w[i] - back_[i];
    std::uint64_t z = (d << 1) ^ static_cast<std::uint64_t>(static_cast<std::int64_t>(d) >> 63);  // zigzag
    while (z >= 0x80) {
      *out++ = static_cast<std::uint8_t>(z | 0x80);
      z >>= 7;
    }
    *out++ = static_cast<std::uint8_t>(z);
  }
  end_ = static_cast<std::size_t>(out - buf_.data());
  back_ = w;
}

std::size_t CopyLog::decode(const std::uint8_t* in, Words& w, std::uint32_t& last_mask) {
  const std::uint8_t* p = in;
  if (*p++ != 0) {
    last_mask = 0;
    for (int b = 0; b < 4; ++b) last_mask |= static_cast<std::uint32_t>(*p++) << (8 * b);
  }
  std::uint32_t mask = last_mask;
  while (mask) {
    const int i = __builtin_ctz(mask);
    mask &= mask - 1;
    std::uint64_t z = 0;
    for (int shift = 0;; shift += 7) {
      const std::uint8_t byte = *p++;
      z |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) break;
    }
    const std::uint64_t d = (z >> 1) ^ (~(z & 1) + 1);  // un-zigzag
    w[static_cast<std::size_t>(i)] += d;
  }
  return static_cast<std::size_t>(p - in);
}

void CopyLog::pop_front() {
  if (--count_ == 0) {
    clear();
    return;
  }
  Words w = words(front_);
  read_ += decode(buf_.data() + read_, w, pop_mask_);
  std::memcpy(static_cast<void*>(&front_), w.data(), sizeof(Packet));
  // Compact once the consumed prefix is at least half the buffer (amortised O(1) per copy).
  if (read_ >= 4096 && read_ * 2 >= end_) {
    std::memmove(buf_.data(), buf_.data() + read_, end_ - read_);
    end_ -= read_;
    read_ = 0;
  }
}

}  // namespace rdmasim
