// With jitter off, for every test/transport/size combination, `lat` t_typical
// equals the closed-form budget to the picosecond, the ledger matches category by category,
// and every message's ledger sums exactly to its end-to-end time.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rdmasim/latency.hpp"

using namespace rdmasim;

namespace {

struct Case {
  TestKind test;
  Transport transport;
  LinkLayer layer;
  std::int64_t mtu;
  std::string profile;
  Toggles toggles;
};

std::string name(const LatConfig& c) {
  return std::string(to_string(c.transport)) + "/" + std::string(to_string(c.test)) + "/" +
         std::string(to_string(c.link_layer)) + "/mtu" + std::to_string(c.mtu.count()) + "/" +
         std::to_string(c.size.count()) + "B/" + c.profile.name + "/bypass" +
         std::to_string(c.toggles.kernel_bypass) + "/zc" + std::to_string(c.toggles.zero_copy) + "/coal" +
         std::to_string(c.toggles.interrupt_coalescing) + "/poll" + std::to_string(c.toggles.busy_poll.value_or(-1));
}

void check(LatConfig c) {
  c.profile.nic.tx_jitter = Time::zero();
  c.iters = 6;
  const LatResult lat = run_latency(c);
  const BudgetResult bud = run_budget(c);
  SCOPED_TRACE(name(c));
  EXPECT_EQ(lat.invariant_violations, 0);
  EXPECT_EQ(lat.stats.typical_ps, bud.reported_ps);
  EXPECT_EQ(lat.stats.min_ps, lat.stats.max_ps);  // deterministic: all samples equal
  for (Category k : kAllCategories)
    EXPECT_EQ(lat.kept_ledger_sum[k].count_ps(), bud.rtt[k].count_ps() * lat.stats.kept) << category_name(k);
  // The budget's stage-by-stage critical path adds up to its ledger, category by category.
  Ledger from_steps;
  for (const StageLine& s : bud.critical_path) {
    EXPECT_GT(s.time, Time::zero()) << s.label;
    from_steps.add(s.cat, s.time);
  }
  EXPECT_EQ(from_steps, bud.rtt);
}

}  // namespace

TEST(BudgetVsSim, RdmaEveryTestSizeAndLinkLayer) {
  const std::vector<std::int64_t> sizes{1, 2, 64, 220, 221, 1000, 4096, 4097, 65536, 1 << 20};
  for (TestKind t : {TestKind::write, TestKind::send, TestKind::read})
    for (LinkLayer l : {LinkLayer::roce, LinkLayer::ib})
      for (std::int64_t mtu : {1024, 4096})
        for (std::int64_t s : sizes) {
          LatConfig c;
          c.test = t;
          c.link_layer = l;
          c.mtu = Bytes(mtu);
          c.size = Bytes(s);
          check(c);
        }
}

TEST(BudgetVsSim, TcpEverySize) {
  for (std::int64_t s : {1, 2, 1448, 1449, 65536, 1 << 20}) {
    LatConfig c;
    c.transport = Transport::tcp;
    c.test = TestKind::send;
    c.size = Bytes(s);
    check(c);
    c.toggles.busy_poll = true;
    check(c);
    c.toggles.busy_poll = false;
    c.toggles.interrupt_coalescing = true;  // moderation: frames and timer paths
    check(c);
  }
}

TEST(BudgetVsSim, RdmaToggleCombinations) {
  for (bool bypass : {true, false})
    for (bool zc : {true, false})
      for (bool poll : {true, false})
        for (bool coal : {true, false})
          for (bool blueflame : {true, false})
            for (std::int64_t s : {2, 8192}) {
              LatConfig c;
              c.test = s == 2 ? TestKind::send : TestKind::write;
              c.size = Bytes(s);
              c.toggles.kernel_bypass = bypass;
              c.toggles.zero_copy = zc;
              c.toggles.busy_poll = poll;
              c.toggles.interrupt_coalescing = coal;
              c.profile.nic.blueflame = blueflame;
              check(c);
            }
}

TEST(BudgetVsSim, SeedDemoProfile) {
  for (Transport tr : {Transport::rdma, Transport::tcp}) {
    LatConfig c;
    c.profile = make_profile("seed-demo");
    c.transport = tr;
    c.test = TestKind::send;
    check(c);
  }
}

TEST(BudgetVsSim, TcpLoopback) {
  for (std::int64_t s : {1, 2, 1024, 65536, 65484, 1 << 20}) {
    LatConfig c;
    c.transport = Transport::tcp;
    c.test = TestKind::send;
    c.topology = LatTopology::loopback;
    c.size = Bytes(s);
    check(c);
  }
}

// Regression: a packet arriving exactly when the moderation timer expires (600 ns segment
// spacing x 5 = rx_usecs 3 us) must start a new batch in both evaluators.
TEST(BudgetVsSim, ModerationTimerTie) {
  for (const char* tx : {"375ns", "600ns", "750ns", "1us", "1.5us"}) {
    LatConfig c;
    c.transport = Transport::tcp;
    c.test = TestKind::send;
    c.size = Bytes(65536);
    c.toggles.interrupt_coalescing = true;
    apply_override(c.profile, std::string("kernel.tx_per_packet=") + tx);
    apply_override(c.profile, "kernel.rx_per_packet=100ns");
    check(c);
  }
}

TEST(BudgetVsSim, RdmaOverSwitchedFabrics) {
  for (const char* topo : {"single-switch", "leaf-spine", "fat-tree"})
    for (bool cut : {true, false})
      for (std::int64_t s : {2, 4096, 65536})
        for (TestKind t : {TestKind::write, TestKind::send, TestKind::read}) {
          LatConfig c;
          c.topology = LatTopology::fabric;
          c.fabric.topology = topo;
          c.fabric.to = std::string(topo) == "single-switch" ? 1 : 7;
          c.profile.sw.cut_through = cut;
          c.size = Bytes(s);
          c.test = t;
          check(c);
        }
}
