// `rdmasim lat`'s RDMA tests re-expressed on the verbs API give the same result to the
// picosecond as the ping-pong on the path model: same samples (hence statistics), same kept
// ledger, every iteration's ledger summing to its sample.
#include <gtest/gtest.h>

#include "rdmasim/latency.hpp"
#include "verbs/verbs_latency.hpp"

namespace rdmasim {
namespace {

void expect_same(const LatConfig& c) {
  const LatResult a = run_latency(c);
  const LatResult b = verbs::run_latency_verbs(c);
  SCOPED_TRACE(std::string(to_string(c.test)) + " size " + std::to_string(c.size.count()) + " mtu " +
               std::to_string(c.mtu.count()));
  EXPECT_EQ(b.invariant_violations, 0);
  EXPECT_EQ(a.kept_ledger_sum, b.kept_ledger_sum);
  EXPECT_EQ(a.stats.kept, b.stats.kept);
  EXPECT_EQ(a.stats.samples, b.stats.samples);
  EXPECT_EQ(a.stats.min_ps, b.stats.min_ps);
  EXPECT_EQ(a.stats.max_ps, b.stats.max_ps);
  EXPECT_EQ(a.stats.typical_ps, b.stats.typical_ps);
  EXPECT_EQ(a.stats.avg_ps, b.stats.avg_ps);
  EXPECT_EQ(a.stats.stdev_ps, b.stats.stdev_ps);
  EXPECT_EQ(a.stats.p99_ps, b.stats.p99_ps);
  EXPECT_EQ(a.stats.p999_ps, b.stats.p999_ps);
  EXPECT_EQ(a.packets_per_message, b.packets_per_message);
  EXPECT_EQ(a.rtt_factor, b.rtt_factor);
  EXPECT_GT(b.events, a.events);  // the verbs run also carries ACKs and CQEs off the critical path
}

LatConfig base(TestKind t, std::int64_t size, std::int64_t iters = 200) {
  LatConfig c;
  c.test = t;
  c.size = Bytes(size);
  c.iters = iters;
  return c;
}

TEST(VerbsLatency, DefaultsEqualLatForEveryTest) {
  for (TestKind t : {TestKind::write, TestKind::read, TestKind::send}) expect_same(base(t, 2, 1000));
}

TEST(VerbsLatency, SizesAcrossInlineAndMultiPacket) {
  for (TestKind t : {TestKind::write, TestKind::read, TestKind::send})
    for (std::int64_t size : {1, 220, 221, 236, 237, 4096, 4097, 65536, 1 << 20}) expect_same(base(t, size, 50));
}

TEST(VerbsLatency, MtuLinkLayerAndInlineSwitches) {
  for (TestKind t : {TestKind::write, TestKind::send}) {
    LatConfig c = base(t, 9000, 50);
    c.mtu = Bytes(1024);
    expect_same(c);
    c.link_layer = LinkLayer::ib;
    expect_same(c);
    LatConfig d = base(t, 64, 50);
    d.toggles.inline_data = false;
    expect_same(d);
  }
  LatConfig r = base(TestKind::read, 9000, 50);
  r.mtu = Bytes(512);
  expect_same(r);
}

TEST(VerbsLatency, RandomJitterDrawsTheSameNumbers) {
  for (TestKind t : {TestKind::write, TestKind::read, TestKind::send}) {
    LatConfig c = base(t, 2048, 300);
    c.profile.nic.tx_jitter = Time::ns(150);
    c.seed = 7;
    expect_same(c);
  }
}

TEST(VerbsLatency, AcrossAFatTree) {
  for (TestKind t : {TestKind::write, TestKind::send}) {
    LatConfig c = base(t, 4096, 50);
    c.topology = LatTopology::fabric;
    c.fabric.from = 0;
    c.fabric.to = 15;
    expect_same(c);
  }
}

TEST(VerbsLatency, RejectsWhatVerbsIsNot) {
  LatConfig c = base(TestKind::send, 2);
  c.transport = Transport::tcp;
  EXPECT_THROW(verbs::run_latency_verbs(c), std::invalid_argument);
  LatConfig d = base(TestKind::write, 2);
  d.toggles.busy_poll = false;
  EXPECT_THROW(verbs::run_latency_verbs(d), std::invalid_argument);
}

}  // namespace
}  // namespace rdmasim
