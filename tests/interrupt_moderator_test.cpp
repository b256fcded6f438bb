#include "sim/interrupt_moderator.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "sim_rig.hpp"

using namespace rdmasim;
using namespace rdmasim::literals;
using Rig = rdmasim::testing::SimRig;

namespace {

// split into 100 B packets spaced 100 ns apart by a wire, moderate, serve (irq per batch head
// 1 us + 50 ns per packet), merge.
PathSpec moderated(int frames, Time usecs) {
  PathSpec p;
  rdmasim::testing::split_and_serialize(p, Bytes(100));
  p.moderate(1, ModerationSpec{usecs, frames}, "mod");
  Cost k;
  k.fixed = 50_ns;
  k.head_extra = 1_us;
  k.batch_head_only = true;
  p.serve(1, ResourceKind::core, Category::kernel, "rx", k);
  p.merge(1, "merge");
  return p;
}

}  // namespace

TEST(InterruptModerator, FrameCountFiresOneInterruptPerBatch) {
  Rig r;
  r.run_one(moderated(4, 100_us), 800);  // 8 packets arriving at 100, 200, ... 800 ns
  EXPECT_EQ(r.b.moderator.packets(), 8u);
  EXPECT_EQ(r.b.moderator.interrupts(), 2u);  // (N-1)/N = 75 % fewer interrupts
  // Batch 1 fires at 400 ns (its 4th packet): head 1 us + 50 ns -> 1450, 3 x 50 -> 1600.
  // Batch 2 fires at 800 ns, waits for the core until 1600: 1600 + 1050 -> 2650, +150 -> 2800.
  ASSERT_EQ(r.sink.got.size(), 1u);
  EXPECT_EQ(r.sink.got[0].e2e, 2'800_ns);
  EXPECT_EQ(r.sink.got[0].ledger.total(), 2'800_ns);
  EXPECT_EQ(r.b.core.busy_time(), 2 * 1_us + 8 * 50_ns);
}

TEST(InterruptModerator, TimerFiresWhenFewPacketsArrive) {
  Rig r;
  r.run_one(moderated(32, 3_us), 200);  // 2 packets at 100, 200 ns; timer from 100 ns
  EXPECT_EQ(r.b.moderator.interrupts(), 1u);
  // fire at 3100 ns; head 1050 ns, second 50 ns -> 4200
  EXPECT_EQ(r.sink.got[0].e2e, 4'200_ns);
  // Critical path: the batch's first packet waited the whole 3 us window (L_batch), then paid
  // the 1 us irq (L_irq); the second packet's path continues from it: L_total = L_batch + L_irq.
  EXPECT_EQ(r.sink.got[0].ledger[Category::interrupt], 3'000_ns + 1_us);
  EXPECT_EQ(r.sink.got[0].ledger[Category::kernel], 100_ns);
}

TEST(InterruptModerator, OneFrameMeansAnInterruptPerPacket) {
  Rig r;
  r.run_one(moderated(1, 3_us), 300);
  EXPECT_EQ(r.b.moderator.interrupts(), 3u);
  EXPECT_EQ(r.b.core.busy_time(), 3 * 1_us + 3 * 50_ns);
}

TEST(InterruptModerator, MeasuresEachPacketsBatchWait) {
  Rig r;
  r.run_one(moderated(4, 100_us), 800);  // arrivals 100..800 ns, batches fire at 400 and 800 ns
  // Waits per batch: 300, 200, 100, 0 ns -> 600 ns per batch, max 300 ns = (N-1) x gap.
  EXPECT_EQ(r.b.moderator.total_wait(), 1'200_ns);
  EXPECT_EQ(r.b.moderator.max_wait(), 300_ns);
}

TEST(InterruptModerator, AdaptiveFiresAtOnceWhenTheLastInterruptIsOld) {
  PathSpec p;
  rdmasim::testing::split_and_serialize(p, Bytes(100));
  ModerationSpec m{1_us, 32};
  m.adaptive = true;
  p.moderate(1, m, "mod");
  Cost k;
  k.fixed = 50_ns;
  p.serve(1, ResourceKind::core, Category::kernel, "rx", k);
  p.merge(1, "merge");
  Rig r;
  r.run_one(p, 800);  // 8 packets 100 ns apart: the first fires at once, then a batch forms
  // 100: at once (never fired). 200..: last interrupt 100 ns ago -> batch until the 1 us timer
  // from 200 ns (fires at 1200 ns with the remaining 7).
  EXPECT_EQ(r.b.moderator.interrupts(), 2u);
  EXPECT_EQ(r.b.moderator.max_wait(), 1_us);
}
