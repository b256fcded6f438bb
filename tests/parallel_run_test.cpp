// ParallelRun: the same run whatever the number of threads, equal to an independent
// single-threaded reference of the window-synchronous rules, exact windows, and the checks.
#include "core/parallel_run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <thread>
#include <cstring>
#include <deque>
#include <limits>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "core/random.hpp"
#include "phold_model.hpp"
#include "thread_ranks.hpp"

namespace rdmasim {
namespace {

using phold::kLookahead;
using phold::LpResult;

// The same model and the same rules written plainly, on one thread: a priority queue per LP
// ordered by (time, scheduling time, tag, sequence) — a local event's tag 0, a crossing's its
// sender's (the sender's LP + 1) with a sequence from its sender's count — windows from the
// earliest head, crossings delivered between windows.
struct Reference {
  struct Ev {
    std::int64_t at;
    std::int64_t since;
    std::uint32_t tag;
    std::uint64_t seq;
    std::uint64_t token;
    bool operator>(const Ev& o) const { return std::tie(at, since, tag, seq) > std::tie(o.at, o.since, o.tag, o.seq); }
  };
  struct Lp {
    std::priority_queue<Ev, std::vector<Ev>, std::greater<>> q;
    std::uint64_t seq = 0;
    RandomStream rng;
    LpResult result;
    void push(std::int64_t at, std::int64_t since, std::uint64_t token) { q.push(Ev{at, since, 0, seq++, token}); }
  };
  std::vector<LpResult> run(int lps, int population, Time until, std::uint64_t& windows) {
    std::vector<Lp> lp;
    for (int i = 0; i < lps; ++i) lp.push_back(Lp{{}, 0, phold::stream_of(i), {}});
    for (int i = 0; i < lps; ++i)
      for (int k = 0; k < population; ++k)
        lp[static_cast<std::size_t>(i)].push(lp[static_cast<std::size_t>(i)].rng.uniform_time(kLookahead).count_ps(), 0,
                                             static_cast<std::uint64_t>(i * 1000 + k));
    windows = 0;
    for (;;) {
      std::int64_t start = std::numeric_limits<std::int64_t>::max();
      for (auto& l : lp)
        if (!l.q.empty()) start = std::min(start, l.q.top().at);
      if (start == std::numeric_limits<std::int64_t>::max() || start > until.count_ps()) break;
      const std::int64_t limit = start + kLookahead.count_ps() - 1;
      struct Crossing {
        int to;
        Ev ev;
      };
      std::vector<Crossing> crossings;
      for (int i = 0; i < lps; ++i) {
        Lp& l = lp[static_cast<std::size_t>(i)];
        while (!l.q.empty() && l.q.top().at <= limit) {
          const Ev e = l.q.top();
          l.q.pop();
          l.result.hash = phold::mix(phold::mix(l.result.hash, static_cast<std::uint64_t>(e.at)), e.token);
          ++l.result.events;
          const phold::Draw d = phold::draw(l.rng, i, lps);
          const std::uint64_t next = phold::next_token(e.token, i);
          if (d.remote) crossings.push_back(Crossing{d.target, Ev{e.at + d.delay.count_ps(), e.at, static_cast<std::uint32_t>(i) + 1, l.seq++, next}});
          else l.push(e.at + d.delay.count_ps(), e.at, next);
        }
      }
      for (const Crossing& c : crossings) lp[static_cast<std::size_t>(c.to)].q.push(c.ev);
      ++windows;
    }
    std::vector<LpResult> r;
    for (const auto& l : lp) r.push_back(l.result);
    return r;
  }
};

TEST(ParallelRun, ThreadsDoNotChangeTheRunAndItMatchesAPlainReference) {
  const Time until = Time::us(20);
  std::uint64_t ref_windows = 0;
  const auto ref = Reference{}.run(8, 16, until, ref_windows);
  std::uint64_t ref_events = 0;
  for (const auto& r : ref) ref_events += r.events;
  ASSERT_GT(ref_events, 50'000u);
  ASSERT_GE(ref_windows, 390u);  // windows of 50 ns, each starting at the earliest pending event
  ASSERT_LE(ref_windows, 401u);
  for (int threads : {1, 2, 3, 4, 8, 16}) {
    phold::Model m(8, 16);
    EXPECT_EQ(m.run(threads, until), ref) << threads << " threads";
    EXPECT_EQ(m.engine().windows(), ref_windows) << threads << " threads";
    EXPECT_EQ(m.engine().executed(), ref_events) << threads << " threads";
    EXPECT_GT(m.engine().crossings(), ref_events / 5) << threads << " threads";
  }
}

class Thrower final : public EventHandler {
 public:
  void on_event(std::uint64_t) override { throw std::runtime_error("model failed"); }
};
class Ticker final : public EventHandler {
 public:
  explicit Ticker(Scheduler& s) : s_(s) {}
  void on_event(std::uint64_t n) override {
    if (n > 0) s_.schedule_in(Time::ns(10), *this, n - 1);
  }

 private:
  Scheduler& s_;
};

TEST(ParallelRun, RanksEachRunningTheirLpsEqualOneProcess) {
  const Time until = Time::us(10);
  std::uint64_t ref_windows = 0;
  const auto ref = Reference{}.run(7, 8, until, ref_windows);
  for (int n : {1, 2, 3, 4}) {
    ThreadRanks all(n);
    std::vector<std::vector<LpResult>> results(static_cast<std::size_t>(n));
    std::vector<std::uint64_t> windows(static_cast<std::size_t>(n));
    {
      std::vector<std::jthread> ranks;
      for (int r = 0; r < n; ++r)
        ranks.emplace_back([&, r] {
          ThreadRanks::Rank me(all, r);
          phold::Model m(7, 8);  // every rank builds the whole model
          results[static_cast<std::size_t>(r)] = m.run(1, until, &me);
          windows[static_cast<std::size_t>(r)] = m.engine().windows();
          for (int lp = 0; lp < 7; ++lp) EXPECT_EQ(m.engine().runs_here(lp), lp % n == r);
        });
    }
    std::vector<LpResult> joined;
    for (std::size_t lp = 0; lp < 7; ++lp) joined.push_back(results[lp % static_cast<std::size_t>(n)][lp]);
    EXPECT_EQ(joined, ref) << n << " ranks";
    for (std::uint64_t w : windows) EXPECT_EQ(w, ref_windows) << n << " ranks";
  }
}

TEST(ParallelRun, ARankThatFailsStopsEveryRank) {
  ThreadRanks all(2);
  std::vector<std::string> errors(2);
  {
    std::vector<std::jthread> ranks;
    for (int r = 0; r < 2; ++r)
      ranks.emplace_back([&, r] {
        ThreadRanks::Rank me(all, r);
        ParallelRun run(2, Time::ns(50));
        Thrower t;
        Ticker tick(run.scheduler(0));
        run.scheduler(0).schedule_at(Time::zero(), tick, 100);
        run.scheduler(1).schedule_at(Time::ns(120), t);
        try {
          run.run(1, Time::max(), &me);
        } catch (const std::exception& e) {
          errors[static_cast<std::size_t>(r)] = e.what();
        }
        EXPECT_EQ(run.windows(), 2u);
      });
  }
  EXPECT_EQ(errors, (std::vector<std::string>{"another rank failed", "model failed"}));
}

TEST(ParallelRun, ARunResumedAfterUntilEqualsOneRun) {
  phold::Model whole(5, 8), parts(5, 8);
  const auto one = whole.run(2, Time::us(10));
  parts.run(3, Time::us(4));
  EXPECT_LT(parts.engine().executed(), whole.engine().executed());
  EXPECT_EQ(parts.run(1, Time::us(10)), one);
  EXPECT_EQ(parts.engine().executed(), whole.engine().executed());
  EXPECT_EQ(parts.engine().windows(), whole.engine().windows());
}

// Two LPs bouncing one token, each crossing due exactly the lookahead later: one window per
// bounce, each starting where the token lands.
class PingPong final : public EventHandler, public CrossingHandler {
 public:
  PingPong(ParallelRun& r, int lp) : run_(r), lp_(lp) { id = r.add_handler(lp, *this); }
  void on_event(std::uint64_t left) override {
    times.push_back(run_.scheduler(lp_).now());
    if (left == 0) return;
    const std::uint64_t next = left - 1;
    std::byte b[sizeof next];
    std::memcpy(b, &next, sizeof next);
    Scheduler& s = run_.scheduler(lp_);
    run_.send(lp_, peer, s.now() + run_.lookahead(), s.tie(static_cast<std::uint32_t>(lp_) + 1), b);
  }
  void accept(Time at, Scheduler::Tie tie, std::span<const std::byte> bytes) override {
    std::uint64_t left = 0;
    std::memcpy(&left, bytes.data(), sizeof left);
    run_.scheduler(lp_).schedule_at(at, *this, left, tie);
  }
  int id = -1, peer = -1;
  std::vector<Time> times;

 private:
  ParallelRun& run_;
  int lp_;
};

// Two LPs bouncing a crossing, `lookahead` apart.
struct Bounce {
  explicit Bounce(Time lookahead) : run(2, lookahead), a(run, 0), b(run, 1) {
    a.peer = b.id;
    b.peer = a.id;
  }
  ParallelRun run;
  PingPong a, b;
};

TEST(ParallelRun, OneWindowPerBounceAtExactTimes) {
  for (int threads : {1, 2}) {
    Bounce x(Time::ns(100));
    ParallelRun& run = x.run;
    PingPong &a = x.a, &b = x.b;
    run.scheduler(0).schedule_at(Time::ns(7), a, 5);
    run.run(threads);
    EXPECT_EQ(a.times, (std::vector<Time>{Time::ns(7), Time::ns(207), Time::ns(407)}));
    EXPECT_EQ(b.times, (std::vector<Time>{Time::ns(107), Time::ns(307), Time::ns(507)}));
    EXPECT_EQ(run.windows(), 6u);
    EXPECT_EQ(run.crossings(), 5u);
  }
}

// The hook between windows sees each window's end; it can ask for a window when no LP has an
// event (a check due later), and end the run.
TEST(ParallelRun, AHookBetweenWindowsWakesAndHaltsTheRun) {
  for (int threads : {1, 2}) {
    Bounce x(Time::ns(100));
    ParallelRun& run = x.run;
    PingPong& a = x.a;
    run.scheduler(0).schedule_at(Time::ns(7), a, 1);  // a -> b once: windows at 7 and 107 ns
    std::vector<Time> ends;
    run.add_between_windows([](Time) { return ParallelRun::Between{}; });  // asks for nothing
    run.add_between_windows([&](Time end) {
      ends.push_back(end);
      ParallelRun::Between w;
      if (ends.size() == 2) w.wake = Time::us(5);  // an idle stretch, then one window at 5 us
      w.halt = end >= Time::us(5);
      return w;
    });
    run.run(threads);
    EXPECT_EQ(ends, (std::vector<Time>{Time::ns(107), Time::ns(207), Time::ns(5100)})) << threads;
    EXPECT_TRUE(run.halted());
    run.scheduler(0).schedule_at(Time::us(6), a, 0);
    run.run(threads);  // halted for good
    EXPECT_EQ(ends.size(), 3u);
  }
}

class Early final : public EventHandler, public CrossingHandler {
 public:
  explicit Early(ParallelRun& r) : run_(r) { id = r.add_handler(1, *this); }
  void on_event(std::uint64_t) override {
    const std::byte b[1]{};
    run_.send(0, id, run_.scheduler(0).now() + run_.lookahead() - Time::ps(1), run_.scheduler(0).tie(1), b);
  }
  void accept(Time, Scheduler::Tie, std::span<const std::byte>) override {}
  int id = -1;

 private:
  ParallelRun& run_;
};

TEST(ParallelRun, ACrossingInsideTheLookaheadIsRefused) {
  for (int threads : {1, 2}) {
    ParallelRun run(2, Time::ns(50));
    Early e(run);
    run.scheduler(0).schedule_at(Time::ns(1), e);
    try {
      run.run(threads);
      ADD_FAILURE() << "no error";
    } catch (const std::logic_error& err) {
      EXPECT_NE(std::string(err.what()).find("49999 ps ahead, inside the lookahead of 50000 ps"), std::string::npos) << err.what();
    }
  }
  ParallelRun run(1, Time::ns(1));
  const std::byte b[1]{};
  EXPECT_THROW(run.send(0, 0, Time::ns(5), run.scheduler(0).tie(1), b), std::logic_error);  // no handler 0
  EXPECT_THROW(ParallelRun(0, Time::ns(1)), std::invalid_argument);
  EXPECT_THROW(ParallelRun(2, Time::zero()), std::invalid_argument);
}

TEST(ParallelRun, AnEventThatThrowsEndsEveryWorkerAndRunRethrows) {
  for (int threads : {1, 2, 4}) {
    ParallelRun run(4, Time::ns(50));
    Thrower t;
    std::deque<Ticker> tickers;
    for (int lp = 0; lp < 4; ++lp) {
      tickers.emplace_back(run.scheduler(lp));
      run.scheduler(lp).schedule_at(Time::zero(), tickers.back(), 1000);
    }
    run.scheduler(3).schedule_at(Time::ns(120), t);
    EXPECT_THROW(run.run(threads), std::runtime_error) << threads;
    EXPECT_EQ(run.windows(), 2u) << threads;  // [0, 50) and [50, 100) ran; [100, 150) failed
  }
}

}  // namespace
}  // namespace rdmasim

namespace rdmasim {
namespace {

// A small model run on one scheduler and on three LPs: LP0 and LP2 send crossings to LP1, due
// at one instant T, at time 0 and at 10 ns, while LP1 schedules its own events for T then too.
// Tied with their senders' tags (LP0's tag 5, LP2's tag 2, so that tag order is not LP order),
// every event at T runs in the order one scheduler gives it: those scheduled at 0 first, LP1's
// own, then LP2's, then LP0's; then those scheduled at 10 ns in the same order.
class Tagger final : public EventHandler, public CrossingHandler {
 public:
  // `run` null: one scheduler `one`, crossings scheduled directly.
  Tagger(ParallelRun* run, Scheduler& one, int lp, std::vector<std::uint64_t>& log) : run_(run), one_(one), lp_(lp), log_(log) {
    if (run_) id = run_->add_handler(lp, *this);
  }
  Scheduler& sched() { return run_ ? run_->scheduler(lp_) : one_; }
  // arg: kRoot, kLater (the 10 ns event), or a mark >= 100 logged at T.
  static constexpr std::uint64_t kRoot = 1, kLater = 2;
  void on_event(std::uint64_t arg) override {
    if (arg >= 100) return log_.push_back(arg);
    const std::uint64_t mark = 100 + 10 * static_cast<std::uint64_t>(lp_) + arg;  // 10x: LP0's, 11x: LP1's, 12x: LP2's
    if (lp_ != 1) {  // a crossing to LP1
      const Scheduler::Tie tie = sched().tie(lp_ == 0 ? 5 : 2);
      if (run_) {
        std::byte b[sizeof mark];
        std::memcpy(b, &mark, sizeof mark);
        run_->send(lp_, peer, kT, tie, b);
      } else {
        one_.schedule_at(kT, *peer_handler, mark, tie);
      }
    } else {
      sched().schedule_at(kT, *this, mark);
    }
    if (arg == kRoot) sched().schedule_at(Time::ns(10), *this, kLater);
  }
  void accept(Time at, Scheduler::Tie tie, std::span<const std::byte> bytes) override {
    std::uint64_t mark = 0;
    std::memcpy(&mark, bytes.data(), sizeof mark);
    run_->scheduler(lp_).schedule_at(at, *this, mark, tie);
  }
  static constexpr Time kT = Time::ns(100);
  int id = -1, peer = -1;
  Tagger* peer_handler = nullptr;

