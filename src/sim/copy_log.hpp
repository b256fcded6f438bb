// CopyLog: an RC requester's retransmission copies (sim/rc_connection.hpp), oldest first, stored
// compactly. A copy is the Packet exactly as it was handed to the fabric; a NAK or a timeout
// turns copies back into packets (go-back-N), an ACK drops the oldest ones.
//
// Encoding: front() is kept fully decoded; every later copy is stored as the difference of its
// Packet's 64-bit words from the copy before it — the 32-bit mask of the words that differ
// (one byte 0 when it is the previous record's mask, else 1 and the mask), then each
// difference (modulo 2^64) zigzag-LEB128 coded; or, when the mask and every difference are the
// previous record's, the one byte 2. Consecutive packets of a message differ in a few words
// (PSN and index, stamp, a ledger entry or two) in the same places, mostly by the same amounts
// (a packet paced one serialization after the one before, with the same waits), so a copy
// costs 1 byte (three in four at k=8) or ~9-20 bytes instead of sizeof(Packet) — what keeps a
// 2 MiB message's 512 copies per QP small.
//
// Invariants: decoding reproduces each pushed Packet word for word; size() == copies pushed and
// not popped; the byte stream holds exactly size() - 1 records (none when empty). The hot path
// allocates nothing once the stream's buffer has grown to the peak it needs (it is compacted,
// never shrunk): within twice the larger of 512 B and the live copies' records, plus one longest
// record and a quarter's growth.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "net/packet.hpp"

namespace rdmasim {

class CopyLog {
 public:
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  /// Bytes the encoded copies after front() take (for memory accounting).
  std::size_t stored_bytes() const { return end_ - read_; }
  /// Bytes its stream's buffer holds (consumed, live and free).
  std::size_t buffer_bytes() const { return buf_.size(); }

  /// Appends a copy of `p` (the newest).
  void push(const Packet& p);
  /// The oldest copy (!empty()).
  const Packet& front() const { return front_; }
  /// Drops the oldest copy (!empty()).
  void pop_front();
  void clear() {
    count_ = 0;
    read_ = end_ = 0;
    push_.mask = pop_.mask = 0;
  }
  /// Calls f(const Packet&) for every copy, oldest first (each one decoded into a scratch packet).
  template <typename F>
  void for_each(F&& f) const {
    if (count_ == 0) return;
    f(static_cast<const Packet&>(front_));
    Packet scratch;
    std::memcpy(static_cast<void*>(&scratch), static_cast<const void*>(&front_), sizeof(Packet));
    std::size_t at = read_;
    Delta last = pop_;
    for (std::size_t i = 1; i < count_; ++i) {
      at += decode(buf_.data() + at, scratch, last);
      f(static_cast<const Packet&>(scratch));
    }
  }

 private:
  static_assert(std::is_trivially_copyable_v<Packet>, "CopyLog stores Packet as raw words");
  static_assert(sizeof(Packet) % 8 == 0 && sizeof(Packet) / 8 <= 32, "Packet: at most 32 words");
  static constexpr std::size_t kWords = sizeof(Packet) / 8;
  static constexpr std::size_t kCompactFloor = 512;  // bytes consumed before a compaction may run
  using Words = std::array<std::uint64_t, kWords>;

  static Words words(const Packet& p) {
    Words w;
    std::memcpy(w.data(), static_cast<const void*>(&p), sizeof(Packet));
    return w;
  }
  /// Bit i set: word i of `p` differs from word i of `before`.
  static std::uint32_t changed_words(const Packet& p, const Words& before);
  /// Word i of a packet's bytes.
  static std::uint64_t word(const void* p, std::size_t i) {
    std::uint64_t v;
    std::memcpy(&v, static_cast<const unsigned char*>(p) + 8 * i, sizeof v);
    return v;
  }
  /// A record's changes: the words that differ and, for those, by how much.
  struct Delta {
    std::uint32_t mask = 0;
    Words diff{};
  };
  /// Applies the record at `in` to `p` (the previous copy, word by word); returns its length.
  /// `last`: the record before's changes, updated to this record's.
  static std::size_t decode(const std::uint8_t* in, Packet& p, Delta& last);

  Packet front_;                   // valid while count_ > 0
  Words back_{};                   // the newest copy's words, what push() codes against
  std::vector<std::uint8_t> buf_;  // records of the copies after front_: bytes [read_, end_)
  std::size_t read_ = 0, end_ = 0;
  std::size_t count_ = 0;
  Delta push_;  // the newest record's changes (what push() compares with)
  Delta pop_;   // the changes of the last record decoded into front_
};

}  // namespace rdmasim
