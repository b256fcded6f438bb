// The latency experiment: published ranges with the default profile and each
// toggle moving exactly its ledger entries.
#include "rdmasim/latency.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace rdmasim;

namespace {
LatConfig base() {
  LatConfig c;
  c.iters = 100;
  return c;
}
}  // namespace

TEST(Latency, DefaultProfileMatchesPublishedRanges) {
  LatConfig c = base();
  c.iters = 1000;
  const LatResult rdma = run_latency(c);
  // ConnectX ib_write_lat 2 B back-to-back: ~0.8 - 1.5 us (REFERENCE.md 1.4, 5).
  EXPECT_GT(rdma.stats.typical_us(), 0.8);
  EXPECT_LT(rdma.stats.typical_us(), 1.5);
  c.transport = Transport::tcp;
  c.test = TestKind::send;
  const LatResult tcp = run_latency(c);
  const double ratio = tcp.stats.typical_us() / rdma.stats.typical_us();
  EXPECT_GT(ratio, 5.0);   // an order of magnitude above
  EXPECT_LT(ratio, 20.0);
  EXPECT_EQ(rdma.stats.samples, 999);
  EXPECT_EQ(rdma.stats.kept, 997);
}

TEST(Latency, LedgerMeansAddUpToTavg) {
  LatConfig c = base();
  c.profile = make_profile("seed-demo");  // jitter on: samples differ
  c.iters = 500;
  const LatResult r = run_latency(c);
  double sum = 0;
  for (Category k : kAllCategories) sum += r.mean_ps(k);
  EXPECT_NEAR(sum, r.stats.avg_ps, 1e-6);
  EXPECT_GT(r.stats.max_ps, r.stats.min_ps);
  EXPECT_EQ(r.invariant_violations, 0);
}

TEST(Latency, ZeroCopyOffAddsExactlyTheCopies) {
  LatConfig c = base();
  const LatResult on = run_latency(c);
  c.toggles.zero_copy = false;
  const LatResult off = run_latency(c);
  const Time copy = c.profile.mem.copy_fixed + serialization_time(c.size, c.profile.mem.copy_bw);
  const double expected = static_cast<double>((copy * (c.profile.host.tx_copies + c.profile.host.rx_copies)).count_ps());
  EXPECT_EQ(on.mean_ps(Category::copy), 0.0);
  EXPECT_DOUBLE_EQ(off.mean_ps(Category::copy), expected);
  EXPECT_DOUBLE_EQ(off.stats.typical_ps - on.stats.typical_ps, expected);
}

TEST(Latency, KernelBypassOffAddsKernelAndSyscalls) {
  LatConfig c = base();
  const LatResult on = run_latency(c);
  c.toggles.kernel_bypass = false;
  const LatResult off = run_latency(c);
  const KernelParams& k = c.profile.kernel;
  EXPECT_DOUBLE_EQ(off.mean_ps(Category::kernel), static_cast<double>((k.tx_stack + k.rx_stack).count_ps()));
  EXPECT_DOUBLE_EQ(off.mean_ps(Category::syscall), static_cast<double>((k.syscall * 2).count_ps()));
  EXPECT_EQ(on.mean_ps(Category::kernel), 0.0);
}

TEST(Latency, BusyPollOffAddsInterruptAndWakeup) {
  LatConfig c = base();
  c.test = TestKind::send;
  c.toggles.busy_poll = false;
  const LatResult r = run_latency(c);
  EXPECT_DOUBLE_EQ(r.mean_ps(Category::interrupt), static_cast<double>(c.profile.kernel.irq.count_ps()));
  EXPECT_DOUBLE_EQ(r.mean_ps(Category::syscall),
                   static_cast<double>((c.profile.kernel.wakeup + c.profile.kernel.syscall).count_ps()));
}

TEST(Latency, InterruptCoalescingAddsTheWindowToASinglePacket) {
  LatConfig c = base();
  c.transport = Transport::tcp;
  c.test = TestKind::send;
  const LatResult off = run_latency(c);
  c.toggles.interrupt_coalescing = true;
  const LatResult on = run_latency(c);
  // One packet never reaches rx_frames: it waits the whole rx_usecs timer (L_batch).
  EXPECT_DOUBLE_EQ(on.stats.typical_ps - off.stats.typical_ps, static_cast<double>(c.profile.nic.rx_usecs.count_ps()));
  EXPECT_DOUBLE_EQ(on.mean_ps(Category::interrupt) - off.mean_ps(Category::interrupt),
                   static_cast<double>(c.profile.nic.rx_usecs.count_ps()));
}

