// Unit tests of the dashboard's components: the EventStream's bounded per-client queues, the
// presets and the RunManager (the SampleProbe it uses: sample_probe_test.cpp).
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "rdmasim/bandwidth.hpp"
#include "rdmasim/exports.hpp"
#include "web/event_stream.hpp"
#include "web/presets.hpp"
#include "web/run_manager.hpp"

using namespace rdmasim;
using namespace rdmasim::web;

namespace {

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

// Views are computed on the manager's view threads, never the caller's; an error comes back as
// thrown; beyond max_views queued or computing, 429.
TEST(RunManager, ComputesViewsOnItsOwnThreadsWithinALimit) {
  RunLimits l;
  l.workers = 1;
  l.max_views = 2;
  RunManager m(l);
  const std::thread::id caller = std::this_thread::get_id();
  std::thread::id where;
  EXPECT_EQ(m.compute([&] { where = std::this_thread::get_id(); return nlohmann::ordered_json{{"x", 3}}; })["x"], 3);
  EXPECT_NE(where, caller);
  EXPECT_THROW(m.compute([]() -> nlohmann::ordered_json { throw ApiError(400, "size", "size: bad"); }), ApiError);
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::atomic<int> started{0};
  std::vector<std::thread> blocked;
  for (int i = 0; i < 2; ++i)  // one computing, one queued behind it
    blocked.emplace_back([&] { m.compute([&] { ++started; gate.wait(); return nlohmann::ordered_json(1); }); });
  while (started == 0 || m.views_pending() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  try {
    m.compute([] { return nlohmann::ordered_json(0); });
    ADD_FAILURE() << "a third view was accepted";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status, 429);
    EXPECT_EQ(e.key, "limits.views");
  }
  release.set_value();
  for (std::thread& t : blocked) t.join();
  EXPECT_EQ(started, 2);
  EXPECT_EQ(m.compute([] { return nlohmann::ordered_json(7); }), 7);  // the places are free again
}

TEST(RunManager, QueuesRunsAndKeepsAtMostMaxKept) {
  RunLimits l;
  l.workers = 1;
  l.max_kept = 2;
  RunManager m(l);
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) {
    RunRequest r;
    r.scenario = parse_scenario(R"({"command":"budget"})", "t", true);
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
