// AllReduce: bytes moved per rank = 2(n-1)/n x S exactly; busbw =
// algbw x 2(n-1)/n; 8 ranks on one switch at 100 Gb/s reach the link's RDMA WRITE goodput
// (12.25 GB/s at MTU 4096) at large sizes; #wrong is 0 and counts real errors; GPUDirect off
// adds the staged copies of every step; the nccl-tests table is printed exactly.
#include "rdmasim/nccl_test.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>

#include "io/nccl_report.hpp"
#include "rdmasim/server.hpp"
#include "host/gpu.hpp"

using namespace rdmasim;

namespace {

CollectiveConfig cfg(int hosts, std::int64_t bytes, const std::string& algo = "ring") {
  CollectiveConfig c;
  c.base.fabric.topology = "single-switch";
  c.base.fabric.hosts = hosts;
  c.algo = algo;
  c.min_bytes = c.max_bytes = bytes;
  c.iters = 1;
  c.warmup = 0;
  return c;
}

// The table print_collective writes.
std::string printed(const CollectiveResult& r) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  print_collective(f, r);
  std::fclose(f);
  const std::string out(buf, len);
  std::free(buf);
  return out;
}

}  // namespace

TEST(AllReduce, BytesMovedPerRankAre2NMinus1OverNTimesS) {
  for (const std::string algo : {"ring", "halving-doubling"}) {
    const std::int64_t s = 8 << 20;
    const CollectiveResult r = run_collective(cfg(8, s, algo));
    ASSERT_EQ(r.ranks, 8);
    const CollectiveRow& row = r.rows.at(0);
    EXPECT_EQ(row.wrong, 0);
    EXPECT_EQ(row.steps, algo == "ring" ? 14 : 6);
    for (std::int64_t b : row.bytes_sent) EXPECT_EQ(b, 2 * (8 - 1) * s / 8);
    EXPECT_DOUBLE_EQ(row.busbw_gbs, row.algbw_gbs * 2.0 * 7 / 8);
    EXPECT_DOUBLE_EQ(row.algbw_gbs, static_cast<double>(s) / 1e9 / (row.time_us / 1e6));
  }
}

TEST(AllReduce, EightRanksOnOneSwitchReachTheLinkGoodput) {
  const CollectiveResult r = run_collective(cfg(8, 256 << 20));
  // 100 Gb/s x 4096 / 4178 wire bytes per packet: 12.25 GB/s of RDMA WRITE goodput.
  EXPECT_NEAR(r.link_goodput_gbs, 12.2546, 1e-3);
  EXPECT_GT(r.rows[0].busbw_gbs, 0.999 * r.link_goodput_gbs);
  EXPECT_LE(r.rows[0].busbw_gbs, r.link_goodput_gbs);
  // Small messages are latency-bound: busbw well below it.
  EXPECT_LT(run_collective(cfg(8, 64 << 10)).rows[0].busbw_gbs, 0.5 * r.link_goodput_gbs);
}

TEST(AllReduce, SweepsSizesLikeNcclTests) {
  CollectiveConfig c = cfg(4, 1024);
  c.max_bytes = 1 << 20;
  c.step_factor = 4;
  const CollectiveResult r = run_collective(c);
  ASSERT_EQ(r.rows.size(), 6u);  // 1K 4K 16K 64K 256K 1M
  EXPECT_EQ(r.rows[5].bytes, 1 << 20);
  EXPECT_EQ(r.rows[5].count, (1 << 20) / 4);
  double sum = 0;
  for (const CollectiveRow& row : r.rows) {
    EXPECT_EQ(row.wrong, 0);
    sum += row.busbw_gbs;
  }
  EXPECT_DOUBLE_EQ(r.avg_busbw_gbs, sum / 6);
  for (std::size_t i = 1; i < r.rows.size(); ++i) EXPECT_GT(r.rows[i].time_us, r.rows[i - 1].time_us);
}

TEST(AllReduce, UnevenChunksAndFewerElementsThanRanksStayCorrect) {
  for (std::int64_t s : {4, 20, 1000, 4100}) {
    const CollectiveResult r = run_collective(cfg(8, s));
    EXPECT_EQ(r.rows[0].wrong, 0) << s;
  }
}

