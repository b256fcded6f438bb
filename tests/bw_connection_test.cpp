// bw with connection setup in the timed loop and
// the receiving application's completion (a staged GPU receiver's H2D copy off the ACK path):
// with a new connection for every message each takes L_setup + L_message exactly; with a
// window of one and a connection every N messages the run takes (iters / N) L_setup + iters
// L_message; the ledger's `setup` row holds the setups; a QP pool leaves the run as without
// setup. The receiver's H2D copy delays its application's completion but never the ACK.
#include <gtest/gtest.h>

#include <stdexcept>

#include "host/gpu.hpp"
#include "model/budget.hpp"
#include "model/connection.hpp"
#include "model/path.hpp"
#include "rdmasim/bandwidth.hpp"

using namespace rdmasim;

namespace {

BwConfig base(std::int64_t iters, int tx_depth) {
  BwConfig c;
  c.base.size = Bytes(8192);
  c.base.iters = iters;
  c.base.profile.nic.tx_jitter = Time::zero();
  c.base.record_samples = true;
  c.tx_depth = tx_depth;
  return c;
}

Time setup_time(const BwConfig& c) { return evaluate_path(build_setup_path(c.base), c.base.size, true).total(); }
Time message_time(const BwConfig& c) {
  return evaluate_path(build_acked_path(c.base, resolve(c.base), {}), c.base.size, true).total();
}
Time span(const BwResult& r) { return Time::ps(r.completed_ps.back() - r.posted_ps.front()); }

}  // namespace

TEST(BwConnection, ConnectPerMessagePaysTheSetupEveryMessage) {
  BwConfig c = base(20, 128);
  c.base.conn.reuse = 1;
  const BwResult r = run_bandwidth(c);
  const Time ls = setup_time(c), lm = message_time(c);
  EXPECT_EQ(r.invariant_violations, 0);
  EXPECT_EQ(r.completed, 20);
  EXPECT_EQ(r.connections, 20);
  EXPECT_EQ(r.setup, ls);
  // Each message's connection is set up after the previous one's message completed.
  EXPECT_EQ(span(r), (ls + lm) * 20);
  for (std::size_t i = 0; i < 20; ++i) EXPECT_EQ(r.completed_ps[i] - r.posted_ps[i], (ls + lm).count_ps());
  EXPECT_EQ(r.wqe_ledger_sum[Category::setup], ls * 20);
  EXPECT_EQ(r.wqe_ledger_sum.total(), (ls + lm) * 20);
  // Throughput reflects it: one message per L_setup + L_message.
  EXPECT_DOUBLE_EQ(r.bw_avg_bps, 8192.0 * 8 * 20 / (static_cast<double>(((ls + lm) * 20).count_ps()) / 1e12));
}

TEST(BwConnection, ReuseSpreadsTheSetupOverNMessages) {
  const BwConfig plain = base(20, 1);
  const Time ls = setup_time(plain), lm = message_time(plain);
  EXPECT_EQ(span(run_bandwidth(plain)), lm * 20);
  for (std::int64_t n : {2, 5, 20}) {
    SCOPED_TRACE(n);
    BwConfig c = plain;
    c.base.conn.reuse = n;
    const BwResult r = run_bandwidth(c);
    EXPECT_EQ(r.invariant_violations, 0);
    EXPECT_EQ(r.connections, 20 / n);
    EXPECT_EQ(span(r), ls * (20 / n) + lm * 20);
    EXPECT_EQ(r.wqe_ledger_sum[Category::setup], ls * (20 / n));
  }
}

TEST(BwConnection, AWindowStreamsTheConnectionsMessagesAfterItsSetup) {
  BwConfig c = base(64, 16);
  c.base.conn.reuse = 16;
  const BwResult r = run_bandwidth(c);
  const BwResult plain = run_bandwidth(base(16, 16));
  EXPECT_EQ(r.invariant_violations, 0);
  EXPECT_EQ(r.connections, 4);
  // Each connection: its setup, then the 16 messages stream exactly as a pre-connected run.
  const Time ls = setup_time(c);
  EXPECT_EQ(span(r), (ls + span(plain)) * 4);
  EXPECT_EQ(r.wqe_ledger_sum[Category::setup], ls * 4);
}

TEST(BwConnection, QpPoolKeepsSetupOutOfTheTimedLoop) {
  BwConfig c = base(50, 128);
  c.base.conn.pool = true;
  const BwResult r = run_bandwidth(c), plain = run_bandwidth(base(50, 128));
  EXPECT_EQ(r.connections, 0);
  EXPECT_EQ(r.setup, setup_time(c));
  EXPECT_EQ(r.completed_ps, plain.completed_ps);
  EXPECT_EQ(r.wqe_ledger_sum[Category::setup], Time::zero());
}

TEST(BwConnection, BadCombinationsAreOneClearError) {
  BwConfig c = base(10, 128);
  c.base.conn.reuse = 1;
  c.post_list = 4;
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);
  c = base(10, 128);
  c.base.conn.reuse = 1;
  c.base.test = TestKind::send;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "single-switch";
  c.rx_depth = 4;
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);  // each connection's first SEND has its own QP
}

TEST(BwConnection, OverAFabricEachMessagePaysTheRoutesSetup) {
  BwConfig c = base(10, 128);
  c.base.conn.reuse = 1;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "single-switch";
  const BwResult r = run_bandwidth(c);
  const FabricNetwork net(c.base);
  const Time ls = evaluate_path(build_setup_path(c.base, net.appender()), c.base.size, true).total();
  EXPECT_EQ(r.invariant_violations, 0);
  EXPECT_EQ(r.connections, 10);
  EXPECT_EQ(r.setup, ls);
  EXPECT_GT(ls, setup_time(base(10, 128)));  // a switch hop on each of the four MAD legs
  const Time lm = evaluate_path(build_acked_path(c.base, resolve(c.base), net.appender()), c.base.size, true).total();
  EXPECT_EQ(span(r), (ls + lm) * 10);
  EXPECT_EQ(r.wqe_ledger_sum[Category::setup], ls * 10);
}

