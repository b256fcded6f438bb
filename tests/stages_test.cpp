// The stage kinds (sim/stages.hpp) driven through hand-made paths against a recording sink.
#include "sim/stages.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim_rig.hpp"

using namespace rdmasim;
using namespace rdmasim::literals;
using Rig = rdmasim::testing::SimRig;

namespace {

// Split into 1000 B packets, serialize each at 8 Gb/s (1 ns per byte), a 100 ns delay, merge.
// `constant` false: the delay has a per-byte rate whose basis adds no bytes — the same time,
// but not a constant cost as far as the stage can tell.
PathSpec delayed_merge(bool constant) {
  PathSpec p;
  rdmasim::testing::split_and_serialize(p, Bytes(1000));
  Cost d;
  d.fixed = 100_ns;
  if (!constant) d.rate = Rate::gbps(100);  // basis none, no bytes: zero per-byte time
  p.delay(0, Category::propagate, "latency", d);
  p.merge(1, "merge");
  return p;
}

struct Outcome {
  std::vector<rdmasim::testing::RecordingSink::Got> got;
  std::uint64_t events = 0;
};

Outcome run_path(const PathSpec& spec, int messages, std::int64_t size) {
  Rig r;
  PathInstance path(r.ctx, r.hosts(), spec, r.sink, &r);
  for (int i = 0; i < messages; ++i) path.post(r.msg(static_cast<std::uint64_t>(i + 1), size));
  r.sched.run();
  return {r.sink.got, r.sched.executed()};
}

}  // namespace

TEST(DelayStage, ConstantDelayIntoAMergeHoldsOnlyTheLastPacket) {
  const Outcome folded = run_path(delayed_merge(true), 3, 10'000);
  const Outcome each = run_path(delayed_merge(false), 3, 10'000);
  ASSERT_EQ(folded.got.size(), 3u);
  ASSERT_EQ(each.got.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(folded.got[i].id, each.got[i].id);
    EXPECT_EQ(folded.got[i].e2e, each.got[i].e2e);
    EXPECT_EQ(folded.got[i].ledger, each.got[i].ledger);
    EXPECT_EQ(folded.got[i].ledger[Category::propagate], 100_ns);
  }
  // Ten packets a message: nine of them skip the delay's event.
  EXPECT_EQ(each.events - folded.events, 3u * 9u);
  // Back to back on the 8 Gb/s wire: message i completes after (i + 1) x 10 us plus the delay.
  EXPECT_EQ(folded.got[2].e2e, 30_us + 100_ns);
}
