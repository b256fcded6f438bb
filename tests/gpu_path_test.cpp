// GPUDirect vs CPU-staged (whole and chunk-
// pipelined) equal their closed forms to the picosecond, the ledger puts the extra time under
// pcie_dma (GPUDirect's peer-to-peer route) or gpu (the staging copies), the budget agrees with
// the simulation for every GPU configuration, and with the cx6-200g profile host->host bw lands
// at ~23-25 GB/s while cross-socket GPUDirect gets about half.
#include <gtest/gtest.h>

#include "host/gpu.hpp"
#include "host/pcie.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/latency.hpp"

using namespace rdmasim;

namespace {

LatConfig base(std::int64_t size, TestKind test = TestKind::write) {
  LatConfig c;
  c.size = Bytes(size);
  c.test = test;
  c.iters = 6;
  c.profile.nic.tx_jitter = Time::zero();
  return c;
}

LatConfig gpu(LatConfig c, bool gpudirect, std::optional<std::int64_t> chunk = std::nullopt) {
  c.gpu.mem[0] = c.gpu.mem[1] = MemKind::gpu;
  c.gpu.gpudirect = gpudirect;
  if (chunk) c.gpu.staging_chunk = Bytes(*chunk);
  return c;
}

// One-way latency (the run is symmetric, so RTT/2 is one direction exactly).
std::int64_t one_way(const LatConfig& c) {
  const LatResult r = run_latency(c);
  EXPECT_EQ(r.invariant_violations, 0);
  EXPECT_EQ(r.stats.min_ps, r.stats.max_ps);
  const BudgetResult b = run_budget(c);
  EXPECT_EQ(r.stats.typical_ps, b.reported_ps) << "budget and simulation disagree";
  for (Category k : kAllCategories) EXPECT_EQ(r.kept_ledger_sum[k].count_ps(), b.rtt[k].count_ps() * r.stats.kept);
  return static_cast<std::int64_t>(r.stats.typical_ps * r.rtt_factor / 2);
}

Ledger one_way_ledger(const LatConfig& c) {
  Ledger l = run_budget(c).rtt;
  Ledger half;
  for (Category k : kAllCategories) half.add(k, l[k] / 2);
  return half;
}

Time tlp_time(const Profile& p, Bytes b, Rate r) {
  const std::int64_t tlps = (b.count() + p.pcie.max_payload.count() - 1) / p.pcie.max_payload.count();
  return serialization_time(b + p.pcie.tlp_overhead * tlps, r);
}

}  // namespace

// GPUDirect: the host path with the payload DMAs routed to the GPU. For one packet the time is
// the textbook D/B_pcie + D/B_link (+ fixed latencies) of the host path plus, per topology, the
// peer-to-peer traversals (read: request and completion, write: one) and across sockets the
// inter-socket link's serialization of the read completion and the write.
TEST(GpuPath, GpuDirectClosedFormPerTopology) {
  for (PcieTopology topo : {PcieTopology::pcie_switch, PcieTopology::root, PcieTopology::cross_socket})
    for (std::int64_t size : {1000, 4096}) {
      LatConfig host = base(size);
      host.profile.pcie.topology = topo;
      const PcieLink pcie(host.profile.pcie);
      const Time dl = pcie.gpu_target().latency - pcie.host_target().latency;
      Time extra = dl * 3;
      if (topo == PcieTopology::cross_socket) extra += tlp_time(host.profile, Bytes(size), host.profile.pcie.socket_bw) * 2;
      const LatConfig g = gpu(host, true);
      SCOPED_TRACE(std::string(to_string(topo)) + "/" + std::to_string(size));
      EXPECT_EQ(one_way(g), one_way(host) + extra.count_ps());
      // The difference is PCIe time, nothing else.
      const Ledger lh = one_way_ledger(host), lg = one_way_ledger(g);
      for (Category k : kAllCategories)
        if (k != Category::pcie_dma) { EXPECT_EQ(lg[k], lh[k]) << category_name(k); }
      EXPECT_EQ(lg[Category::pcie_dma] - lh[Category::pcie_dma], extra);
    }
}