// The staged GPU receiver: the NIC places the payload in a host buffer and acknowledges; the
// application's completion (poll, H2D copy on the GPU's copy engine) follows on its own.
TEST(BwReceiver, StagedH2dCopyDelaysTheReceiverNotTheAck) {
  BwConfig host = base(5, 1);
  host.base.size = Bytes(1 << 20);
  BwConfig gpu = host;
  gpu.base.gpu.mem[1] = MemKind::gpu;
  gpu.base.gpu.gpudirect = false;
  const BwResult h = run_bandwidth(host), g = run_bandwidth(gpu);
  EXPECT_EQ(g.invariant_violations, 0);
  EXPECT_EQ(g.completed_ps, h.completed_ps);  // the ACK does not wait for the copy
  EXPECT_EQ(h.rx_completed, 0);               // WRITE into host memory: nothing for the receiver to do
  ASSERT_EQ(g.rx_completed, 5);
  const Time copy = GpuCopyEngine(gpu.base.profile.gpu).copy_time(gpu.base.size);
  const Time engine = serialization_time(gpu.base.size, gpu.base.profile.gpu.copy_bw);  // the launch is no service
  EXPECT_EQ(g.rx_ledger_sum[Category::gpu], copy * 5);
  EXPECT_EQ(g.hosts[1].gpu_copy_busy, engine * 5);
  EXPECT_EQ(g.hosts[0].gpu_copy_busy, Time::zero());
  // The receiver's completion is the placement, the poll and the copy after it.
  const Ledger rx = evaluate_path(build_receive_path(gpu.base, resolve(gpu.base), true), gpu.base.size, true);
  EXPECT_EQ(rx[Category::gpu], copy);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_GT(g.rx_completed_ps[i] - g.posted_ps[i], copy.count_ps());
}

TEST(BwReceiver, ASlowCopyEngineBoundsTheReceiverOnly) {
  BwConfig host = base(40, 128);
  host.base.size = Bytes(1 << 20);
  BwConfig gpu = host;
  gpu.base.gpu.mem[1] = MemKind::gpu;
  gpu.base.gpu.gpudirect = false;
  gpu.base.profile.gpu.copy_bw = Rate::bytes_per_sec(5'000'000'000);  // below the link's 12.5 GB/s
  const BwResult h = run_bandwidth(host), g = run_bandwidth(gpu);
  EXPECT_EQ(g.completed_ps, h.completed_ps);
  ASSERT_EQ(g.rx_completed, 40);
  // Back to back on the copy engine, the launches overlapping the copies queued before them:
  // one receiver completion per copy's bytes.
  const Time engine = serialization_time(gpu.base.size, gpu.base.profile.gpu.copy_bw);
  for (std::size_t i = 20; i < 40; ++i) EXPECT_EQ(g.rx_completed_ps[i] - g.rx_completed_ps[i - 1], engine.count_ps());
  EXPECT_LT(g.rx_bw_avg_bps, 0.5 * g.bw_avg_bps);
  // The CPU accounting's window runs to the receiver's last completion, so it holds every copy.
  EXPECT_EQ(g.simulated, Time::ps(g.rx_completed_ps.back()));
  EXPECT_GT(g.simulated, Time::ps(g.completed_ps.back()));
  EXPECT_LE(g.hosts[1].gpu_copy_busy, g.simulated);
  EXPECT_EQ(h.simulated, Time::ps(h.completed_ps.back()));
  // Chunk-staged, the engine is as busy (the same spacing), but an unloaded message completes
  // one launch and its last chunk's copy after placement, not the whole message's copy.
  BwConfig piped = gpu;
  piped.base.gpu.staging_chunk = Bytes(65536);
  const BwResult p = run_bandwidth(piped);
  for (std::size_t i = 20; i < 40; ++i) EXPECT_EQ(p.rx_completed_ps[i] - p.rx_completed_ps[i - 1], engine.count_ps());
  EXPECT_EQ(p.hosts[1].gpu_copy_busy, g.hosts[1].gpu_copy_busy);
  const Ledger rx = evaluate_path(build_receive_path(piped.base, resolve(piped.base), false), piped.base.size, true);
  EXPECT_EQ(rx[Category::gpu], GpuCopyEngine(gpu.base.profile.gpu).copy_time(Bytes(65536)));
  // A message that is not a whole number of chunks ends with a shorter chunk: 1 MiB + 1000 B in
  // 64 KiB chunks leaves a 1000 B copy after placement, and the budget and the simulation agree.
  BwConfig ragged = piped;
  ragged.base.size = Bytes((1 << 20) + 1000);
  const Ledger tail = evaluate_path(build_receive_path(ragged.base, resolve(ragged.base), false), ragged.base.size, true);
  EXPECT_EQ(tail[Category::gpu], GpuCopyEngine(gpu.base.profile.gpu).copy_time(Bytes(1000)));
  ragged.base.iters = 5;
  ragged.tx_depth = 1;
  const BwResult rg = run_bandwidth(ragged);
  ASSERT_EQ(rg.rx_completed, 5);
  EXPECT_EQ(rg.rx_ledger_sum[Category::gpu], GpuCopyEngine(gpu.base.profile.gpu).copy_time(Bytes(1000)) * 5);
}
