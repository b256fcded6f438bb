// Unit tests of the live observation of a run: the scheduler's slice hook and the SampleProbe
// on real runs (what the dashboard streams and `--csv` writes as timeseries.csv).
#include <gtest/gtest.h>

#include <atomic>

#include "core/scheduler.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/exports.hpp"
#include "workload/sample_probe.hpp"

using namespace rdmasim;

namespace {

struct Tick final : EventHandler {
  std::vector<std::int64_t> at;
  void on_event(std::uint64_t) override { at.push_back(0); }
};
struct Slices final : SliceHook {
  Scheduler* s = nullptr;
  std::vector<std::pair<std::int64_t, std::size_t>> seen;  // slice end, events run by then
  Tick* t = nullptr;
  void on_slice(Time end) override { seen.emplace_back(end.count_ps(), t->at.size()); }
};

TEST(SliceHook, StopsAtEverySliceWithEventsInOrder) {
  Scheduler s;
  Tick t;
  for (std::int64_t ps : {5, 10, 11, 35, 100}) s.schedule_at(Time::ps(ps), t);
  Slices h;
  h.t = &t;
  s.set_slice_hook(&h, Time::ps(10));
  EXPECT_EQ(s.next_time(), Time::ps(5));
  s.run();
  // A slice ends at the first multiple of 10 above its first event and runs every event <= its
  // end: [5, 10] -> 10, [11] -> 20, [35] -> 40, [100] -> 110; empty slices are skipped.
  const std::vector<std::pair<std::int64_t, std::size_t>> want{{10, 2}, {20, 3}, {40, 4}, {110, 5}};
  EXPECT_EQ(h.seen, want);
  EXPECT_EQ(s.next_time(), Time::max());
}

TEST(SampleProbe, SamplesAddUpToTheRun) {
  BwConfig b;
  b.base.size = Bytes(65536);
  b.base.iters = 400;
  std::vector<Sample> got;
  ProbeOptions o;
  o.interval = Time::us(10);
  o.target_samples = 50;
  o.sink = [&](Sample&& s) { got.push_back(std::move(s)); };
  SampleProbe probe(o);
  Exports x{ExportOptions{}};
  x.set_probe(&probe);
  const BwResult with = run_bandwidth(b, &x);
  const BwResult without = run_bandwidth(b);
  EXPECT_EQ(with.bw_avg_bps, without.bw_avg_bps);  // observing does not change the run
  EXPECT_EQ(with.events, without.events);
  std::int64_t messages = 0;
  double prev_t = 0;
  for (const Sample& s : got) {
    messages += s.messages;
    EXPECT_GT(s.t_us, prev_t);
    EXPECT_NEAR(s.t_us - prev_t, s.dt_us, 1e-9);
    prev_t = s.t_us;
  }
  EXPECT_EQ(messages, 400);
  EXPECT_EQ(probe.messages(), 400);
  EXPECT_EQ(static_cast<std::int64_t>(got.size()), probe.samples());
  // 400 x 5.35 us at line rate ~ 2.1 ms: 50 slices of 10 us, 50 of 20, then 40 us ones.
  EXPECT_GT(got.size(), 100u);
  EXPECT_LT(got.size(), 200u);
  EXPECT_NEAR(got[60].dt_us, 20.0, 1e-9);
  EXPECT_EQ(got.back().events, with.events);
}

TEST(SampleProbe, CancelAndLimitsStopTheRun) {
  BwConfig b;
  b.base.size = Bytes(4096);
  b.base.iters = 2000;
  std::atomic<bool> cancel{true};
  ProbeOptions o;
  o.cancel = &cancel;
  SampleProbe p1(o);
  Exports x1{ExportOptions{}};
  x1.set_probe(&p1);
  try {
    run_bandwidth(b, &x1);
    FAIL() << "not stopped";
  } catch (const RunStopped& e) {
    EXPECT_EQ(e.key, "cancelled");
  }
  ProbeOptions o2;
  o2.max_sim_time = Time::us(50);
  SampleProbe p2(o2);
  Exports x2{ExportOptions{}};
  x2.set_probe(&p2);
  try {
    run_bandwidth(b, &x2);
    FAIL() << "not stopped";
  } catch (const RunStopped& e) {
    EXPECT_EQ(e.key, "limits.sim_time_us");
  }
}

}  // namespace
