#include "core/scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

// Many events in one 256 ps bucket, scheduled latest first with ties: the short in-bucket walk
// gives up and the heap takes most of them, and they still run as one (time, sequence) sort.
TEST(Scheduler, DenseBucketOverflowsToTheHeapInOrder) {
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
  s.run();
  ASSERT_EQ(r.log.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.log[i].first, want[i].first) << i;
    EXPECT_EQ(r.log[i].second, want[i].second) << i;
  }
}
