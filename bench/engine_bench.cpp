// engine_bench: throughput of the discrete-event engine and of one end-to-end latency run.
//
// BM_SchedulerHold/N   rdmasim::Scheduler (timing wheel over a 4-ary heap) under the classic "hold model": N
//                      events are pending before timing starts; each timed iteration runs one
//                      event (step()), whose handler schedules exactly one new event at
//                      now + increment, so the queue stays at N. Increments are uniform in
//                      [1, 1'000'000] ps, drawn once from RandomStream into a table so the RNG
//                      is not measured. items/s = events executed per second.
// BM_BaselineHold/N    the same hold loop, same prefill times, same increment sequence, on a
//                      plain std::priority_queue of {at, seq, handler*, arg} ordered by
//                      (at, seq), with the same virtual handler dispatch and the same
//                      "not in the past" check, as a reference point for BM_SchedulerHold.
// BM_LatencyRun        rdmasim::run_latency() with a default LatConfig and iters = 100'000
//                      (ib_write_lat, 2 B, RoCE, default profile); items/s = ping-pong
//                      iterations per second; sim_events/s = scheduler events per second.
//
// N is 1'000 (heap fits in L1/L2) and 1'000'000 (32 MB of entries: cache-miss bound).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <stdexcept>
#include <vector>

#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/units.hpp"

namespace {

using rdmasim::EventHandler;
using rdmasim::RandomStream;
using rdmasim::Scheduler;
using rdmasim::Time;

constexpr std::uint64_t kSeed = 42;
constexpr std::uint64_t kMaxIncrementPs = 1'000'000;
constexpr std::size_t kIncrementTableSize = std::size_t{1} << 16;  // 512 KiB of Time
constexpr std::size_t kIncrementMask = kIncrementTableSize - 1;

// Pre-generated increments shared by both hold benchmarks (identical sequence for both).
const std::vector<Time>& increments() {
  static const std::vector<Time> table = [] {
    RandomStream rng(kSeed, "bench.hold.increment");
    std::vector<Time> t(kIncrementTableSize);
    for (Time& x : t) x = Time::ps(static_cast<std::int64_t>(rng.uniform_u64(1, kMaxIncrementPs)));
    return t;
  }();
  return table;
}

// Initial pending times, uniform in [0, kMaxIncrementPs] ps; same for both benchmarks.
std::vector<Time> prefill_times(std::size_t n) {
  RandomStream rng(kSeed, "bench.hold.prefill");
  std::vector<Time> t(n);
  for (Time& x : t) x = Time::ps(static_cast<std::int64_t>(rng.uniform_u64(0, kMaxIncrementPs)));
  return t;
}

// ---------------------------------------------------------------------------------------------
// rdmasim::Scheduler

class SchedulerHoldHandler final : public EventHandler {
 public:
  explicit SchedulerHoldHandler(Scheduler& s) : sched_(s), inc_(increments().data()) {}
  void on_event(std::uint64_t arg) override {
    sched_.schedule_in(inc_[next_++ & kIncrementMask], *this, arg);
  }

 private:
  Scheduler& sched_;
  const Time* inc_;
  std::size_t next_ = 0;
};

void BM_SchedulerHold(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  Scheduler sched;
  SchedulerHoldHandler handler(sched);
  {
    const std::vector<Time> times = prefill_times(n);
    for (std::size_t i = 0; i < n; ++i) sched.schedule_at(times[i], handler, i);
  }

  for (auto _ : state) {
    sched.step();
  }

  if (sched.pending() != n) state.SkipWithError("hold model: queue size changed");
  benchmark::DoNotOptimize(sched.now());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["pending"] = static_cast<double>(n);
}

// ---------------------------------------------------------------------------------------------
// Baseline: std::priority_queue with the same entry layout and ordering.

class BaselineQueue {
 public:
  explicit BaselineQueue(std::size_t reserve) : q_(Later{}, reserved(reserve)) {}

  Time now() const { return now_; }
  std::size_t pending() const { return q_.size(); }

  void schedule_at(Time at, EventHandler& h, std::uint64_t arg) {
    if (at < now_) throw std::logic_error("BaselineQueue: event scheduled in the past");
    q_.push(Entry{at, next_seq_++, &h, arg});
  }
  void schedule_in(Time delay, EventHandler& h, std::uint64_t arg) { schedule_at(now_ + delay, h, arg); }

  bool step() {
    if (q_.empty()) return false;
    const Entry e = q_.top();
    q_.pop();
    now_ = e.at;
    ++executed_;
    e.handler->on_event(e.arg);
    return true;
  }

 private:
  struct Entry {
    Time at;
    std::uint64_t seq;
    EventHandler* handler;
    std::uint64_t arg;
  };
  // std::priority_queue is a max-heap: "a before b in the queue's order" means a runs later.
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return b.at < a.at || (a.at == b.at && b.seq < a.seq);
    }
  };
  static std::vector<Entry> reserved(std::size_t n) {
    std::vector<Entry> v;
    v.reserve(n);
    return v;
  }

  std::priority_queue<Entry, std::vector<Entry>, Later> q_;
  Time now_{};
  std::uint64_t next_seq_ = 0;
  std::uint64_t executed_ = 0;
};

class BaselineHoldHandler final : public EventHandler {
 public:
  explicit BaselineHoldHandler(BaselineQueue& q) : q_(q), inc_(increments().data()) {}
  void on_event(std::uint64_t arg) override {
    q_.schedule_in(inc_[next_++ & kIncrementMask], *this, arg);
  }

 private:
  BaselineQueue& q_;
  const Time* inc_;
  std::size_t next_ = 0;
};

void BM_BaselineHold(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  BaselineQueue queue(n + 1);
  BaselineHoldHandler handler(queue);
  {
    const std::vector<Time> times = prefill_times(n);
    for (std::size_t i = 0; i < n; ++i) queue.schedule_at(times[i], handler, i);
  }

  for (auto _ : state) {
    queue.step();
  }

  if (queue.pending() != n) state.SkipWithError("hold model: queue size changed");
  benchmark::DoNotOptimize(queue.now());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["pending"] = static_cast<double>(n);
}

// ---------------------------------------------------------------------------------------------
// End-to-end: one perftest-style latency run through the public API.

void BM_LatencyRun(benchmark::State& state) {
  rdmasim::LatConfig cfg;
  cfg.iters = 100'000;
  std::uint64_t events = 0;
  for (auto _ : state) {
    rdmasim::LatResult r = rdmasim::run_latency(cfg);
    if (r.invariant_violations != 0) {
      state.SkipWithError("run_latency: ledger invariant violated");
      break;
    }
    events += r.events;
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * cfg.iters);
  state.counters["sim_events"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_SchedulerHold)->Arg(1'000)->Arg(1'000'000);
BENCHMARK(BM_BaselineHold)->Arg(1'000)->Arg(1'000'000);
BENCHMARK(BM_LatencyRun)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