// A server's per-GPU placement: each side's GPU reaches its NIC over its own PCIe path. Placed
// alike, the two sides are pcie.topology's path to the picosecond; a GPU across the sockets on one
// side only costs, over a ping-pong (its reads and its writes), half of both sides across.
TEST(GpuPath, PerSidePlacementIsEachSidesOwnPath) {
  for (std::int64_t size : {1000, 4096}) {
    SCOPED_TRACE(size);
    const LatConfig sw = gpu(base(size), true);
    LatConfig xs = sw;
    xs.profile.pcie.topology = PcieTopology::cross_socket;
    LatConfig placed = sw;
    placed.gpu.placement[0] = placed.gpu.placement[1] = PcieTopology::cross_socket;
    EXPECT_EQ(one_way(placed), one_way(xs));
    LatConfig mixed = sw;
    mixed.gpu.placement[0] = PcieTopology::cross_socket;
    EXPECT_EQ(2 * one_way(mixed), one_way(xs) + one_way(sw));
    const Ledger lm = one_way_ledger(mixed), lx = one_way_ledger(xs), ls = one_way_ledger(sw);
    EXPECT_EQ(lm[Category::pcie_dma] * 2, lx[Category::pcie_dma] + ls[Category::pcie_dma]);
    EXPECT_GT(lm[Category::pcie_dma], ls[Category::pcie_dma]);
  }
}

// Non-pipelined staging: T = D/B_cpu + (D/B_pcie + D/B_link + fixed) with the staging copies
// on both ends: exactly the host path plus one D2H and one H2D copy, all of it under `gpu`.
TEST(GpuPath, StagedWholeMessageIsThreeTermSum) {
  for (std::int64_t size : {2, 4096, 65536, 1 << 20})
    for (TestKind t : {TestKind::write, TestKind::send}) {
      const LatConfig host = base(size, t);
      const LatConfig g = gpu(host, false);
      const Time copies = staged_extra(host.profile.gpu, Bytes(size), true, true);
      EXPECT_EQ(copies, (host.profile.gpu.copy_latency + serialization_time(Bytes(size), host.profile.gpu.copy_bw)) * 2);
      SCOPED_TRACE(size);
      EXPECT_EQ(one_way(g), one_way(host) + copies.count_ps());
      const Ledger lh = one_way_ledger(host), lg = one_way_ledger(g);
      EXPECT_EQ(lg[Category::gpu], copies);
      for (Category k : kAllCategories)
        if (k != Category::gpu) { EXPECT_EQ(lg[k], lh[k]) << category_name(k); }
    }
}

