// Interrupt coalescing measured from the simulation. A TCP message of 64
// segments arrives at the receiver one segment per sender segment time; with rx-frames N (and
// a timer long enough not to fire) the receiver takes 64/N interrupts per message — an
// (N-1)/N reduction — the first packet of each batch waits for the N-1 after it (L_batch grows
// with N: (N-1) x the arrival gap), and the receiver's CPU busy time drops by the irq cost of
// every interrupt saved. Adaptive moderation under a ping-pong (the previous interrupt is
// long past) interrupts at once.
#include <gtest/gtest.h>

#include "rdmasim/latency.hpp"

using namespace rdmasim;

namespace {
LatConfig tcp(int frames) {
  LatConfig c;
  c.transport = Transport::tcp;
  c.test = TestKind::send;
  c.size = Bytes(64 * 1448);
  c.iters = 11;
  c.toggles.interrupt_coalescing = true;
  c.profile.nic.rx_usecs = Time::us(1000);
  c.profile.nic.rx_frames = frames;
  c.profile.nic.tx_jitter = Time::zero();
  return c;
}
}  // namespace

TEST(Coalescing, InterruptsAreOneOverNAndBatchWaitGrowsWithN) {
  const LatResult one = run_latency(tcp(1));
  const HostCounters& b1 = one.hosts[1];
  const std::uint64_t msgs = 10;
  EXPECT_EQ(b1.moderated_packets, 64 * msgs);
  EXPECT_EQ(b1.interrupts, 64 * msgs);
  EXPECT_EQ(b1.max_moderation_wait, Time::zero());
  const LatResult two = run_latency(tcp(2));
  const Time gap = two.hosts[1].max_moderation_wait;  // one arrival gap
  EXPECT_GT(gap, Time::zero());
  for (int n : {2, 4, 8, 16, 32, 64}) {
    const LatResult r = run_latency(tcp(n));
    const HostCounters& b = r.hosts[1];
    SCOPED_TRACE(n);
    EXPECT_EQ(r.invariant_violations, 0);
    EXPECT_EQ(b.moderated_packets, 64 * msgs);
    EXPECT_EQ(b.interrupts, 64 * msgs / static_cast<std::uint64_t>(n));
    EXPECT_EQ(b.max_moderation_wait, gap * (n - 1));
    // Each interrupt saved is kernel.irq of CPU time saved on the receiver.
    const std::int64_t saved = static_cast<std::int64_t>(b1.interrupts - b.interrupts);
    EXPECT_EQ(b1.cpu_busy - b.cpu_busy, r.config.profile.kernel.irq * saved);
  }
}

TEST(Coalescing, TimerBoundsTheBatchWait) {
  LatConfig c = tcp(64);
  c.profile.nic.rx_usecs = Time::us(3);
  const LatResult r = run_latency(c);
  EXPECT_EQ(r.hosts[1].max_moderation_wait, Time::us(3));
  EXPECT_GT(r.hosts[1].interrupts, 10u);
  EXPECT_LT(r.hosts[1].interrupts, 640u);
}

TEST(Coalescing, AdaptiveInterruptsAtOnceWhenIdle) {
  // RDMA SEND ping-pong with completion interrupts: one CQE per message, the previous
  // interrupt long past -> no moderation wait with adaptive on, rx_usecs of wait without.
  LatConfig c;
  c.test = TestKind::send;
  c.iters = 20;
  c.toggles.busy_poll = false;
  c.toggles.interrupt_coalescing = true;
  c.profile.nic.tx_jitter = Time::zero();
  const LatResult fixed = run_latency(c);
  c.profile.nic.adaptive_rx = true;
  const LatResult adaptive = run_latency(c);
  EXPECT_EQ(fixed.hosts[1].max_moderation_wait, c.profile.nic.rx_usecs);
  EXPECT_EQ(adaptive.hosts[1].max_moderation_wait, Time::zero());
  EXPECT_EQ(fixed.stats.typical_ps - adaptive.stats.typical_ps, static_cast<double>(c.profile.nic.rx_usecs.count_ps()));
  EXPECT_EQ(run_budget(c).reported_ps, adaptive.stats.typical_ps);
}