TEST(Latency, InlineSkipsThePayloadDmaRead) {
  LatConfig c = base();
  c.size = Bytes(64);
  const LatResult in = run_latency(c);
  c.toggles.inline_data = false;
  const LatResult out = run_latency(c);
  EXPECT_TRUE(in.toggles.inline_data);
  EXPECT_FALSE(out.toggles.inline_data);
  // Not inline: a PCIe round trip (2 x latency) plus the 64 B read per direction.
  EXPECT_GT(out.mean_ps(Category::pcie_dma) - in.mean_ps(Category::pcie_dma),
            static_cast<double>((c.profile.pcie.latency * 2).count_ps()));
}

TEST(Latency, ReadReportsTheFullRoundTrip) {
  LatConfig c = base();
  c.test = TestKind::read;
  const LatResult r = run_latency(c);
  EXPECT_EQ(r.rtt_factor, 1);
  EXPECT_FALSE(r.toggles.inline_data);
  // The far CPU never runs for a READ: its core served nothing.
  EXPECT_GT(r.stats.typical_us(), 1.5);
}

TEST(Latency, LargeMessagesAreTransmitBound) {
  LatConfig c = base();
  c.iters = 5;
  c.size = Bytes(1 << 20);
  const LatResult r = run_latency(c);
  EXPECT_EQ(r.packets_per_message, 256);
  // transmit = S/B of the whole message's frames (the rule for multi-packet messages)
  const double sb = static_cast<double>(serialization_time(r.wire_bytes_per_message, c.profile.link.rate).count_ps());
  EXPECT_DOUBLE_EQ(r.mean_ps(Category::transmit), sb);
}

TEST(Latency, BadConfigurationsAreRejected) {
  LatConfig c = base();
  c.size = Bytes(0);
  EXPECT_THROW(run_latency(c), std::invalid_argument);
  c = base();
  c.iters = 4;
  EXPECT_THROW(run_latency(c), std::invalid_argument);
  c = base();
  c.mtu = Bytes(1500);
  EXPECT_THROW(run_latency(c), std::invalid_argument);
  c = base();
  c.transport = Transport::tcp;  // write over TCP
  EXPECT_THROW(run_latency(c), std::invalid_argument);
  c = base();
  c.size = Bytes(1000);
  c.toggles.inline_data = true;  // larger than max inline
  EXPECT_THROW(run_latency(c), std::invalid_argument);
}

TEST(Latency, SprayingIsForBandwidthRuns) {
  LatConfig c = base();
  c.topology = LatTopology::fabric;
  c.fabric.routing = "spray";
  EXPECT_THROW(run_latency(c), std::invalid_argument);
  EXPECT_THROW(run_budget(c), std::invalid_argument);
}

// Kernel TCP's ping-pong over a NIC with TSO and GRO (tcp.tso, tcp.gro, 64 KiB): the sender's
// per-segment stack work once per super-packet, the receiver's driver work per frame
// (kernel.rx_per_frame) and the rest of its per-segment work and, NAPI-polled, its interrupt
// once per super-packet. One segment costs what it costs without them; 64 KiB (46 segments of
// 1448 B: super-packets of 45 and 1) takes 2 interrupts per message instead of 46, and the
// receiver's core saves the difference exactly.
TEST(Latency, TcpSegmentsAreBatchedByTsoGroAndNapi) {
  LatConfig on = base();
  on.transport = Transport::tcp;
  on.test = TestKind::send;
  on.iters = 20;
  LatConfig off = on;
  off.profile.tcp.gro = off.profile.tcp.tso = Bytes{};
  on.size = off.size = Bytes(2);
  EXPECT_EQ(run_latency(on).stats.typical_us(), run_latency(off).stats.typical_us());
  on.size = off.size = Bytes(65536);
  const LatResult a = run_latency(on), b = run_latency(off);
  ASSERT_GT(a.hosts[1].interrupts, 0U);
  EXPECT_EQ(b.hosts[1].interrupts, 23 * a.hosts[1].interrupts);
  const KernelParams& k = on.profile.kernel;
  const std::uint64_t messages = a.hosts[1].interrupts / 2;
  const Time saved_rx = (k.rx_per_packet - k.rx_per_frame) * 44 + k.irq * 44;  // 46 frames: 44 fewer of each
  const Time saved_tx = k.tx_per_packet * 44;                                  // 2 super-packets instead of 46
  EXPECT_EQ(b.hosts[1].cpu_busy - a.hosts[1].cpu_busy, (saved_rx + saved_tx) * static_cast<std::int64_t>(messages));
  EXPECT_LT(a.stats.typical_us(), 0.5 * b.stats.typical_us());
  EXPECT_EQ(a.invariant_violations, 0);
}
