#include "core/scheduler.hpp"

#include <gtest/gtest.h>

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
