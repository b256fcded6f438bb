// FifoServer and the stage machinery, driven through hand-made paths against a fake sink.
#include "sim/fifo_server.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "sim_rig.hpp"

using namespace rdmasim;
using namespace rdmasim::literals;
using Rig = rdmasim::testing::SimRig;

namespace {

// Split into 1000 B packets, serialize each at 8 Gb/s (1 ns per byte of wire), merge.
PathSpec wire_path() {
  PathSpec p;
  rdmasim::testing::split_and_serialize(p, Bytes(1000));
  Cost d;
  d.fixed = 100_ns;
  p.delay(0, Category::propagate, "prop", d);
  p.merge(1, "merge");
  return p;
}

}  // namespace

TEST(FifoServer, OwnPacketsWaitIsTransmitNotQueue) {
  Rig r;
  PathInstance path(r.ctx, {&r.a, &r.b}, wire_path(), r.sink);
  path.post(r.msg(1, 3000));
  r.sched.run();
  ASSERT_EQ(r.sink.got.size(), 1u);
  const auto& g = r.sink.got[0];
  EXPECT_EQ(g.e2e, 3'100_ns);                    // 3 x 1000 ns serialization + 100 ns
  EXPECT_EQ(g.ledger[Category::transmit], 3'000_ns);
  EXPECT_EQ(g.ledger[Category::queue], Time::zero());
  EXPECT_EQ(g.ledger.total(), g.e2e);
  EXPECT_EQ(r.a.wire.served(), 3u);
  EXPECT_EQ(r.packets.live(), 0);               // every packet returned to the pool
}

TEST(FifoServer, OtherMessagesWaitIsQueue) {
  Rig r;
  PathInstance path(r.ctx, {&r.a, &r.b}, wire_path(), r.sink);
  path.post(r.msg(1, 2000));
  path.post(r.msg(2, 1500));  // same instant: waits for message 1's 2000 ns
  r.sched.run();
  ASSERT_EQ(r.sink.got.size(), 2u);
  const auto& second = r.sink.got[1];
  EXPECT_EQ(second.id, 2u);
  EXPECT_EQ(second.e2e, 2'000_ns + 1'500_ns + 100_ns);
  EXPECT_EQ(second.ledger[Category::queue], 2'000_ns);
  // Its last packet waited 1000 ns behind its own first packet: transmit.
  EXPECT_EQ(second.ledger[Category::transmit], 1'500_ns);
  EXPECT_EQ(second.ledger.total(), second.e2e);
}

TEST(FifoServer, IdleGapStartsANewRun) {
  Rig r;
  PathInstance path(r.ctx, {&r.a, &r.b}, wire_path(), r.sink);
  path.post(r.msg(1, 1000));
  r.sched.run();
  path.post(r.msg(2, 1000));
  r.sched.run();
  EXPECT_EQ(r.sink.got[1].ledger[Category::queue], Time::zero());
  EXPECT_EQ(r.sink.got[1].e2e, 1'100_ns);
  EXPECT_EQ(r.a.wire.busy_time(), 2'000_ns);
}

TEST(FifoServer, SharedResourceSerializesStagesOfDifferentCategories) {
  // Two stages on the same core: copy then kernel; two messages at once.
  PathSpec p;
  Cost copy;
  copy.fixed = 300_ns;
  Cost kern;
  kern.fixed = 200_ns;
  p.serve(0, ResourceKind::core, Category::copy, "copy", copy);
  p.serve(0, ResourceKind::core, Category::kernel, "kernel", kern);
  Rig r;
  PathInstance path(r.ctx, {&r.a, &r.b}, p, r.sink);
  path.post(r.msg(1, 10));
  path.post(r.msg(2, 10));
  r.sched.run();
  ASSERT_EQ(r.sink.got.size(), 2u);
  // FIFO on the core: m1.copy [0,300], m2.copy [300,600], m1.kernel [600,800], m2.kernel [800,1000]
  EXPECT_EQ(r.sink.got[0].id, 1u);
  EXPECT_EQ(r.sink.got[0].e2e, 800_ns);
  EXPECT_EQ(r.sink.got[0].ledger[Category::queue], 300_ns);
  EXPECT_EQ(r.sink.got[1].e2e, 1'000_ns);
  EXPECT_EQ(r.sink.got[1].ledger[Category::queue], 500_ns);
  EXPECT_EQ(r.a.core.busy_time(), 1'000_ns);
}

namespace {

// 1000 B packets serialized at 8 Gb/s (1 us each), then a PCIe turn at `pcie_gbps`, a 50 ns
// constant-or-not latency (sim/stages.hpp: a per-byte rate without bytes is not constant to
// the stage) and a 100 ns delay into the merge.
PathSpec pcie_path(std::int64_t pcie_gbps, bool constant) {
  PathSpec p;
  rdmasim::testing::split_and_serialize(p, Bytes(1000));
  Cost dma;
  dma.rate = Rate::gbps(pcie_gbps);
  dma.basis = Basis::payload;
  p.serve(1, ResourceKind::pcie_up, Category::pcie_dma, "dma", dma);
  Cost lat;
  lat.fixed = 50_ns;
  if (!constant) lat.rate = Rate::gbps(100);
  p.delay(1, Category::pcie_dma, "dma.latency", lat);
  Cost prop;
  prop.fixed = 100_ns;
  p.delay(1, Category::propagate, "prop", prop);
  p.merge(1, "merge");
  return p;
}

struct PcieRun {
  std::vector<rdmasim::testing::RecordingSink::Got> got;
  std::uint64_t events = 0;
  std::uint64_t served = 0;
  Time busy{};
};

PcieRun run_pcie(std::int64_t pcie_gbps, bool constant) {
  Rig r;
  PathInstance path(r.ctx, r.hosts(), pcie_path(pcie_gbps, constant), r.sink, &r);
  path.post(r.msg(1, 3000));
  path.post(r.msg(2, 2000));
  r.sched.run();
  return {r.sink.got, r.sched.executed(), r.b.pcie_up.served(), r.b.pcie_up.busy_time()};
}

void expect_same_results(const PcieRun& handed, const PcieRun& ended) {
  ASSERT_EQ(handed.got.size(), 2u);
  ASSERT_EQ(ended.got.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(handed.got[i].id, ended.got[i].id);
    EXPECT_EQ(handed.got[i].e2e, ended.got[i].e2e);
    EXPECT_EQ(handed.got[i].ledger, ended.got[i].ledger);
    EXPECT_EQ(handed.got[i].ledger.total(), handed.got[i].e2e);
  }
  EXPECT_EQ(handed.served, 5u);
  EXPECT_EQ(handed.served, ended.served);
  EXPECT_EQ(handed.busy, ended.busy);
}

}  // namespace

TEST(FifoServer, IdleServerHandsOnAtTheStartWithoutAnEndEvent) {
  // 16 Gb/s: each packet's 500 ns turn ends before the next one arrives — every turn starts on an
  // idle server, so every turn's end event goes.
  const PcieRun handed = run_pcie(16, true), ended = run_pcie(16, false);
  expect_same_results(handed, ended);
  EXPECT_EQ(ended.events - handed.events, 5u);
  // Message 2's last packet leaves the wire at 5 us: + 500 ns of DMA, 50 ns, 100 ns.
  EXPECT_EQ(handed.got[1].e2e, 5'650_ns);
  EXPECT_EQ(handed.got[1].ledger[Category::pcie_dma], 550_ns);
}

TEST(FifoServer, BusyServerNeedsAnEventOnlyForTheTurnsQueuedBehind) {
  // 4 Gb/s: 2 us turns, packets arrive every 1 us — only the first turn starts on an idle
  // server; each later one starts from the queue at the end of the one before (one event each).
  const PcieRun handed = run_pcie(4, true), ended = run_pcie(4, false);
  expect_same_results(handed, ended);
  EXPECT_EQ(ended.events - handed.events, 1u);
  // Five 2 us turns from 1 us: message 2's last packet leaves the DMA at 11 us, then 150 ns.
  EXPECT_EQ(handed.got[1].e2e, 11'150_ns);
  EXPECT_EQ(handed.busy, 10_us);
}
