// CopyLog: copies come back word for word, oldest first, through push / pop_front / for_each,
// and consecutive packets of a message code into a few bytes each, one when they differ from
// the copy before as that one did from its own.
#include "sim/copy_log.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

using namespace rdmasim;

namespace {

bool same_bytes(const Packet& a, const Packet& b) { return std::memcmp(&a, &b, sizeof(Packet)) == 0; }

// Packets as a requester's NIC emits them: one message, consecutive PSNs, growing stamps and ledgers.
std::vector<Packet> message_packets(Message& m, int n) {
  std::vector<Packet> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    Packet& p = v[static_cast<std::size_t>(i)];
    std::memset(static_cast<void*>(&p), 0, sizeof(Packet));  // no stray padding
    p = Packet{};
    p.msg = &m;
    p.index = i;
    p.psn = 1000u + static_cast<std::uint32_t>(i);
    p.pos = i == 0 ? FramePos::first : i == n - 1 ? FramePos::last : FramePos::middle;
    p.wire = Bytes(i == n - 1 ? 1200 : 4178);
    p.payload = Bytes(i == n - 1 ? 1100 : 4096);
    p.stamp = Time::ps(5'000'000 + 335'000LL * i);
    p.ledger.add(Category::pcie_dma, Time::ps(120'000LL * (i + 1)));
    p.ledger.add(Category::queue, Time::ps(i % 3 == 0 ? 0 : 7'000LL * i));
    p.ledger.add(Category::driver, Time::ps(90'000));
    p.pinned = true;
  }
  return v;
}

}  // namespace

TEST(CopyLog, PopFrontReturnsEveryCopyInOrder) {
  Message m;
  const std::vector<Packet> v = message_packets(m, 512);
  CopyLog log;
  for (const Packet& p : v) log.push(p);
  EXPECT_EQ(log.size(), 512u);
  // Far below sizeof(Packet) per copy: the point of the log.
  EXPECT_LT(log.stored_bytes(), 511u * 24u);
  for (const Packet& p : v) {
    ASSERT_FALSE(log.empty());
    EXPECT_TRUE(same_bytes(log.front(), p)) << "psn " << p.psn;
    log.pop_front();
  }
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(log.stored_bytes(), 0u);
}

TEST(CopyLog, ForEachDecodesWithoutConsuming) {
  Message m;
  const std::vector<Packet> v = message_packets(m, 40);
  CopyLog log;
  for (const Packet& p : v) log.push(p);
  for (int pass = 0; pass < 2; ++pass) {
    std::size_t i = 0;
    log.for_each([&](const Packet& c) { EXPECT_TRUE(same_bytes(c, v[i++])); });
    EXPECT_EQ(i, v.size());
  }
  log.pop_front();
  std::size_t i = 1;
  log.for_each([&](const Packet& c) { EXPECT_TRUE(same_bytes(c, v[i++])); });
  EXPECT_EQ(i, v.size());
}

TEST(CopyLog, InterleavedPushPopAcrossMessagesAndLargeDifferences) {
  Message a, b;
  std::vector<Packet> all = message_packets(a, 3000);  // crosses the compaction threshold
  const std::vector<Packet> more = message_packets(b, 3000);
  all.insert(all.end(), more.begin(), more.end());
  all[10].stamp = Time::ps(-1);            // negative differences
  all[11].ledger.add(Category::recovery, Time::ps(std::int64_t{1} << 62));  // ten-byte varints
  CopyLog log;
  std::size_t next_out = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    log.push(all[i]);
    if (i % 3 == 2) {  // pop one for every three pushed
      ASSERT_TRUE(same_bytes(log.front(), all[next_out++]));
      log.pop_front();
    }
  }
  EXPECT_EQ(log.size(), all.size() - next_out);
  while (!log.empty()) {
    ASSERT_TRUE(same_bytes(log.front(), all[next_out++]));
    log.pop_front();
  }
  EXPECT_EQ(next_out, all.size());
  log.push(all[0]);  // reusable after it emptied, and after clear()
  EXPECT_TRUE(same_bytes(log.front(), all[0]));
  log.clear();
  EXPECT_TRUE(log.empty());
}

// Records reuse the previous record's mask when the same words differ; a packet that differs
// in other words (a resend's recovery time, an ECN mark) switches masks and back. Popping and
// decoding in between keep the masks in step.
TEST(CopyLog, ChangingWordMasksRoundTrip) {
  Message m;
  std::vector<Packet> v = message_packets(m, 300);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i % 7 == 3) v[i].ledger.add(Category::recovery, Time::us(static_cast<std::int64_t>(i)));
    if (i % 11 == 5) v[i].ce = true;
  }
  CopyLog log;
  std::size_t next = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    log.push(v[i]);
    if (i % 5 == 4) {  // an ACK for the two oldest
      for (int k = 0; k < 2; ++k) {
        ASSERT_TRUE(same_bytes(log.front(), v[next])) << next;
        log.pop_front();
        ++next;
      }
    }
  }
  std::size_t seen = next;
  log.for_each([&](const Packet& p) { EXPECT_TRUE(same_bytes(p, v[seen])) << seen; ++seen; });
  EXPECT_EQ(seen, v.size());
  for (; next < v.size(); ++next) {
    ASSERT_TRUE(same_bytes(log.front(), v[next])) << next;
    log.pop_front();
  }
  EXPECT_TRUE(log.empty());
}

// Steady consecutive packets of a message differ in the same few words, so most records are
// a mask-reuse byte and one-byte differences: under 12 bytes each here.
TEST(CopyLog, SteadyPacketsCodeCompactly) {
  Message m;
  std::vector<Packet> v = message_packets(m, 512);
  for (std::size_t i = 0; i < v.size(); ++i) v[i].ledger = v[0].ledger;  // same ledger: stamp, index, psn differ
  for (std::size_t i = 0; i + 1 < v.size(); ++i) v[i].pos = FramePos::middle, v[i].wire = Bytes(4178), v[i].payload = Bytes(4096);
  v.back() = v[v.size() - 2];
  v.back().index = static_cast<std::int32_t>(v.size() - 1);
  v.back().psn = 1000u + static_cast<std::uint32_t>(v.size() - 1);
  v.back().stamp = v[v.size() - 2].stamp + Time::ps(335'000);
  CopyLog log;
  for (const Packet& p : v) log.push(p);
  // The first record: flag, mask (4), stamp (3), index (1), psn (1); every later one repeats
  // its differences: one byte each.
  EXPECT_EQ(log.stored_bytes(), 10u + 510u);
  for (const Packet& p : v) {
    ASSERT_TRUE(same_bytes(log.front(), p));
    log.pop_front();
  }
}

// A copy that differs from the one before in a single byte, at every byte position of the
// packet (both 32-bit halves of every word, the last word included), comes back exactly.
TEST(CopyLog, EverySingleByteDifferenceRoundTrips) {
  Message m;
  const Packet base = message_packets(m, 1)[0];
  std::vector<Packet> v;
  for (std::size_t at = 0; at < sizeof(Packet); ++at) {
    v.push_back(base);
    v.push_back(base);
    unsigned char* bytes = reinterpret_cast<unsigned char*>(&v.back());
    bytes[at] = static_cast<unsigned char>(bytes[at] ^ 0x01);  // bools stay valid: 0 <-> 1
  }
  CopyLog log;
  for (const Packet& p : v) log.push(p);
  ASSERT_EQ(log.size(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    ASSERT_TRUE(same_bytes(log.front(), v[i])) << "copy " << i << " (byte " << i / 2 << ")";
    log.pop_front();
  }
}

// Runs of equal differences (one byte each) broken by changes of value and of mask, popped and
// walked from every position: the decoder's memory of the record before survives both.
TEST(CopyLog, RepeatedDifferencesRoundTripFromAnyPosition) {
  Message m;
  std::vector<Packet> v = message_packets(m, 200);
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i].ledger = v[0].ledger;
    v[i].pos = FramePos::middle;
    v[i].wire = Bytes(4178);
    v[i].payload = Bytes(4096);
    if (i >= 50) v[i].stamp += Time::ps(1'000 * static_cast<std::int64_t>(i - 49));  // a new step from 50 on
    if (i >= 120) v[i].ledger.add(Category::queue, Time::ps(3 * static_cast<std::int64_t>(i)));  // a new mask
    if (i == 160) v[i].ce = true;  // one odd copy in a run
  }
  for (std::size_t start = 0; start < v.size(); start += 13) {
    CopyLog log;
    for (const Packet& p : v) log.push(p);
    for (std::size_t k = 0; k < start; ++k) log.pop_front();
    std::size_t i = start;
    log.for_each([&](const Packet& c) { EXPECT_TRUE(same_bytes(c, v[i++])) << "from " << start << " at " << i - 1; });
    EXPECT_EQ(i, v.size());
    for (std::size_t k = start; k < v.size(); ++k) {
      ASSERT_TRUE(same_bytes(log.front(), v[k])) << "from " << start << " at " << k;
      log.pop_front();
    }
  }
  CopyLog log;
  for (const Packet& p : v) log.push(p);
  EXPECT_LT(log.stored_bytes(), 199u * 3u);  // mostly one byte per copy
}

TEST(CopyLog, AStreamingRequestersBufferStaysNearItsLiveCopies) {
  // An RC requester that keeps streaming never empties its log: 64 copies stay live while
  // 3,000 pass through (an ACK every 64 packets). Compaction keeps the buffer within twice the
  // larger of the 512 B floor and the live records, plus one longest record (325 B), plus a
  // quarter's growth slack, not at the thousands of consumed bytes a higher floor leaves.
  Message m;
  const std::vector<Packet> v = message_packets(m, 3000);
  CopyLog log;
  std::size_t out = 0;
  std::size_t most = 0, live = 0;
  for (const Packet& p : v) {
    log.push(p);
    if (log.size() > 64) {
      ASSERT_TRUE(same_bytes(log.front(), v[out++]));
      log.pop_front();
    }
    most = std::max(most, log.buffer_bytes());
    live = std::max(live, log.stored_bytes());
  }
  EXPECT_EQ(log.size(), 64u);
  EXPECT_GT(live, 512u);
  EXPECT_LE(most, (2 * live + 325) * 5 / 4);
  EXPECT_LT(most, 4096u);
}
