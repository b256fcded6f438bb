#include "sim/copy_log.hpp"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rdmasim {

std::uint32_t CopyLog::changed_words(const Packet& p, const Words& before) {
  const auto* w = reinterpret_cast<const unsigned char*>(&p);
  std::uint32_t mask = 0;
#if defined(__SSE2__)
  // Which 32-bit halves are equal, 16 bytes at a time (bit 2i and 2i+1: word i); a word is
  // unchanged when both its halves are, then the odd bits are squeezed out.
  static_assert(kWords % 2 == 0 && kWords <= 32);
  std::uint64_t equal = 0;
  for (std::size_t i = 0; i < kWords; i += 2) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 8 * i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(before.data() + i));
    equal |= static_cast<std::uint64_t>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, b)))) << (2 * i);
  }
  std::uint64_t x = ~(equal & (equal >> 1)) & 0x5555555555555555ULL;  // bit 2i: word i changed
  x = (x | (x >> 1)) & 0x3333333333333333ULL;
  x = (x | (x >> 2)) & 0x0f0f0f0f0f0f0f0fULL;
  x = (x | (x >> 4)) & 0x00ff00ff00ff00ffULL;
  x = (x | (x >> 8)) & 0x0000ffff0000ffffULL;
  x = (x | (x >> 16)) & 0x00000000ffffffffULL;
  mask = static_cast<std::uint32_t>(x);
  if constexpr (kWords < 32) mask &= (std::uint32_t{1} << kWords) - 1;
#else
  for (std::size_t i = 0; i < kWords; ++i)
    if (word(w, i) != before[i]) mask |= std::uint32_t{1} << i;
#endif
  return mask;
}

void CopyLog::push(const Packet& p) {
  if (count_++ == 0) {
    std::memcpy(static_cast<void*>(&front_), static_cast<const void*>(&p), sizeof(Packet));  // raw, padding too
    back_ = words(p);
    return;
  }
  const std::uint32_t mask = changed_words(p, back_);
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
  // The differences, and whether they repeat the newest record's.
  std::array<std::uint64_t, kWords> d;
  bool repeat = mask == push_.mask;
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const auto i = static_cast<std::size_t>(__builtin_ctz(m));
    const std::uint64_t now = word(&p, i);
    d[i] = now - back_[i];
    back_[i] = now;  // (the unchanged words are equal already)
    repeat = repeat && d[i] == push_.diff[i];
  }
  if (repeat) {
    *out++ = 2;
  } else {
    if (mask == push_.mask) {
      *out++ = 0;  // the mask of the record before
    } else {
      *out++ = 1;
      for (int b = 0; b < 4; ++b) *out++ = static_cast<std::uint8_t>(mask >> (8 * b));
      push_.mask = mask;
    }
    for (std::uint32_t m = mask; m; m &= m - 1) {
      const auto i = static_cast<std::size_t>(__builtin_ctz(m));
      push_.diff[i] = d[i];
      std::uint64_t z = (d[i] << 1) ^ static_cast<std::uint64_t>(static_cast<std::int64_t>(d[i]) >> 63);  // zigzag
      while (z >= 0x80) {
        *out++ = static_cast<std::uint8_t>(z | 0x80);
        z >>= 7;
      }
      *out++ = static_cast<std::uint8_t>(z);
    }
  }
  end_ = static_cast<std::size_t>(out - buf_.data());
}

std::size_t CopyLog::decode(const std::uint8_t* in, Packet& packet, Delta& last) {
  auto* w = reinterpret_cast<unsigned char*>(&packet);
  const std::uint8_t* p = in;
  const std::uint8_t flag = *p++;
  if (flag == 1) {
    last.mask = 0;
    for (int b = 0; b < 4; ++b) last.mask |= static_cast<std::uint32_t>(*p++) << (8 * b);
  }
  for (std::uint32_t mask = last.mask; mask; mask &= mask - 1) {
    const auto i = static_cast<std::size_t>(__builtin_ctz(mask));
    if (flag != 2) {  // else: the record before's difference again
      std::uint64_t z = 0;
      for (int shift = 0;; shift += 7) {
        const std::uint8_t byte = *p++;
        z |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
        if (!(byte & 0x80)) break;
      }
      last.diff[i] = (z >> 1) ^ (~(z & 1) + 1);  // un-zigzag
    }
    const std::uint64_t v = word(w, i) + last.diff[i];
    std::memcpy(w + 8 * i, &v, sizeof v);
  }
  return static_cast<std::size_t>(p - in);
}

void CopyLog::pop_front() {
  if (--count_ == 0) {
    clear();
    return;
  }
  read_ += decode(buf_.data() + read_, front_, pop_);
  // Compact once the consumed prefix is at least half the buffer (amortised O(1) per copy:
  // each byte moved was preceded by a byte consumed). The floor keeps the memmoves few when a
  // QP holds few copies; it is small because an RC requester that keeps streaming never
  // empties its log, and its buffer grows to about twice the larger of the floor and its live copies.
  if (read_ >= kCompactFloor && read_ * 2 >= end_) {
    std::memmove(buf_.data(), buf_.data() + read_, end_ - read_);
    end_ -= read_;
    read_ = 0;
  }
}

}  // namespace rdmasim