TEST(AllReduce, GpusOfOneHostExchangeByPeerCopy) {
  CollectiveConfig c = cfg(2, 8 << 20);
  c.gpus = 4;
  const CollectiveResult r = run_collective(c);
  EXPECT_EQ(r.ranks, 8);
  EXPECT_EQ(r.rows[0].wrong, 0);
  for (std::int64_t b : r.rows[0].bytes_sent) EXPECT_EQ(b, 2 * 7 * (8 << 20) / 8);
}

TEST(AllReduce, StagedPathAddsTheCopiesOfEveryStep) {
  const std::int64_t s = 8 << 20;
  CollectiveConfig on = cfg(8, s), off = cfg(8, s);
  off.gpudirect = false;
  const CollectiveResult a = run_collective(on), b = run_collective(off);
  EXPECT_EQ(b.rows[0].wrong, 0);
  // Each of the 14 steps: a D2H copy of S/8 before the send, an H2D copy after the receive, on
  // the hosts' copy engines (the host model's staged path); the engines are busy for the
  // bytes, the launches are delays.
  const Time copy = GpuCopyEngine(Profile{}.gpu).copy_time(Bytes(s / 8));
  EXPECT_EQ(b.rows[0].staging_per_rank, (copy - Profile{}.gpu.copy_latency) * 28);
  EXPECT_EQ(a.rows[0].staging_per_rank, Time::zero());
  // NCCL stages in 512 KiB slots, so the 1 MiB step's copies pipeline with its transfer (the
  // link is slower than the engine): the sender's second slot is copied while the first is on
  // the wire, the receiver's first while the second arrives. A step is longer by one slot's
  // copy on each end, and by the PCIe difference of its DMAs: GPUDirect reads (a round trip)
  // and writes the GPU under the NIC's switch (pcie.switch_latency), staged the host buffer
  // behind the root complex (pcie.latency): 3 traversals x (250 - 150) ns per step.
  const Time slot = GpuCopyEngine(Profile{}.gpu).copy_time(Bytes(512 * 1024));
  const PcieParams& pcie = Profile{}.pcie;
  const Time pcie_per_step = (pcie.latency - pcie.switch_latency) * 3;
  EXPECT_EQ(pcie_per_step, Time::ns(300));
  EXPECT_NEAR(b.rows[0].time_us - a.rows[0].time_us, ((slot * 2 + pcie_per_step) * 14).to_us(), 1e-6);
  EXPECT_LT(b.rows[0].time_us - a.rows[0].time_us, 0.6 * (copy * 28).to_us());  // unpipelined: all of it
}

TEST(AllReduce, BadInputIsAClearError) {
  EXPECT_THROW(run_collective(cfg(6, 1 << 20, "halving-doubling")), std::invalid_argument);
  CollectiveConfig c = cfg(8, 1 << 20);
  c.nodes = 9;
  EXPECT_THROW(run_collective(c), std::invalid_argument);
  c = cfg(8, 2);
  EXPECT_THROW(run_collective(c), std::invalid_argument);
  c = cfg(1, 1 << 20);
  c.base.fabric.hosts = 2;
  c.nodes = 1;
  EXPECT_THROW(run_collective(c), std::invalid_argument);
}