// Chunk-pipelined staging, copy-bound (copy engine slower than the link). A copy's launch is a
// delay that overlaps the copies queued before it, so m chunks take the two launches (D2H and
// H2D) plus the pipeline of the chunks' bytes: the first chunk through every stage plus (m-1)
// times the bottleneck, one chunk's copy on the engine.
TEST(GpuPath, ChunkPipelinedIsLaunchesPlusFillPlusChunksTimesBottleneck) {
  for (std::int64_t chunk : {16384, 65536})
    for (std::int64_t m : {1, 2, 3, 8}) {
      LatConfig host = base(chunk * m, TestKind::send);
      host.profile.gpu.copy_bw = Rate::bytes_per_sec(2'000'000'000);
      const Time launch = host.profile.gpu.copy_latency;
      LatConfig one = gpu(host, false);
      one.size = Bytes(chunk);
      const std::int64_t fill = one_way(one);
      const Time c = serialization_time(Bytes(chunk), host.profile.gpu.copy_bw);  // engine time
      EXPECT_EQ(GpuCopyEngine(host.profile.gpu).copy_time(Bytes(chunk)), launch + c);
      const Time network = Time::ps(fill) - (launch + c) * 2;
      ASSERT_LT(network, c);  // copy-bound
      SCOPED_TRACE(std::to_string(chunk) + " x " + std::to_string(m));
      const LatConfig piped = gpu(host, false, chunk);
      EXPECT_EQ(one_way(piped), (launch * 2 + pipelined(m, {c, network, c})).count_ps());
      EXPECT_EQ(one_way(piped), fill + (c * (m - 1)).count_ps());
      // With launches overlapped, pipelining hides all but one chunk's copy per side whatever
      // the chunk: from two chunks on it beats whole-message staging (2 launches + 2 m c + the
      // whole message's transfer) by more than (m - 1) chunk copies.
      const std::int64_t whole = one_way(gpu(host, false));
      if (m == 1) { EXPECT_EQ(one_way(piped), whole); }
      if (m >= 2) { EXPECT_GT(whole - one_way(piped), (c * (m - 1)).count_ps()); }
      EXPECT_EQ(one_way_ledger(piped)[Category::gpu], launch * 2 + c * (m + 1));
    }
}

// The budget evaluates the same stages as the simulation for every GPU configuration.
TEST(GpuPath, BudgetEqualsSimulation) {
  for (PcieTopology topo : {PcieTopology::pcie_switch, PcieTopology::root, PcieTopology::cross_socket})
    for (std::int64_t size : {2, 4097, 65536, 300000})
      for (TestKind t : {TestKind::write, TestKind::send, TestKind::read}) {
        LatConfig c = base(size, t);
        c.profile.pcie.topology = topo;
        one_way(gpu(c, true));
        LatConfig mixed = c;
        mixed.gpu.mem[1] = MemKind::gpu;  // host client, GPU server
        one_way(mixed);
        if (t == TestKind::read) continue;
        one_way(gpu(c, false));
        if (size % 4096 == 0) one_way(gpu(c, false, 16384));
      }
  LatConfig tcp = base(65536, TestKind::send);
  tcp.transport = Transport::tcp;
  const LatConfig staged_tcp = gpu(tcp, false);
  EXPECT_EQ(one_way(staged_tcp), one_way(tcp) + staged_extra(tcp.profile.gpu, tcp.size, true, true).count_ps());
}

TEST(GpuPath, ChunkCostChargesOncePerChunk) {
  Cost c;
  c.fixed = Time::ns(100);
  c.rate = Rate::bytes_per_sec(1'000'000'000);
  c.chunk_packets = 4;
  c.chunk_segment = Bytes(1000);
  const Bytes msg(9500);  // 10 packets: chunks of 4, 4, 2 packets
  for (int i = 0; i < 10; ++i) {
    const Time t = c.eval_at(i, Bytes(1000), msg, Bytes(1100));
    if (i == 0 || i == 4) { EXPECT_EQ(t, Time::ns(100) + Time::ns(4000)); }
    else if (i == 8) EXPECT_EQ(t, Time::ns(100) + Time::ns(1500));
    else EXPECT_EQ(t, Time::zero());
  }
  c.chunk_at_end = true;
  EXPECT_EQ(c.eval_at(3, Bytes(1000), msg, Bytes(1100)), Time::ns(4100));
  EXPECT_EQ(c.eval_at(9, Bytes(500), msg, Bytes(600)), Time::ns(1600));
  EXPECT_EQ(c.eval_at(0, Bytes(1000), msg, Bytes(1100)), Time::zero());
  EXPECT_EQ(pipelined(5, {Time::ns(3), Time::ns(7), Time::ns(2)}), Time::ns(12 + 4 * 7));
}

// ConnectX-6 200G on Gen4 x16 (profile cx6-200g).
TEST(GpuPath, Cx6Gen4HostBandwidthAndCrossSocketGpuDirectHalf) {
  auto bw = [](PcieTopology topo, bool on_gpu) {
    BwConfig b;
    b.base.profile = make_profile("cx6-200g");
    b.base.profile.pcie.topology = topo;
    b.base.size = Bytes(65536);
    b.base.iters = 1000;
    if (on_gpu) b.base = gpu(b.base, true);
    const BwResult r = run_bandwidth(b);
    EXPECT_EQ(r.invariant_violations, 0);
    return r.bw_avg_bps / 8e9;  // GB/s
  };
  const double host = bw(PcieTopology::pcie_switch, false);
  const double sw = bw(PcieTopology::pcie_switch, true);
  const double xs = bw(PcieTopology::cross_socket, true);
  EXPECT_GT(host, 23.0);
  EXPECT_LT(host, 25.0);
  EXPECT_GT(sw, 0.95 * host);       // GPU and NIC under one switch: as fast as host memory
  EXPECT_GT(xs, 0.40 * host);       // across sockets: about half
  EXPECT_LT(xs, 0.60 * host);
  // The read window (nic.read_buffer over the round trip) is what limits it: double the buffer
  // and the cross-socket bandwidth rises.
  BwConfig b;
  b.base = gpu(b.base, true);
  b.base.profile = make_profile("cx6-200g");
  b.base.profile.pcie.topology = PcieTopology::cross_socket;
  b.base.profile.nic.read_buffer = Bytes(64 * 1024);
  b.base.size = Bytes(65536);
  b.base.iters = 1000;
  EXPECT_GT(run_bandwidth(b).bw_avg_bps / 8e9, xs * 1.3);
}
