#include "core/scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <stdexcept>
#include <vector>

#include "core/random.hpp"

using namespace rdmasim;
using namespace rdmasim::literals;

namespace {
struct Recorder : EventHandler {
  Scheduler& s;
  std::vector<std::pair<std::int64_t, std::uint64_t>> log;
  explicit Recorder(Scheduler& sc) : s(sc) {}
  void on_event(std::uint64_t arg) override { log.emplace_back(s.now().count_ps(), arg); }
};
}  // namespace

TEST(Scheduler, RunsInTimeOrder) {
  Scheduler s;
  Recorder r(s);
  s.schedule_at(30_ns, r, 3);
  s.schedule_at(10_ns, r, 1);
  s.schedule_at(20_ns, r, 2);
  s.run();
  ASSERT_EQ(r.log.size(), 3u);
  EXPECT_EQ(r.log[0], (std::pair<std::int64_t, std::uint64_t>{10'000, 1}));
  EXPECT_EQ(r.log[1].second, 2u);
  EXPECT_EQ(r.log[2].second, 3u);
  EXPECT_EQ(s.now(), 30_ns);
  EXPECT_EQ(s.executed(), 3u);
}

TEST(Scheduler, SameTimeEventsRunInInsertionOrder) {
  Scheduler s;
  Recorder r(s);
  for (std::uint64_t i = 0; i < 100; ++i) s.schedule_at(5_ns, r, i);
  s.run();
  for (std::uint64_t i = 0; i < 100; ++i) EXPECT_EQ(r.log[i].second, i);
}

TEST(Scheduler, RejectsThePast) {
  Scheduler s;
  Recorder r(s);
  s.schedule_at(10_ns, r);
  s.run();
  EXPECT_THROW(s.schedule_at(5_ns, r), std::logic_error);
}

TEST(Scheduler, RunUntilStopsAtLimit) {
  Scheduler s;
  Recorder r(s);
  s.schedule_at(10_ns, r, 1);
  s.schedule_at(20_ns, r, 2);
  s.run_until(15_ns);
  EXPECT_EQ(r.log.size(), 1u);
  EXPECT_EQ(s.pending(), 1u);
}

TEST(Scheduler, RandomLoadComesOutSorted) {
  Scheduler s;
  Recorder r(s);
  RandomStream rng(42, "test");
  for (std::uint64_t i = 0; i < 20'000; ++i) s.schedule_at(Time::ps(static_cast<std::int64_t>(rng.uniform_u64(0, 1000))), r, i);
  s.run();
  ASSERT_EQ(r.log.size(), 20'000u);
  for (std::size_t i = 1; i < r.log.size(); ++i) {
    ASSERT_LE(r.log[i - 1].first, r.log[i].first);
    if (r.log[i - 1].first == r.log[i].first) {
      ASSERT_LT(r.log[i - 1].second, r.log[i].second);
    }
  }
}

TEST(Scheduler, StopEndsTheRunAfterTheCurrentEvent) {
  Scheduler s;
  struct Stopper : EventHandler {
    Scheduler& s;
    std::vector<std::uint64_t> seen;
    explicit Stopper(Scheduler& sc) : s(sc) {}
    void on_event(std::uint64_t arg) override {
      seen.push_back(arg);
      if (arg == 2) s.stop();
    }
  } r(s);
  for (std::uint64_t i = 1; i <= 4; ++i) s.schedule_at(Time::ns(static_cast<std::int64_t>(i)), r, i);
  s.run();
  EXPECT_EQ(r.seen, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_TRUE(s.stopped());
  EXPECT_EQ(s.pending(), 2u);
  EXPECT_EQ(s.now(), 2_ns);
  s.run();  // a new run clears the stop and goes on
  EXPECT_EQ(r.seen, (std::vector<std::uint64_t>{1, 2, 3, 4}));
  EXPECT_FALSE(s.stopped());
}

// The timing wheel covers the next ~8.4 us; later events wait in the heap. An event scheduled
// far ahead (heap) and one scheduled later for the same time once it is near (wheel) still run
// in insertion order, and a mix of near and far delays comes out as one (time, sequence) sort.
TEST(Scheduler, WheelAndHeapKeepOneGlobalOrder) {
  Scheduler s;
  Recorder r(s);
  const Time far = Time::ms(5);
  s.schedule_at(far, r, 1);  // beyond the wheel: heap
  struct Later : EventHandler {
    Scheduler& s;
    Recorder& r;
    Time far;
    Later(Scheduler& sc, Recorder& rc, Time f) : s(sc), r(rc), far(f) {}
    void on_event(std::uint64_t) override { s.schedule_at(far, r, 2); }  // now near: wheel
  } later(s, r, far);
  s.schedule_at(far - Time::ns(100), later, 0);
  s.run();
  ASSERT_EQ(r.log.size(), 2u);
  EXPECT_EQ(r.log[0].second, 1u);
  EXPECT_EQ(r.log[1].second, 2u);
}

TEST(Scheduler, NearAndFarDelaysInterleaveExactly) {
  Scheduler s;
  struct Chain : EventHandler {
    Scheduler& s;
    RandomStream rng{7, "test.chain"};
    std::vector<std::pair<std::int64_t, std::uint64_t>> log;
    std::uint64_t next = 1000;
    explicit Chain(Scheduler& sc) : s(sc) {}
    void on_event(std::uint64_t arg) override {
      log.emplace_back(s.now().count_ps(), arg);
      if (log.size() > 30'000) return;
      // Mostly near (ns..us), sometimes past the wheel's span (up to 1 ms), sometimes "now".
      for (int k = 0; k < 2 && next < 1000 + 40'000; ++k) {
        const std::uint64_t pick = rng.uniform_u64(0, 99);
        const std::int64_t d = pick < 5 ? 0 : pick < 90 ? static_cast<std::int64_t>(rng.uniform_u64(1, 2'000'000))
                                                        : static_cast<std::int64_t>(rng.uniform_u64(60'000'000, 1'000'000'000));
        s.schedule_in(Time::ps(d), *this, next++);
      }
    }
  } chain(s);
  for (std::uint64_t i = 0; i < 50; ++i) s.schedule_at(Time::ps(static_cast<std::int64_t>(i * 977)), chain, i);
  s.run();
  ASSERT_GT(chain.log.size(), 30'000u);
  EXPECT_EQ(s.pending(), 0u);
  for (std::size_t i = 1; i < chain.log.size(); ++i) {
    ASSERT_LE(chain.log[i - 1].first, chain.log[i].first) << i;
    // Same time: scheduled earlier runs first (args grow with the scheduling order).
    if (chain.log[i - 1].first == chain.log[i].first) {
      ASSERT_LT(chain.log[i - 1].second, chain.log[i].second) << i;
    }
  }
}

// Many events in one 256 ps bucket ahead of now, scheduled latest first with ties: the bucket is
// appended to unsorted (a short in-bucket walk gives up) and sorted when it becomes the
// earliest, and its events run as one (time, sequence) sort; next_time() sees the earliest.
TEST(Scheduler, DenseBucketIsSortedWhenItIsReached) {
  Scheduler s;
  Recorder r(s);
  std::vector<std::pair<std::int64_t, std::uint64_t>> want;
  std::uint64_t id = 0;
  for (int k = 0; k < 200; ++k) {
    const std::int64_t at = 3907 * 256 + 255 - (k % 50) * 5;  // one bucket, descending, 4 of each time
    s.schedule_at(Time::ps(at), r, id);
    want.emplace_back(at, id++);
  }
  std::stable_sort(want.begin(), want.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  EXPECT_EQ(s.next_time(), Time::ps(want.front().first));
  s.run();
  ASSERT_EQ(r.log.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.log[i].first, want[i].first) << i;
    EXPECT_EQ(r.log[i].second, want[i].second) << i;
  }
}

namespace {
// The reference order: one std::set of (time, scheduling time, tag, sequence), the definition
// the scheduler keeps; an untagged event's tag is 0.
struct Oracle {
  std::set<std::tuple<std::int64_t, std::int64_t, std::uint32_t, std::uint64_t, std::uint64_t>> pending;  // + arg
  std::uint64_t seq = 0;
  std::int64_t now = 0;
  void schedule_at(std::int64_t at, std::uint64_t arg, std::uint32_t tag = 0) { pending.emplace(at, now, tag, seq++, arg); }
};
// One event in four tagged, with one of three tags.
std::uint32_t draw_tag(RandomStream& rng) { return rng.uniform_u64(0, 3) == 0 ? static_cast<std::uint32_t>(rng.uniform_u64(1, 3)) : 0; }

// Draws a delay that crowds buckets: now, within the bucket, the next few buckets, the wheel's
// span, and past it.
std::int64_t crowding_delay(RandomStream& rng) {
  const std::uint64_t pick = rng.uniform_u64(0, 99);
  if (pick < 15) return 0;
  if (pick < 45) return static_cast<std::int64_t>(rng.uniform_u64(1, 255));
  if (pick < 80) return static_cast<std::int64_t>(rng.uniform_u64(256, 5'000));
  if (pick < 97) return static_cast<std::int64_t>(rng.uniform_u64(5'000, 1'000'000));
  return static_cast<std::int64_t>(rng.uniform_u64(9'000'000, 40'000'000));
}
}  // namespace

// Crowded buckets (hundreds of events, inserted out of order, into now's bucket and ahead,
// some far enough for the heap, a quarter of them tagged) run in exactly the order of one
// (time, tie) sort: the
// same handler driven by the scheduler and by a std::set gives the same log, event for event.
// A smaller wheel (a parallel run's LPs take 2^12 buckets; 2^10 spans only 262 ns) sends more
// events to the heap and keeps the same order.
TEST(Scheduler, CrowdedBucketsMatchAReferenceOrder) {
  for (unsigned bits : {Scheduler::kWheelBits, 12u, 10u}) {
    SCOPED_TRACE("2^" + std::to_string(bits) + " buckets");
    constexpr int kInitial = 3'000;
    constexpr std::size_t kEvents = 200'000;
    std::vector<std::pair<std::int64_t, std::uint64_t>> got, want;
    {
      Scheduler s(bits);
      struct Chain : EventHandler {
        Scheduler& s;
        std::vector<std::pair<std::int64_t, std::uint64_t>>& log;
        RandomStream rng{11, "test.crowded"};
        std::uint64_t next = kInitial;
        Chain(Scheduler& sc, std::vector<std::pair<std::int64_t, std::uint64_t>>& l) : s(sc), log(l) {}
        void on_event(std::uint64_t arg) override {
          log.emplace_back(s.now().count_ps(), arg);
          const int n = log.size() < kEvents ? static_cast<int>(rng.uniform_u64(0, 2)) : 0;
          for (int k = 0; k < n; ++k) {
            const Time at = s.now() + Time::ps(crowding_delay(rng));
            if (const std::uint32_t tag = draw_tag(rng)) s.schedule_at(at, *this, next++, s.tie(tag));
            else s.schedule_at(at, *this, next++);
          }
        }
      } chain(s, got);
      RandomStream init(12, "test.crowded.init");
      for (int i = 0; i < kInitial; ++i) s.schedule_at(Time::ps(static_cast<std::int64_t>(init.uniform_u64(0, 20'000))), chain, static_cast<std::uint64_t>(i));
      s.run();
    }
    {
      Oracle o;
      RandomStream rng{11, "test.crowded"};
      std::uint64_t next = kInitial;
      RandomStream init(12, "test.crowded.init");
      for (int i = 0; i < kInitial; ++i) o.schedule_at(static_cast<std::int64_t>(init.uniform_u64(0, 20'000)), static_cast<std::uint64_t>(i));
      while (!o.pending.empty()) {
        const auto [at, since, tag, seq, arg] = *o.pending.begin();
        o.pending.erase(o.pending.begin());
        o.now = at;
        want.emplace_back(at, arg);
        const int n = want.size() < kEvents ? static_cast<int>(rng.uniform_u64(0, 2)) : 0;
        for (int k = 0; k < n; ++k) {
          const std::int64_t when = at + crowding_delay(rng);
          o.schedule_at(when, next++, draw_tag(rng));
        }
      }
    }
    ASSERT_GT(want.size(), kEvents);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << "event " << i;
  }
  EXPECT_THROW(Scheduler(9), std::invalid_argument);
  EXPECT_THROW(Scheduler(16), std::invalid_argument);
}

// The next bucket, crowded and out of order, is read ahead one link per event run before it
// (walk_ahead) while those events append to it: it still runs in (time, scheduling) order.
TEST(Scheduler, ABucketReadAheadWhileItGrowsRunsInOrder) {
  constexpr std::int64_t kA = 10 * 256, kB = 11 * 256;  // two neighbouring buckets
  Scheduler s;
  struct Appender : EventHandler {
    Scheduler& s;
    std::vector<std::pair<std::int64_t, std::uint64_t>> log;
    explicit Appender(Scheduler& sc) : s(sc) {}
    void on_event(std::uint64_t arg) override {
      log.emplace_back(s.now().count_ps(), arg);
      if (arg < 100) s.schedule_at(Time::ps(kB + static_cast<std::int64_t>(arg * 37 % 200)), *this, 1000 + arg);
    }
  } a(s);
  std::vector<std::tuple<std::int64_t, int, std::uint64_t>> want;  // (time, scheduled when, arg)
  for (std::uint64_t k = 0; k < 50; ++k) {  // B first, its times out of order: unsorted
    const std::int64_t at = kB + static_cast<std::int64_t>(k * 53 % 250);
    s.schedule_at(Time::ps(at), a, 500 + k);
    want.emplace_back(at, 0, 500 + k);
  }
  for (std::uint64_t k = 0; k < 30; ++k) {  // A: each appends one event to B when it runs
    s.schedule_at(Time::ps(kA + static_cast<std::int64_t>(k)), a, k);
    want.emplace_back(kA + static_cast<std::int64_t>(k), 0, k);
    want.emplace_back(kB + static_cast<std::int64_t>(k * 37 % 200), 1 + static_cast<int>(k), 1000 + k);
  }
  s.run();
  std::stable_sort(want.begin(), want.end(), [](const auto& x, const auto& y) {
    return std::get<0>(x) != std::get<0>(y) ? std::get<0>(x) < std::get<0>(y) : std::get<1>(x) < std::get<1>(y);
  });
  ASSERT_EQ(a.log.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(a.log[i], std::make_pair(std::get<0>(want[i]), std::get<2>(want[i]))) << "event " << i;
}

// run_until() stops before a crowded bucket's later events and leaves them in order.
TEST(Scheduler, RunUntilInsideACrowdedBucket) {
  Scheduler s;
  Recorder r(s);
  for (std::uint64_t k = 0; k < 100; ++k) s.schedule_at(Time::ps(static_cast<std::int64_t>(10 * 256 + 199 - k * 2)), r, k);
  s.run_until(Time::ps(10 * 256 + 99));
  ASSERT_EQ(r.log.size(), 50u);  // time 2759 - 2k <= 2659: k = 99 down to 50
  EXPECT_EQ(r.log.front(), (std::pair<std::int64_t, std::uint64_t>{10 * 256 + 1, 99}));
  EXPECT_EQ(r.log.back(), (std::pair<std::int64_t, std::uint64_t>{10 * 256 + 99, 50}));
  s.schedule_at(Time::ps(10 * 256 + 100), r, 1000);  // now's bucket, before its sorted rest
  s.run();
  ASSERT_EQ(r.log.size(), 101u);
  EXPECT_EQ(r.log[50], (std::pair<std::int64_t, std::uint64_t>{10 * 256 + 100, 1000}));
  EXPECT_EQ(r.log[51], (std::pair<std::int64_t, std::uint64_t>{10 * 256 + 101, 49}));
  EXPECT_EQ(r.log.back(), (std::pair<std::int64_t, std::uint64_t>{10 * 256 + 199, 0}));
}

// Ties: at one time, events run by when they were scheduled (a tied one: when its tie was
// taken); of those scheduled at one instant, untagged events first in the order they were
// scheduled, then tagged ones by tag and, within a tag, in the order their ties were taken, not
// the order they were scheduled in (a parallel run schedules a crossing a window after its tie
// was taken).
TEST(Scheduler, TaggedEventsRunAfterUntaggedOnesByTagThenTie) {
  Scheduler s;
  Recorder r(s);
  const Scheduler::Tie a1 = s.tie(7), b1 = s.tie(3), a2 = s.tie(7), b2 = s.tie(3);
  const Time t = Time::ns(5), far = Time::ms(1);  // the wheel, and the heap
  for (Time at : {t, far}) {
    const std::uint64_t base = at == t ? 0 : 100;
    s.schedule_at(at, r, base + 1, a2);
    s.schedule_at(at, r, base + 2);
    s.schedule_at(at, r, base + 3, b2);
    s.schedule_at(at, r, base + 4, a1);
    s.schedule_at(at, r, base + 5);
    s.schedule_at(at, r, base + 6, b1);
  }
  s.schedule_at(Time::ns(4), r, 50, s.tie(1));  // an earlier time comes first whatever its tie
  s.run_until(Time::ns(4));
  s.schedule_at(t, r, 8, s.tie(1));  // scheduled at 4 ns: after those scheduled at 0, and tagged
  s.schedule_at(t, r, 7);            // after the untagged one scheduled at 4 ns
  s.run();
  std::vector<std::uint64_t> order;
  for (const auto& e : r.log) order.push_back(e.second);
  EXPECT_EQ(order, (std::vector<std::uint64_t>{50, 2, 5, 6, 3, 4, 1, 7, 8, 102, 105, 106, 103, 104, 101}));
  // Leads past 2^40 ps (1.1 s) tie as if 1.1 s: a tie taken at 1 ms for 3 s and an untagged
  // event scheduled at 1.001 s for 3 s share the longest lead, and the untagged one runs first.
  const Time t0 = s.now(), t3 = t0 + Time::ms(3000);
  const Scheduler::Tie early = s.tie(1);
  s.schedule_at(t0 + Time::ms(1000), r, 199);  // the clock to 1.001 s
  s.run_until(t0 + Time::ms(1000));
  s.schedule_at(t3, r, 201, early);
  s.schedule_at(t3, r, 200);
  r.log.clear();
  s.run();
  ASSERT_EQ(r.log.size(), 2u);
  EXPECT_EQ(r.log[0].second, 200u);
  EXPECT_EQ(r.log[1].second, 201u);
  EXPECT_THROW(s.tie(0), std::invalid_argument);
  EXPECT_THROW(s.tie(1u << 24), std::invalid_argument);
  EXPECT_THROW(s.schedule_at(t3 + Time::ms(2), r, 0, Scheduler::Tie{1, 5, 0}), std::invalid_argument);  // not from tie()
  const Scheduler::Tie late = s.tie(2);
  EXPECT_THROW(s.schedule_at(Time::ps(late.since_ps - 1), r, 0, late), std::logic_error);  // in the past
}