 private:
  ParallelRun* run_;
  Scheduler& one_;
  int lp_;
  std::vector<std::uint64_t>& log_;
};

TEST(ParallelRun, ACrossingRunsAmongItsReceiversEventsByItsTie) {
  std::vector<std::uint64_t> one_log, part_log;
  {
    Scheduler one;
    Tagger a(nullptr, one, 0, one_log), b(nullptr, one, 1, one_log), c(nullptr, one, 2, one_log);
    a.peer_handler = c.peer_handler = &b;
    for (Tagger* t : {&a, &b, &c}) one.schedule_at(Time::zero(), *t, Tagger::kRoot);  // the set-up, in LP order
    one.run();
  }
  EXPECT_EQ(one_log, (std::vector<std::uint64_t>{111, 121, 101, 112, 122, 102}));
  for (int threads : {1, 2, 3}) {
    part_log.clear();
    Scheduler unused;
    ParallelRun run(3, Time::ns(50));
    Tagger a(&run, unused, 0, part_log), b(&run, unused, 1, part_log), c(&run, unused, 2, part_log);
    a.peer = c.peer = b.id;
    for (int lp = 0; lp < 3; ++lp) run.scheduler(lp).schedule_at(Time::zero(), lp == 0 ? a : lp == 1 ? b : c, Tagger::kRoot);
    run.run(threads);
    // Scheduled untagged when delivered, after the window, LP1 would run them after its own
    // and in delivery order (sender LP0 first): 111, 112, 101, 102, 121, 122.
    EXPECT_EQ(part_log, one_log) << threads << " threads";
  }
}

}  // namespace
}  // namespace rdmasim