TEST(AllReduce, PrintsNcclTestsTableExactly) {
  EXPECT_EQ(nccl_time(9306.7), " 9306.7");  // the REFERENCE.md 4 sample row
  EXPECT_EQ(nccl_time(13680.74), "  13681");
  EXPECT_EQ(nccl_time(42.123), "  42.12");
  EXPECT_EQ(nccl_float(12345.678, 6), " 12346");
  EXPECT_EQ(nccl_float(115.37, 6), "115.37");
  EXPECT_EQ(nccl_float(4.5, 6), "  4.50");
  CollectiveConfig c = cfg(2, 1 << 20);
  const CollectiveResult r = run_collective(c);
  const std::string out = printed(r);
  // The column headers as nccl-tests renders them (REFERENCE.md 4).
  EXPECT_NE(out.find("\n#                                                              out-of-place                       in-place          \n"
                     "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                     "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n"),
            std::string::npos)
      << out;
  char row[256];
  const CollectiveRow& x = r.rows[0];
  const std::string t = nccl_time(x.time_us), a = nccl_float(x.algbw_gbs, 6), b = nccl_float(x.busbw_gbs, 6);
  std::snprintf(row, sizeof row, "     1048576        262144     float     sum      -1  %s  %s  %s      0  %s  %s  %s      0\n",
                t.c_str(), a.c_str(), b.c_str(), t.c_str(), a.c_str(), b.c_str());
  EXPECT_NE(out.find(row), std::string::npos) << out;
  EXPECT_NE(out.find("# Out of bounds values : 0 OK\n"), std::string::npos);
  EXPECT_NE(out.find("# Collective test concluded: all_reduce_perf\n"), std::string::npos);
}

TEST(AllReduce, LostFramesAreRetransmittedByTheRcQps) {
  const std::int64_t s = 4 << 20;
  CollectiveConfig lossy = cfg(4, s);
  lossy.base.fabric.faults.push_back(LinkFault{"h0", "sw0", {}, 0, {50, 700}, {}});
  const CollectiveResult clean = run_collective(cfg(4, s)), r = run_collective(lossy);
  EXPECT_EQ(r.rows[0].wrong, 0);
  for (std::int64_t b : r.rows[0].bytes_sent) EXPECT_EQ(b, 2 * 3 * s / 4);
  EXPECT_GT(r.rows[0].time_us, clean.rows[0].time_us);  // go-back-N after each loss
}

// The host model's GPU path: GPUDirect reads and writes GPU memory through pcie.topology, so a
// GPU and NIC on different sockets (the "bad PCIe topology") show in the bus bandwidth: on the
// cx6-200g profile the NIC's outstanding DMA reads bound each read's round trip, which crosses
// the inter-socket link twice (as in bw, README: ~24.5 vs ~12.6 GB/s).
TEST(AllReduce, BadPcieTopologyHalvesGpuDirectBusBandwidth) {
  CollectiveConfig good = cfg(4, 16 << 20);
  good.base.profile = make_profile("cx6-200g");
  CollectiveConfig bad = good;
  bad.base.profile.pcie.topology = PcieTopology::cross_socket;
  const CollectiveResult g = run_collective(good), b = run_collective(bad);
  EXPECT_EQ(g.rows[0].wrong, 0);
  EXPECT_EQ(b.rows[0].wrong, 0);
  const double ratio = b.rows[0].busbw_gbs / g.rows[0].busbw_gbs;
  EXPECT_GT(ratio, 0.45);
  EXPECT_LT(ratio, 0.6);
  // GPUDirect: no copy engine work.
  EXPECT_EQ(b.rows[0].staging_per_rank, Time::zero());
  // The critical path says where: the far socket's DMA reads wait in the NIC for their round
  // trips over the inter-socket link (queue and PCIe), the wire's share is the same.
  const Ledger& gn = g.rows[0].ledger.network;
  const Ledger& bn = b.rows[0].ledger.network;
  EXPECT_GT(bn[Category::pcie_dma] + bn[Category::queue], gn[Category::pcie_dma] + gn[Category::queue] + (bn.total() - gn.total()) / 2);
  EXPECT_EQ(b.rows[0].ledger.nvlink, Time::zero());
}

// pcie-8gpu places GPUs 2-5 across the sockets from the NIC they send through: against the same
// server with every GPU under its NIC's switch, the collective is slower and its critical path
// spends more in PCIe (the far socket's DMA round trips) and waiting.
TEST(Collectives, PerGpuPlacementShowsInTheLedger) {
  ServerSpec aligned = server("pcie-8gpu");
  aligned.name = "pcie-8gpu-aligned";
  aligned.placement.clear();
  if (servers().size() < 4) register_server(aligned);
  ServerSpec bad = aligned;
  bad.name = "pcie-8gpu-short";
  bad.placement = {PcieTopology::root};
  EXPECT_THROW(register_server(bad), std::invalid_argument);
  CollectiveConfig c = cfg(2, 1 << 20);  // latency-bound: the extra PCIe traversals show in the time
  c.base.fabric.topology = "rail-optimized";
  c.base.fabric.servers = 2;
  c.base.fabric.server = "pcie-8gpu";
  c.base.fabric.nics_per_server = 4;
  c.base.profile = make_profile("cx6-200g");
  c.base.profile.gpu.nvlink_bw = Rate::bps(0);
  c.gpus = 8;
  const CollectiveRow placed = run_collective(c).rows[0];
  c.base.fabric.server = "pcie-8gpu-aligned";
  const CollectiveRow ideal = run_collective(c).rows[0];
  EXPECT_EQ(placed.wrong, 0);
  EXPECT_GT(placed.time_us, ideal.time_us + 5);  // 171.1 against 163.8 us
  EXPECT_GT(placed.ledger.network[Category::pcie_dma], ideal.ledger.network[Category::pcie_dma]);
}

// A collective's ledger is its critical path's, and it sums to the iteration's time to the
// picosecond (run_collective throws otherwise): over the network only between hosts; NVLink and
// the network between servers; NVLink only inside one; the peer copy without NVLink; the
// staging copies without GPUDirect.
TEST(Collectives, TheLedgerFollowsTheCriticalPath) {
  const auto per_iteration = [](const CollectiveRow& row, int iters) { return row.ledger.total().to_us() / iters; };
  CollectiveConfig c = cfg(4, 4 << 20);
  c.iters = 3;
  CollectiveRow r = run_collective(c).rows[0];
  EXPECT_NEAR(per_iteration(r, 3), r.time_us, 1e-6);
  EXPECT_EQ(r.ledger.nvlink + r.ledger.nvlink_wait + r.ledger.peer_copy, Time::zero());
  EXPECT_GT(r.ledger.network[Category::transmit], r.ledger.network.total() * 9 / 10);  // link-bound
  c.gpus = 2;  // two GPUs per host, no NVLink: one peer copy per host on the path
  r = run_collective(c).rows[0];
  EXPECT_NEAR(per_iteration(r, 3), r.time_us, 1e-6);
  EXPECT_GT(r.ledger.peer_copy, Time::zero());
  c.gpudirect = false;  // staged: the copy engines' D2H and H2D
  r = run_collective(c).rows[0];
  EXPECT_NEAR(per_iteration(r, 3), r.time_us, 1e-6);
  EXPECT_GT(r.ledger.network[Category::gpu], Time::zero());
  CollectiveConfig d = cfg(2, 64 << 20);
  d.base.fabric.topology = "rail-optimized";
  d.base.fabric.servers = 2;
  d.base.fabric.nics_per_server = 4;
  d.base.profile.gpu.nvlink_bw = Rate::bytes_per_sec(300'000'000'000);
  d.gpus = 4;
  r = run_collective(d).rows[0];
  EXPECT_NEAR(per_iteration(r, 1), r.time_us, 1e-6);
  EXPECT_GT(r.ledger.nvlink, Time::zero());
  EXPECT_GT(r.ledger.network.total(), Time::zero());
  d.nodes = 1;  // one server: NVLink only
  r = run_collective(d).rows[0];
  EXPECT_NEAR(per_iteration(r, 1), r.time_us, 1e-6);
  EXPECT_EQ(r.ledger.network.total(), Time::zero());
  EXPECT_GT(r.ledger.nvlink, Time::zero());
}

// Staged, the copies are the host model's D2H/H2D on each host's copy engine; a host's copy
// engine serves one copy at a time.
TEST(AllReduce, StagedCopiesRunOnTheHostsCopyEngine) {
  CollectiveConfig c = cfg(4, 4 << 20);
  c.gpudirect = false;
  c.base.profile.gpu.copy_bw = Rate::bytes_per_sec(2'500'000'000);  // slower than the link
  CollectiveConfig fast = c;
  fast.base.profile.gpu.copy_bw = Rate::bytes_per_sec(25'000'000'000);
  const CollectiveResult slow = run_collective(c), quick = run_collective(fast);
  EXPECT_EQ(slow.rows[0].wrong, 0);
  EXPECT_EQ(slow.rows[0].staging_per_rank, serialization_time(Bytes((4 << 20) / 4), c.base.profile.gpu.copy_bw) * 12);
  EXPECT_LT(slow.rows[0].busbw_gbs, quick.rows[0].busbw_gbs);
}

// Every operation x algorithm through the packet-level fabric: #wrong is 0, each rank sends
// nccl-tests' bus factor x S (broadcast's last rank: nothing), busbw = algbw x the factor, and
// the run is the same to the picosecond when repeated with the seed.
TEST(Collectives, EveryOperationAndAlgorithmMovesNcclTestsBytes) {
  int runs = 0;
  for (const CollectiveSpec* spec : collectives()) {
    if (spec->name == "reverse-ring") continue;  // a test's own registration
    for (int gpus : {1, 2}) {
      SCOPED_TRACE(std::string(coll_op_info(spec->op).name) + " " + spec->name + " gpus=" + std::to_string(gpus));
      CollectiveConfig c = cfg(4, 2 << 20, spec->name);
      c.op = spec->op;
      c.gpus = gpus;
      if (spec->needs_nvls) {  // inside one server's NVSwitch: 4 and 8 GPUs
        c.nodes = 1;
        c.gpus = 4 * gpus;
        c.base.profile.gpu.nvlink_bw = Rate::bytes_per_sec(450'000'000'000);
        c.base.profile.gpu.nvls_efficiency = 0.6;
      }
      const CollectiveResult r = run_collective(c);
      const int n = spec->needs_nvls ? c.gpus : 4 * gpus;
      ASSERT_EQ(r.ranks, n);
      const CollectiveRow& row = r.rows.at(0);
      EXPECT_EQ(row.wrong, 0);
      EXPECT_EQ(row.bytes, 2 << 20);
      double sum = 0;
      for (int rank = 0; rank < n; ++rank) {
        const double want = spec->op == CollOp::broadcast && rank == n - 1 ? 0 : bus_factor(spec->op, n) * (2 << 20);
        sum += static_cast<double>(row.bytes_sent[static_cast<std::size_t>(rank)]);
        if (spec->balanced) {
          EXPECT_DOUBLE_EQ(static_cast<double>(row.bytes_sent[static_cast<std::size_t>(rank)]), want) << "rank " << rank;
        }
      }
      if (!spec->balanced) {
        EXPECT_DOUBLE_EQ(sum, n * bus_factor(spec->op, n) * (2 << 20));  // a tree's ranks: on average
      }
      EXPECT_DOUBLE_EQ(row.busbw_gbs, row.algbw_gbs * bus_factor(spec->op, n));
      EXPECT_NEAR(row.ledger.total().to_us(), row.time_us, 1e-6);  // one iteration: its critical path
      EXPECT_EQ(run_collective(c).rows[0].time_us, row.time_us);
      ++runs;
    }
  }
  EXPECT_EQ(runs, 28);
}

// #wrong counts real errors: a schedule that forgets a step leaves chunks without their data.
TEST(Collectives, WrongCountsTheElementsAScheduleMisses) {
  if (collectives(CollOp::all_gather).size() < 3)
    register_collective({"lazy-ring", "the ring without its last step", "a test", CollOp::all_gather, [](int n, int chunks) {
                           CollSchedule s = collective(CollOp::all_gather, "ring").schedule(n, chunks);
                           for (auto& steps : s) steps.pop_back();
                           return s;
                         }});
  CollectiveConfig c = cfg(4, 1 << 20, "lazy-ring");
  c.op = CollOp::all_gather;
  const CollectiveResult r = run_collective(c);
  // Each rank misses one chunk of S/4: 4 x 65536 elements.
  EXPECT_EQ(r.rows[0].wrong, 4 * 65536);
}

// Broadcast pipelines its pieces down the chain: 16 MiB in 32 pieces over 3 hops takes about
// (32 + 2) pieces' time, close to S at the link's goodput; alltoall's direct sends beat the
// pairwise rounds; the table shows the root (0) and redop (none) as nccl-tests does.
TEST(Collectives, BroadcastPipelinesAndAlltoallDirectBeatsPairwise) {
  CollectiveConfig b = cfg(4, 16 << 20);
  b.op = CollOp::broadcast;
  const CollectiveResult br = run_collective(b);
  EXPECT_EQ(br.rows[0].steps, 33);
  EXPECT_GT(br.rows[0].busbw_gbs, 0.9 * br.link_goodput_gbs * 32 / 34);
  EXPECT_LT(br.rows[0].busbw_gbs, br.link_goodput_gbs);
  CollectiveConfig d = cfg(8, 4 << 20, "direct"), p = cfg(8, 4 << 20, "pairwise");
  d.op = p.op = CollOp::alltoall;
  EXPECT_LT(run_collective(d).rows[0].time_us, run_collective(p).rows[0].time_us);
  const std::string out = printed(br);
  EXPECT_NE(out.find("    16777216       4194304     float    none       0  "), std::string::npos) << out;
  EXPECT_NE(out.find("# Collective test starting: broadcast_perf\n"), std::string::npos);
}

// On a rail-optimized fabric a GPU sends through the NIC on its rail: one GPU per server on
// rail 0 is the same path as two hosts on one switch (NIC, leaf, NIC), to the picosecond; with
// two GPUs per server the ring's server-to-server steps leave GPU 1's NIC for the next server's
// GPU 0, another rail: through a spine, slower.
TEST(Collectives, GpusSendThroughTheirRailsNic) {
  CollectiveConfig flat = cfg(2, 4096);
  flat.op = CollOp::sendrecv;
  CollectiveConfig rail = flat;
  rail.base.fabric.topology = "rail-optimized";
  rail.base.fabric.servers = 2;
  rail.base.fabric.nics_per_server = 2;
  const CollectiveResult a = run_collective(flat), b = run_collective(rail);
  EXPECT_TRUE(b.servers);
  EXPECT_EQ(b.ranks, 2);
  EXPECT_EQ(b.rows[0].time_us, a.rows[0].time_us);
  rail.gpus = 2;
  const CollectiveResult c = run_collective(rail);
  EXPECT_EQ(c.ranks, 4);
  EXPECT_EQ(c.rows[0].wrong, 0);
  EXPECT_GT(c.rows[0].time_us, a.rows[0].time_us);
  rail.op = CollOp::all_reduce;
  rail.base.fabric.servers = 4;
  rail.gpus = 4;
  rail.base.fabric.nics_per_server = 4;
  rail.min_bytes = rail.max_bytes = 1 << 20;
  const CollectiveResult d = run_collective(rail);
  EXPECT_EQ(d.ranks, 16);
  EXPECT_EQ(d.rows[0].wrong, 0);
  for (std::int64_t x : d.rows[0].bytes_sent) EXPECT_EQ(x, 2 * 15 * (1 << 20) / 16);
  rail.nodes = 5;
  EXPECT_THROW(run_collective(rail), std::invalid_argument);  // "--nodes: the topology has 4 servers, got 5"
}

// Channels: every operation x algorithm still ends right and sends nccl-tests' bytes when C
// channels run side by side over rotated rank orders (odd C, uneven shares); on two servers
// whose GPUs each have a NIC, C channels leave each server through C NICs: the bus bandwidth
// scales with them up to the NICs' sum.
TEST(Collectives, ChannelsSpreadRingsOverTheNics) {
  for (const CollectiveSpec* spec : collectives()) {
    if (spec->name == "reverse-ring" || spec->name == "lazy-ring") continue;
    if (spec->needs_nvls) continue;  // one server only (Collectives.NvlsSumsInsideTheSwitch)
    SCOPED_TRACE(std::string(coll_op_info(spec->op).name) + " " + spec->name);
    CollectiveConfig c = cfg(2, 1 << 20, spec->name);
    c.op = spec->op;
    c.base.fabric.topology = "rail-optimized";
    c.base.fabric.servers = 2;
    c.base.fabric.nics_per_server = 4;
    c.gpus = 4;
    c.channels = 3;
    const CollectiveResult r = run_collective(c);
    EXPECT_EQ(r.channels, 3);
    EXPECT_EQ(r.rows[0].wrong, 0);
    std::int64_t sum = 0;  // broadcast: every rank but each channel's last forwards its share
    for (int rank = 0; rank < 8; ++rank) {
      sum += r.rows[0].bytes_sent[static_cast<std::size_t>(rank)];
      if (spec->op != CollOp::broadcast && spec->balanced) {
        EXPECT_NEAR(static_cast<double>(r.rows[0].bytes_sent[static_cast<std::size_t>(rank)]), bus_factor(spec->op, 8) * (1 << 20),
                    4.0 * 3)
            << rank;
      }
    }
    if (spec->op == CollOp::broadcast) {
      EXPECT_EQ(sum, 7 * (1 << 20));
    }
    if (!spec->balanced) {
      EXPECT_NEAR(static_cast<double>(sum), 8 * bus_factor(spec->op, 8) * (1 << 20), 4.0 * 3 * 8);
    } else {
      EXPECT_EQ(r.rows[0].bytes_sent[0], static_cast<std::int64_t>(bus_factor(spec->op, 8) * (1 << 20) + 0.5) / 4 * 4)
          << "rank 0";
    }
  }
  CollectiveConfig c = cfg(2, 64 << 20);
  c.base.fabric.topology = "rail-optimized";
  c.base.fabric.servers = 2;
  c.base.fabric.nics_per_server = 4;
  c.base.fabric.spines = 4;
  c.base.profile.gpu.nvlink_bw = Rate::bytes_per_sec(300'000'000'000);
  c.gpus = 4;
  c.channels = 1;
  const CollectiveResult one = run_collective(c);
  c.channels = 0;  // the servers' NICs: 4
  const CollectiveResult four = run_collective(c);
  EXPECT_EQ(four.channels, 4);
  EXPECT_EQ(four.rows[0].wrong, 0);
  EXPECT_GT(four.rows[0].busbw_gbs, 3.8 * one.rows[0].busbw_gbs);
  EXPECT_LT(four.rows[0].busbw_gbs, 4 * four.link_goodput_gbs);
}

// PXN: with it a GPU reaches another server through its server's NIC on the receiver's rail
// (over NVLink first), so the channels' rings never cross a spine; without it each channel's
// server-to-server step goes rail to another rail through the spines, where ECMP collisions
// and PFC cut the bus bandwidth (8 DGX H100, 32 MiB: about 308 against 98 GB/s).
TEST(Collectives, PxnKeepsServerToServerTrafficOnItsRail) {
  CollectiveConfig c = cfg(2, 32 << 20);
  c.base.fabric.topology = "rail-optimized";
  c.base.fabric.servers = 8;
  c.base.fabric.servers_per_su = 8;
  c.base.fabric.spines = 8;
  const ServerSpec& dgx = server("dgx-h100");
  c.base.profile = make_profile(dgx.profile);
  for (const std::string& x : dgx.sets) apply_override(c.base.profile, x);
  c.gpus = 8;
  const CollectiveResult on = run_collective(c);
  c.pxn = false;
  const CollectiveResult off = run_collective(c);
  EXPECT_EQ(on.channels, 8);
  EXPECT_EQ(on.rows[0].wrong, 0);
  EXPECT_EQ(off.rows[0].wrong, 0);
  EXPECT_GT(on.rows[0].busbw_gbs, 2.5 * off.rows[0].busbw_gbs);
  c.base.profile.gpu.nvlink_bw = Rate{};  // no NVLink: no PXN either
  c.pxn = true;
  EXPECT_EQ(run_collective(c).rows[0].time_us, [&] {
    CollectiveConfig d = c;
    d.pxn = false;
    return run_collective(d).rows[0].time_us;
  }());
}

// nccl-tests' -c 0: nothing tracked (#wrong N/A, no memory for the masks), the same timing to
// the picosecond as the checked run.
TEST(Collectives, CheckOffTracksNothingAndTimesTheSame) {
  CollectiveConfig c = cfg(4, 1 << 20);
  c.gpus = 2;
  const CollectiveResult checked = run_collective(c);
  c.check = false;
  const CollectiveResult unchecked = run_collective(c);
  EXPECT_EQ(checked.rows[0].wrong, 0);
  EXPECT_EQ(unchecked.rows[0].wrong, -1);
  EXPECT_EQ(unchecked.wrong, 0);
  EXPECT_EQ(unchecked.rows[0].time_us, checked.rows[0].time_us);
  EXPECT_EQ(unchecked.rows[0].bytes_sent, checked.rows[0].bytes_sent);
  const std::string out = printed(unchecked);
  EXPECT_NE(out.find("    N/A  "), std::string::npos) << out;  // the #wrong columns, as nccl-tests prints them
  EXPECT_NE(out.find("validation: 0 graph"), std::string::npos) << out;
}
