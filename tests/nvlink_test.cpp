// NvlinkDomain: a transfer's time on its ports is B / (bw x efficiency) to the picosecond plus
// the latency; transfers sharing a port queue behind each other in order; disjoint pairs run at
// once (a non-blocking NVSwitch). Server profiles: what --server sets, and an 8-GPU all_reduce
// inside one server bound by NVLink.
#include "host/nvlink.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "rdmasim/nccl_test.hpp"
#include "rdmasim/scenario.hpp"
#include "rdmasim/server.hpp"
#include "config/scenario.hpp"
#include "model/path.hpp"

using namespace rdmasim;

namespace {
// An all_reduce scenario of 1 GiB on one DGX H100, with `extra` keys.
Scenario one_dgx_h100(std::initializer_list<const char*> extra) {
  Scenario s = make_scenario(Command::allreduce);
  for (const char* a : {"network.topology=rail-optimized", "network.server=dgx-h100", "network.servers=1",
                        "workload.gpus=8", "workload.min_bytes=1G", "workload.max_bytes=1G", "workload.iters=1"})
    apply_override(s, a);
  for (const char* a : extra) apply_override(s, a);
  return s;
}

GpuParams h100() {
  GpuParams p;
  p.nvlink_bw = Rate::bytes_per_sec(450'000'000'000);
  p.nvlink_latency = Time::us(1);
  p.nvlink_efficiency = 0.8;
  return p;
}
}  // namespace

TEST(Nvlink, TransfersQueuePerPortAndRunInParallelAcrossPairs) {
  NvlinkDomain d(h100(), 4);
  // 360 GB/s of payload: 36 MB take 100 us.
  const Bytes b(36'000'000);
  EXPECT_EQ(d.service(b), Time::us(100));
  EXPECT_EQ(d.transfer(0, 1, b, Time::zero()), Time::us(101));
  EXPECT_EQ(d.transfer(2, 3, b, Time::zero()), Time::us(101));  // other ports: at once
  EXPECT_EQ(d.transfer(0, 2, b, Time::us(10)), Time::us(201));  // GPU 0's egress busy until 100 us
  EXPECT_EQ(d.transfer(3, 1, b, Time::us(150)), Time::us(251));  // GPU 1's ingress free at 100 us
  EXPECT_EQ(d.transfer(1, 0, b, Time::us(300)), Time::us(401));
  GpuParams none;
  EXPECT_THROW(NvlinkDomain(none, 8), std::invalid_argument);
}

// NVLS: a multicast's pieces take their sender's egress once, a reduction's pieces their
// receiver's ingress once; plain transfers queue behind the group's booking.
TEST(Nvlink, NvlsGroupsTakeTheSharedPortOnce) {
  GpuParams p = h100();
  p.nvls_efficiency = 0.8;  // 360 GB/s: 36 MB in 100 us
  const Bytes b(36'000'000);
  using G = NvlinkDomain::Group;
  NvlinkDomain d(p, 4);
  EXPECT_EQ(d.nvls_service(b), Time::us(100));
  for (int to : {1, 2, 3}) EXPECT_EQ(d.group_transfer(G::multicast, 0, to, b, Time::zero(), 7, 3), Time::us(101)) << to;
  EXPECT_EQ(d.transfer(0, 1, b, Time::zero()), Time::us(201));  // behind the multicast on both ports
  NvlinkDomain r(p, 4);
  for (int from : {1, 2, 3}) EXPECT_EQ(r.group_transfer(G::reduce, from, 0, b, Time::zero(), 7, 3), Time::us(101)) << from;
  EXPECT_EQ(r.transfer(2, 0, b, Time::us(50)), Time::us(201));
  // Without NVLS the three pieces queue on GPU 0's ingress.
  NvlinkDomain plain(p, 4);
  EXPECT_EQ(plain.transfer(1, 0, b, Time::zero()), Time::us(101));
  EXPECT_EQ(plain.transfer(2, 0, b, Time::zero()), Time::us(201));
  EXPECT_EQ(plain.transfer(3, 0, b, Time::zero()), Time::us(301));
  // A closed group's key opens a new one, which books the port again; a late piece waits for its own port.
  EXPECT_EQ(r.group_transfer(G::reduce, 1, 0, b, Time::us(300), 7, 2), Time::us(401));
  EXPECT_EQ(r.group_transfer(G::reduce, 3, 0, b, Time::us(350), 7, 2), Time::us(451));
  EXPECT_THROW(NvlinkDomain(h100(), 4).group_transfer(G::reduce, 1, 0, b, Time::zero(), 0, 3), std::invalid_argument);
}

// --algo nvls in one DGX H100: every element right, the bytes nccl-tests counts, and faster than
// the ring by what NVLS saves (each GPU's egress and ingress carry S instead of 2(n-1)/n x S),
// less its lower efficiency and the pipeline's fill; refused where there is no NVLS.
TEST(Servers, NvlsSumsInsideTheSwitch) {
  Scenario s = one_dgx_h100({"workload.warmup=0"});
  const CollectiveResult ring = std::get<CollectiveResult>(run(s).detail);
  apply_override(s, "workload.algo=nvls");
  const RunResult r = run(s);
  ASSERT_EQ(r.failure, "");
  const CollectiveResult& x = std::get<CollectiveResult>(r.detail);
  EXPECT_EQ(x.rows[0].wrong, 0);
  EXPECT_EQ(x.rows[0].bytes_sent[0], 2 * 7 * ((std::int64_t{1} << 30) / 8));
  const GpuParams g = config::scenario_config(s).profile.gpu;
  const double line = static_cast<double>(g.nvlink_bw.bits_per_sec()) / 8e9 * g.nvls_efficiency;  // GB/s
  EXPECT_GT(x.rows[0].algbw_gbs, 0.93 * line);
  EXPECT_LT(x.rows[0].algbw_gbs, line);
  EXPECT_GT(x.rows[0].busbw_gbs, 1.2 * ring.rows[0].busbw_gbs);
  EXPECT_EQ(std::get<CollectiveResult>(run(s).detail).rows[0].time_us, x.rows[0].time_us);
  Scenario two = s;
  apply_override(two, "network.servers=2");
  try {
    run(two);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "all_reduce: --algo nvls runs inside one server's NVSwitch with NVLink SHARP (--nodes 1 and "
                           "gpu.nvls_efficiency > 0, as on --server dgx-h100)");
  }
  Scenario a100 = s;
  apply_override(a100, "network.server=dgx-a100");
  EXPECT_THROW(run(a100), std::invalid_argument);
}

