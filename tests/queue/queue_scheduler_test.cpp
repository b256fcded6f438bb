// Switch queue schedulers (rdmasim/queue_scheduler.hpp): ETS's deficit round robin frame by
// frame, its strict classes first, the port's split between two backlogged classes under ETS
// and under strict priority, the registry's error, and a scheduler registered from outside.
#include <gtest/gtest.h>

#include <algorithm>

#include "fabric_rig.hpp"
#include "queue/ets.hpp"
#include "rdmasim/queue_scheduler.hpp"
#include "rdmasim/scenario.hpp"

using namespace rdmasim;
using rdmasim::testing::Rig;

namespace {

// 1000-byte head frames in every class.
constexpr std::int64_t kHeads[8] = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};

// 300 frames in class 0 from h1 and 100 in class 3 from h2, into h0 at once: the classes of the
// first `n` frames h0 receives.
std::vector<std::uint8_t> first_arrivals(const std::string& scheduler, const std::string& weights, std::size_t n) {
  FabricOptions o;
  Profile p;
  apply_override(p, "switch.scheduler=" + scheduler);
  apply_override(p, "switch.ets_weights=" + weights);
  o.sw.scheduler = p.sw.scheduler;
  o.sw.ets_weights = p.sw.ets_weights;
  Rig r(3, o);
  r.incast({{1, 300, 0}, {2, 100, 3}});
  EXPECT_EQ(r.client.got.size(), 400u);
  std::vector<std::uint8_t> tcs;
  for (std::size_t i = 0; i < n && i < r.client.got.size(); ++i) tcs.push_back(r.client.got[i].tc);
  return tcs;
}

}  // namespace

// Weights 75 and 25: quanta 19,200 and 6,400 bytes. Class 0 sends 19 frames (200 bytes left),
// class 3 sends 6 (400 left); then class 0 has 19,400: 19 again.
TEST(QueueScheduler, EtsIsDeficitRoundRobinFrameByFrame) {
  Ets ets({75, 0, 0, 25, 0, 0, 0, 0});
  const EgressClasses both{0b1001, 0b1001, kHeads};
  std::vector<unsigned> picks;
  for (int i = 0; i < 50; ++i) picks.push_back(ets.pick(both));
  std::vector<unsigned> want(19, 0);
  want.insert(want.end(), 6, 3);
  want.insert(want.end(), 19, 0);
  want.insert(want.end(), 6, 3);
  EXPECT_EQ(picks, want);
}

TEST(QueueScheduler, EtsServesStrictClassesFirstAndAnEmptyClassForfeitsItsCredit) {
  Ets ets({75, 0, 0, 25, 0, 0, 0, 0});
  EXPECT_EQ(ets.pick({0b1001001, 0b1001001, kHeads}), 6u);  // class 6 (weight 0) is strict
  EXPECT_EQ(ets.pick({0b0001001, 0b0001001, kHeads}), 0u);  // class 0 starts its turn: 18,200 left
  // Class 0 empties: its turn ends and its credit is gone; class 3 alone takes every frame.
  for (int i = 0; i < 10; ++i) EXPECT_EQ(ets.pick({0b1000, 0b1000, kHeads}), 3u);
  // Class 3 is 2,800 bytes into its second quantum: it finishes its turn (2 frames); then class
  // 0, back with frames, gets one fresh quantum: 19 frames, not 37 (18,200 bytes kept + 19,200).
  std::vector<unsigned> picks;
  for (int i = 0; i < 22; ++i) picks.push_back(ets.pick({0b1001, 0b1001, kHeads}));
  std::vector<unsigned> want{3, 3};
  want.insert(want.end(), 19, 0);
  want.push_back(3);
  EXPECT_EQ(picks, want);
}

// Both classes backlogged at the switch: under ETS 75/25 the first 200 frames to reach h0 split
// 150/50 within one turn's burst; under strict priority class 3 goes first.
TEST(QueueScheduler, EtsSharesThePortStrictPriorityDoesNot) {
  const std::vector<std::uint8_t> ets = first_arrivals("ets", "75,0,0,25,0,0,0,0", 200);
  const auto zero = std::count(ets.begin(), ets.end(), 0);
  EXPECT_GE(zero, 150 - 19);
  EXPECT_LE(zero, 150 + 19);
  const std::vector<std::uint8_t> strict = first_arrivals("strict-priority", "75,0,0,25,0,0,0,0", 200);
  // Only the class-0 frames that left before class 3's first one arrived precede it.
  EXPECT_LE(std::count(strict.begin(), strict.begin() + 100, 0), 2);
}

TEST(QueueScheduler, WeightsAreCheckedAndTheRegistryNamesItsEntries) {
  Profile p;
  EXPECT_THROW(apply_override(p, "switch.ets_weights=50,50"), std::invalid_argument);
  EXPECT_THROW(apply_override(p, "switch.ets_weights=50,0,0,50,0,0,0,101"), std::invalid_argument);
  apply_override(p, "switch.ets_weights=50,0,0,40,0,0,0,0");
  EXPECT_THROW(validate(p), std::invalid_argument);  // the shares must add up to 100
  try {
    queue_scheduler("wfq");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown queue scheduler \"wfq\" (valid: strict-priority, ets)");
  }
}

// The model is open: a scheduler registered from outside is used by the fabric.
TEST(QueueScheduler, ARegisteredSchedulerRunsTheFabric) {
  struct LowestFirst final : QueueScheduler {
    unsigned pick(const EgressClasses& c) override { return static_cast<unsigned>(__builtin_ctz(c.eligible)); }
  };
  register_queue_scheduler({"lowest-first", "the lowest eligible class first", "", "a test",
                            [](const SwitchParams&) { return std::make_unique<LowestFirst>(); }});
  const std::vector<std::uint8_t> tcs = first_arrivals("lowest-first", "50,0,0,50,0,0,0,0", 290);
  EXPECT_LE(std::count(tcs.begin(), tcs.end(), 3), 2);  // class 0's 300 frames go first
  EXPECT_THROW(register_queue_scheduler({"lowest-first", "again", "", "", {}}), std::invalid_argument);
}

// RDMA data in class 3 (weighted) and CNPs in class 6 (strict) with no traffic in class 0: ETS
// with the default weights picks exactly what strict priority picks, frame for frame.
TEST(QueueScheduler, EtsWithOneWeightedClassInUseIsStrictPriority) {
  Scenario s = load_scenario(std::string(RDMASIM_SOURCE_DIR) + "/scenarios/incast-dcqcn.toml");
  const RunResult strict = run(s);
  apply_override(s, "params.switch.scheduler=ets");
  const RunResult ets = run(s);
  ASSERT_EQ(ets.metrics.size(), strict.metrics.size());
  for (std::size_t i = 0; i < ets.metrics.size(); ++i)
    EXPECT_EQ(ets.metrics[i].value, strict.metrics[i].value) << ets.metrics[i].name;
}
