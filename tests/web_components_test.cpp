// Unit tests of the dashboard's components: the scheduler's slice hook, the SampleProbe on a
// real run, the EventStream's bounded per-client queues, the presets and the RunManager.
#include <gtest/gtest.h>

#include <thread>

#include "core/scheduler.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/exports.hpp"
#include "web/event_stream.hpp"
#include "web/presets.hpp"
#include "web/run_manager.hpp"
#include "web/sample_probe.hpp"

using namespace rdmasim;
using namespace rdmasim::web;

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

TEST(EventStream, SlowClientIsDecimatedNotBlocking) {
  EventStream s(/*history*/ 8, /*client*/ 8);
  auto slow = s.subscribe();
  s.publish("status", "running");
  for (int i = 0; i < 100; ++i) s.publish("sample", std::to_string(i));
  s.close("done", "{}");
  EXPECT_EQ(s.published(), 102u);
  std::vector<std::string> got;
  while (auto e = s.pop(slow, std::chrono::milliseconds(0))) got.push_back(e->type + ":" + e->data);
  EXPECT_TRUE(s.ended(slow));
  EXPECT_EQ(got.front(), "status:running");  // never dropped
  EXPECT_EQ(got.back(), "done:{}");
  EXPECT_LE(got.size(), 10u);
  EXPECT_EQ(got.size() - 2 + s.dropped(slow), 100u);  // every sample delivered or counted as dropped
  EXPECT_EQ(got[1], "sample:0");                     // the time range is kept: first and late samples
  EXPECT_LE(s.history_size(), 10u);
  auto late = s.subscribe();  // replays the (decimated) history
  EXPECT_EQ(s.pop(late, std::chrono::milliseconds(0))->data, "running");
}

TEST(EventStream, DecimateDropsEveryOtherSampleOnly) {
  std::deque<StreamEvent> q;
  for (const char* t : {"sample", "status", "sample", "sample", "sample"}) q.push_back({0, t, ""});
  EXPECT_EQ(EventStream::decimate(q), 2u);
  ASSERT_EQ(q.size(), 3u);
  EXPECT_EQ(q[1].type, "status");
}

TEST(Presets, EveryScenarioFileIsAPreset) {
  ASSERT_GE(presets().size(), 13u);
  const Preset* p = find_preset("incast-pfc");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->command, "bw");
  EXPECT_EQ(p->scenario["workload"]["incast"], 8);
  EXPECT_EQ(p->scenario["params"]["switch"]["buffer"], "2MiB");
  EXPECT_EQ(find_preset("nope"), nullptr);
}

TEST(RunManager, QueuesRunsAndKeepsAtMostMaxKept) {
  RunLimits l;
  l.workers = 1;
  l.max_kept = 2;
  RunManager m(l);
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) {
    RunRequest r;
    r.scenario = cli::parse_scenario(R"({"command":"budget"})", "t", true);
    r.scenario_json = {{"command", "budget"}};
    ids.push_back(m.submit(std::move(r)));
    ASSERT_TRUE(m.wait(ids.back(), std::chrono::seconds(30)));
  }
  EXPECT_EQ(ids.front(), "r1");
  EXPECT_FALSE(m.get("r1"));  // evicted
  ASSERT_TRUE(m.get("r4"));
  EXPECT_EQ((*m.get("r4"))["status"], "done");
  EXPECT_NEAR((*m.get("r4"))["metrics"]["budget_us"].get<double>(), 1.017, 0.001);  // README's lat figure
}

}  // namespace
