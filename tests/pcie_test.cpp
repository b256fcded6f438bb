#include "host/pcie.hpp"

#include <gtest/gtest.h>

using namespace rdmasim;

TEST(Pcie, RawRateByGeneration) {
  PcieParams p;
  p.gen = 4;
  p.lanes = 16;
  // 16 GT/s x 16 x 128/130
  EXPECT_EQ(PcieLink(p).raw_rate().bits_per_sec(), 16'000'000'000LL * 16 * 128 / 130);
  p.gen = 2;
  p.lanes = 8;  // 5 GT/s x 8 x 8/10 = 32 Gb/s
  EXPECT_EQ(PcieLink(p).raw_rate().bits_per_sec(), 32'000'000'000LL);
  p.gen = 5;
  p.lanes = 16;
  EXPECT_NEAR(PcieLink(p).effective_gbytes_per_sec(), 63.0 * 256 / 280, 0.1);
}

TEST(Pcie, TransferAddsOneTlpOverheadPerMaxPayload) {
  PcieParams p;
  p.gen = 2;
  p.lanes = 8;  // 32 Gb/s: 4 B per ns
  p.max_payload = Bytes(256);
  p.tlp_overhead = Bytes(24);
  const PcieLink l(p);
  EXPECT_EQ(l.transfer_time(Bytes(256)), Time::ns(70));    // 280 B
  // 257 B need two TLPs: 257 + 48 = 305 B -> 76.25 ns
  EXPECT_EQ(l.transfer_time(Bytes(257)).count_ps(), 76'250);
}

TEST(Pcie, DmaReadIsARoundTripAndWriteIsPosted) {
  PcieParams p;
  p.latency = Time::ns(250);
  const PcieLink l(p);
  PathSpec read, write;
  l.append_dma_read(read, 0, "A.pcie.x", Basis::payload, Bytes{});
  l.append_dma_write(write, 0, "A.pcie.y", Basis::payload, Bytes{});
  ASSERT_EQ(read.stages.size(), 3u);
  EXPECT_EQ(read.stages[0].cost.fixed, Time::ns(250));
  EXPECT_EQ(read.stages[1].res, ResourceKind::pcie_down);
  EXPECT_EQ(read.stages[2].cost.fixed, Time::ns(250));
  ASSERT_EQ(write.stages.size(), 2u);
  EXPECT_EQ(write.stages[0].res, ResourceKind::pcie_up);
  for (const auto& s : read.stages) EXPECT_EQ(s.cat, Category::pcie_dma);
}

TEST(Pcie, GpuTargetFollowsTheTopology) {
  PcieParams p;
  p.latency = Time::ns(250);
  p.switch_latency = Time::ns(150);
  p.socket_latency = Time::ns(400);
  p.topology = PcieTopology::pcie_switch;
  EXPECT_EQ(PcieLink(p).gpu_target().latency, Time::ns(150));
  EXPECT_FALSE(PcieLink(p).gpu_target().cross_socket);
  p.topology = PcieTopology::root;
  EXPECT_EQ(PcieLink(p).gpu_target().latency, Time::ns(500));
  p.topology = PcieTopology::cross_socket;
  const DmaTarget t = PcieLink(p).gpu_target();
  EXPECT_EQ(t.latency, Time::ns(900));
  EXPECT_TRUE(t.cross_socket);
  EXPECT_EQ(PcieLink(p).host_target().latency, Time::ns(250));
  // Across sockets the read completion and the posted write also cross the socket link.
  PathSpec read, write;
  PcieLink(p).append_dma_read(read, 0, "A.r", Basis::payload, Bytes{}, t);
  PcieLink(p).append_dma_write(write, 0, "A.w", Basis::payload, Bytes{}, t);
  ASSERT_EQ(read.stages.size(), 4u);
  EXPECT_EQ(read.stages[1].res, ResourceKind::socket_down);
  EXPECT_EQ(read.stages[1].cost.rate, p.socket_bw);
  ASSERT_EQ(write.stages.size(), 3u);
  EXPECT_EQ(write.stages[1].res, ResourceKind::socket_up);
}

TEST(Pcie, ReadWindowHoldsWholeReadRequests) {
  PcieParams p;
  p.max_read_request = Bytes(512);
  EXPECT_EQ(PcieLink::read_window(p, Bytes(0)), Bytes(0));
  EXPECT_EQ(PcieLink::read_window(p, Bytes(32 * 1024)), Bytes(32 * 1024));
  EXPECT_EQ(PcieLink::read_window(p, Bytes(1000)), Bytes(512));
  EXPECT_EQ(PcieLink::read_window(p, Bytes(512)), Bytes(512));
}

TEST(Pcie, ProfileKeysAndCx6Profile) {
  Profile p = make_profile("cx6-200g");
  validate(p);
  EXPECT_EQ(p.link.rate, Rate::gbps(200));
  EXPECT_EQ(p.nic.read_buffer, Bytes(32 * 1024));
  apply_override(p, "pcie.topology=cross-socket");
  EXPECT_EQ(p.pcie.topology, PcieTopology::cross_socket);
  EXPECT_THROW(apply_override(p, "pcie.topology=nvlink"), std::invalid_argument);
  p.pcie.max_read_request = Bytes(300);
  EXPECT_THROW(validate(p), std::invalid_argument);
}
