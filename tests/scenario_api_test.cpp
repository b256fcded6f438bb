// The public model (rdmasim/scenario.hpp, rdmasim/observer.hpp): a scenario built in code runs
// as its file does, its result carries the command's own result, an observer sees every
// message once and never changes the run, and the run stops when the observer cancels it.
#include "rdmasim/scenario.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <variant>

using namespace rdmasim;

namespace {

Scenario incast() {
  Scenario s = make_scenario(Command::bw);
  for (const char* a : {"network.topology=single-switch", "network.hosts=5", "workload.pattern=incast",
                        "workload.incast=4", "workload.iters=50", "workload.size=16KiB"})
    apply_override(s, a);
  return s;
}

class Recorder final : public RunObserver {
 public:
  explicit Recorder(ObserveOptions o = {}) : o_(std::move(o)) {}
  ObserveOptions options() const override { return o_; }
  void on_sample(Sample&& s) override { samples.push_back(std::move(s)); }
  void on_end(const RunEnd& e) override {
    end = e;
    ++ends;
  }
  std::vector<Sample> samples;
  RunEnd end;
  int ends = 0;

 private:
  ObserveOptions o_;
};

}  // namespace

TEST(ScenarioApi, BuiltInCodeRunsAsItsFileDoes) {
  const Scenario s = incast();
  const RunResult a = run(s);
  const RunResult b = run(parse_scenario(to_toml(s), "incast.toml"));
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (std::size_t i = 0; i < a.metrics.size(); ++i) {
    EXPECT_EQ(a.metrics[i].name, b.metrics[i].name);
    EXPECT_EQ(a.metrics[i].value, b.metrics[i].value) << a.metrics[i].name;
  }
  ASSERT_TRUE(std::holds_alternative<TrafficResult>(a.detail));
  const TrafficResult& t = std::get<TrafficResult>(a.detail);
  EXPECT_EQ(t.flows.size(), 4u);
  EXPECT_EQ(a.metric("aggregate_Gbps"), t.aggregate_bps / 1e9);
  EXPECT_EQ(a.metric("fabric.pause_frames"), static_cast<double>(t.fabric.pause_frames));
  EXPECT_THROW(a.metric("no_such_metric"), std::out_of_range);

  const RunResult lat = run(make_scenario(Command::lat));
  ASSERT_TRUE(std::holds_alternative<LatResult>(lat.detail));
  EXPECT_EQ(lat.metric("t_typical_us"), std::get<LatResult>(lat.detail).stats.typical_us());
  EXPECT_TRUE(std::holds_alternative<BudgetResult>(run(make_scenario(Command::budget)).detail));
}

TEST(ScenarioApi, AnObserverSeesEveryMessageOnceAndChangesNothing) {
  const Scenario s = incast();
  Recorder r;
  const RunResult watched = run(s, &r);
  const RunResult plain = run(s);
  for (std::size_t i = 0; i < plain.metrics.size(); ++i) EXPECT_EQ(watched.metrics[i].value, plain.metrics[i].value);
  ASSERT_EQ(r.ends, 1);
  ASSERT_FALSE(r.samples.empty());
  std::int64_t messages = 0;
  double t = 0;
  for (const Sample& x : r.samples) {
    EXPECT_GT(x.t_us, t);  // disjoint slices, in time order
    EXPECT_GE(x.t_us - x.dt_us, t - 1e-9);
    t = x.t_us;
    messages += x.messages;
    EXPECT_EQ(x.total_messages, messages);
  }
  EXPECT_EQ(messages, 4 * 50);
  EXPECT_EQ(r.end.messages, 4 * 50);
  EXPECT_EQ(r.end.samples, static_cast<std::int64_t>(r.samples.size()));
  EXPECT_EQ(r.end.port_names.size(), r.end.utilisation.size());
  EXPECT_EQ(r.end.port_names.size(), 10u);  // five cables, both ways
}

TEST(ScenarioApi, CancellingStopsTheRun) {
  std::atomic<bool> cancel{true};
  ObserveOptions o;
  o.cancel = &cancel;
  Recorder r(o);
  try {
    run(incast(), &r);
    FAIL() << "ran to the end";
  } catch (const RunStopped& e) {
    EXPECT_EQ(e.key, "cancelled");
  }
  EXPECT_EQ(r.ends, 0);
}

TEST(ScenarioApi, RunRefusesWhatItCannotDo) {
  Scenario s = make_scenario(Command::lat);
  apply_override(s, "outputs.trace=t.json");
  EXPECT_THROW(run(s), std::invalid_argument);
  Scenario all = make_scenario(Command::lat);
  apply_override(all, "workload.all=true");
  EXPECT_THROW(run(all), std::invalid_argument);
  Scenario bad = make_scenario(Command::bw);
  apply_override(bad, "workload.duration=0");
  EXPECT_THROW(run(bad), std::invalid_argument);
}

TEST(ScenarioApi, AFailedExperimentSaysSo) {
  Scenario s = make_scenario(Command::bw);
  for (const char* a : {"network.topology=single-switch", "network.hosts=4", "workload.pattern=permutation",
                        "workload.iters=20", "network.loss=0.3", "rc.retry_cnt=1", "rc.timeout=1"})
    apply_override(s, a);
  const RunResult bad = run(s);
  EXPECT_EQ(bad.failure, "4 QPs in RETRY_EXC_ERR");
  EXPECT_EQ(bad.failure, traffic_failure(std::get<TrafficResult>(bad.detail)));
  apply_override(s, "network.loss=0");
  EXPECT_EQ(run(s).failure, "");
  Scenario one = make_scenario(Command::bw);
  for (const char* a : {"network.topology=single-switch", "workload.iters=20", "network.drop_frames=h0-sw0=5",
                        "rc.retry_cnt=0", "rc.timeout=1"})
    apply_override(one, a);
  EXPECT_EQ(run(one).failure, "the QP completed with RETRY_EXC_ERR");
}