// A server's endpoints by what they hold: "s0.gpu5" is GPU 5's memory behind NIC 5 mod N over
// its placement's PCIe path, "s1" host memory behind NIC 0; a GPU the server lacks is refused.
TEST(Servers, EndpointsNameAServersGpuOrMemory) {
  Scenario s = make_scenario(Command::lat);
  for (const char* a : {"network.topology=rail-optimized", "network.server=pcie-8gpu", "network.servers=2",
                        "network.from=s0.gpu5", "network.to=s1"})
    apply_override(s, a);
  const LatConfig c = config::scenario_config(s);
  const auto t = FabricNetwork::make_topology(c);
  EXPECT_EQ(c.fabric.from, t->find_host("s0.nic1"));
  EXPECT_EQ(c.fabric.to, t->find_host("s1.nic0"));
  EXPECT_EQ(c.gpu.mem[0], MemKind::gpu);
  EXPECT_EQ(c.gpu.mem[1], MemKind::host);
  EXPECT_EQ(c.gpu.placement[0], PcieTopology::cross_socket);
  EXPECT_FALSE(c.gpu.placement[1].has_value());
  apply_override(s, "network.from=s0.gpu8");
  try {
    config::scenario_config(s);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "override network.from=s0.gpu8: network.from: s0.gpu8: the servers have 8 GPUs (gpu0..gpu7)");
  }
}

TEST(Servers, ProfilesSetTheirNicsNvlinkAndPcie) {
  Scenario s = one_dgx_h100({"workload.channels=1"});
  const LatConfig c = config::scenario_config(s);
  EXPECT_EQ(c.profile.link.rate, Rate::gbps(400));
  EXPECT_EQ(c.profile.gpu.nvlink_bw, Rate::bytes_per_sec(450'000'000'000));
  EXPECT_EQ(c.profile.pcie.gen, 5);
  EXPECT_EQ(c.fabric.nics_per_server, 8);
  // Eight GPUs of one server, one ring all_reduce over NVLink: each step's S/8 at 450 GB/s x
  // 0.82 plus the latency, 14 steps in series.
  const RunResult r = run(s);
  EXPECT_EQ(r.failure, "");
  const CollectiveResult& x = std::get<CollectiveResult>(r.detail);
  NvlinkDomain d(c.profile.gpu, 8);
  const Time step = d.service(Bytes((std::int64_t{1} << 30) / 8)) + c.profile.gpu.nvlink_latency;
  EXPECT_NEAR(x.rows[0].time_us, (step * 14).to_us(), 1e-6);
  EXPECT_NEAR(x.rows[0].busbw_gbs, 368.0, 0.1);  // 450 x 0.82 = 369 GB/s, less the latencies
  // The user's --set comes after the server's; a second NIC profile or NIC count is refused.
  apply_override(s, "params.gpu.nvlink_bw=100GB/s");
  EXPECT_EQ(config::scenario_config(s).profile.gpu.nvlink_bw, Rate::bytes_per_sec(100'000'000'000));
  Scenario bad = s;
  apply_override(bad, "profile=cx6-200g");
  EXPECT_THROW(config::scenario_config(bad), std::invalid_argument);
  Scenario four = s;  // fewer NICs cabled than the server has
  apply_override(four, "network.nics_per_server=4");
  EXPECT_EQ(config::scenario_config(four).fabric.nics_per_server, 4);
  bad = s;
  apply_override(bad, "network.server=pcie-8gpu");
  EXPECT_EQ(config::scenario_config(bad).fabric.nics_per_server, 4);
  EXPECT_EQ(config::scenario_config(bad).profile.gpu.nvlink_bw, Rate::bytes_per_sec(100'000'000'000));  // the user's --set
  try {
    server("dgx-b200");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown server \"dgx-b200\" (valid: dgx-a100, dgx-h100, pcie-8gpu", 0), 0u)
        << e.what();  // and what other tests register
  }
}
