// RNR NAK (sim/rc_connection.hpp): bw --test send over a switched topology with the
// responder's receive queue modelled (rx_depth receives, reposted recv_delay after each
// receive completion). A SEND finding no receive is answered with an RNR NAK; the requester
// waits rc.min_rnr_timer (the IBA code, verbs/rnr_timer.hpp) and resends, rc.rnr_retry times
// (7: forever), then the QP fails with RNR_RETRY_EXC_ERR. The wait is charged to `recovery`.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "pcapng_reader.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/exports.hpp"
#include "sim/rnr_timer.hpp"

using namespace rdmasim;

namespace {

BwConfig send_bw(std::int64_t iters, int tx_depth, int rx_depth, Time recv_delay) {
  BwConfig c;
  c.base.test = TestKind::send;
  c.base.size = Bytes(4096);
  c.base.iters = iters;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "single-switch";
  c.base.profile.nic.tx_jitter = Time::zero();
  c.base.record_samples = true;
  c.tx_depth = tx_depth;
  c.rx_depth = rx_depth;
  c.recv_delay = recv_delay;
  return c;
}

}  // namespace

TEST(RnrNak, EachSendAfterTheFirstWaitsOneRnrTimer) {
  BwConfig c = send_bw(5, 1, 1, Time::ms(1));
  c.base.profile.rc.min_rnr_timer = 14;  // 1.28 ms > the receiver's 1 ms: one retry suffices
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc);
  EXPECT_EQ(r.rc->status, "ok");
  EXPECT_EQ(r.invariant_violations, 0);
  EXPECT_EQ(r.completed, 5);
  EXPECT_EQ(r.rc->rnr_naks_sent, 4u);
  EXPECT_EQ(r.rc->rnr_naks, 4u);
  EXPECT_EQ(r.rc->retransmitted, 4u);  // each NAKed SEND's one packet, resent
  EXPECT_EQ(r.rc->naks, 0u);
  // Each later message took the first one's latency plus its recovery: the NAK's round trip
  // and the 1.28 ms wait.
  const std::int64_t first = r.completed_ps[0] - r.posted_ps[0];
  std::int64_t extra = 0;
  for (std::size_t i = 1; i < 5; ++i) extra += r.completed_ps[i] - r.posted_ps[i] - first;
  EXPECT_EQ(r.wqe_ledger_sum[Category::recovery].count_ps(), extra);
  const Time wait = verbs::rnr_timer_delay(14);
  EXPECT_EQ(wait, Time::us(1280));
  EXPECT_GT(Time::ps(extra), wait * 4);
  EXPECT_LT(Time::ps(extra), (wait + Time::us(10)) * 4);
  EXPECT_EQ(r.rx_completed, 5);
}

TEST(RnrNak, RnrRetryZeroFailsAtTheFirstNak) {
  BwConfig c = send_bw(5, 1, 1, Time::ms(1));
  c.base.profile.rc.rnr_retry = 0;
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc);
  EXPECT_EQ(r.rc->status, "RNR_RETRY_EXC_ERR");
  EXPECT_EQ(r.completed, 1);
  EXPECT_EQ(r.rc->rnr_naks_sent, 1u);
  EXPECT_EQ(r.rc->rnr_naks, 1u);
}

TEST(RnrNak, RetriesRnrRetryTimesThenFails) {
  BwConfig c = send_bw(5, 1, 1, Time::ms(100));
  c.base.profile.rc.min_rnr_timer = 1;  // 10 us
  c.base.profile.rc.rnr_retry = 2;
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc);
  EXPECT_EQ(r.rc->status, "RNR_RETRY_EXC_ERR");
  EXPECT_EQ(r.completed, 1);
  EXPECT_EQ(r.rc->rnr_naks_sent, 3u);  // the first NAK and one per retry
  EXPECT_EQ(r.rc->rnr_naks, 3u);
  EXPECT_EQ(r.rc->retransmitted, 2u);
}

TEST(RnrNak, RnrRetrySevenRetriesForever) {
  BwConfig c = send_bw(5, 1, 1, Time::us(200));
  c.base.profile.rc.min_rnr_timer = 1;  // 10 us: many retries per message
  c.base.profile.rc.rnr_retry = 7;
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc);
  EXPECT_EQ(r.rc->status, "ok");
  EXPECT_EQ(r.completed, 5);
  EXPECT_GT(r.rc->rnr_naks, 28u);  // more than 7 per message after the first
  EXPECT_EQ(r.rc->rnr_naks, r.rc->rnr_naks_sent);
  EXPECT_EQ(r.invariant_violations, 0);
}

TEST(RnrNak, EnoughReceivesMeanNoNak) {
  const BwResult deep = run_bandwidth(send_bw(64, 16, 64, Time::ms(10)));
  ASSERT_TRUE(deep.rc);
  EXPECT_EQ(deep.rc->status, "ok");
  EXPECT_EQ(deep.rc->rnr_naks_sent, 0u);
  EXPECT_EQ(deep.rc->retransmitted, 0u);
  EXPECT_EQ(deep.wqe_ledger_sum[Category::recovery], Time::zero());
  EXPECT_EQ(deep.rx_completed, 64);
}

TEST(RnrNak, AWindowDeeperThanTheReceiveQueueRecovers) {
  BwConfig c = send_bw(200, 32, 4, Time::us(5));
  c.base.profile.rc.min_rnr_timer = 1;
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc);
  EXPECT_EQ(r.rc->status, "ok");
  EXPECT_EQ(r.completed, 200);
  EXPECT_EQ(r.rx_completed, 200);
  EXPECT_GT(r.rc->rnr_naks, 0u);
  EXPECT_EQ(r.rc->rnr_naks, r.rc->rnr_naks_sent);
  EXPECT_EQ(r.invariant_violations, 0);
  EXPECT_GT(r.wqe_ledger_sum[Category::recovery], Time::zero());
  EXPECT_LT(r.bw_avg_bps, run_bandwidth(send_bw(200, 32, 0, Time::zero())).bw_avg_bps);
}

TEST(RnrNak, BadInputIsOneClearError) {
  BwConfig c = send_bw(5, 1, 1, Time::zero());
  c.base.test = TestKind::write;
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);  // WRITEs consume no receive
  c = send_bw(5, 1, 1, Time::zero());
  c.base.topology = LatTopology::back_to_back;
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);  // RNR is the fabric RC transport's
  c = send_bw(5, 1, 0, Time::us(5));
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);  // a delay without a receive queue
  c = send_bw(5, 1, 1, Time::zero());
  c.base.profile.rc.min_rnr_timer = 32;
  EXPECT_THROW(validate(c.base.profile), std::invalid_argument);
}

// In a capture an RNR NAK is an ACK frame whose AETH syndrome is 001 + the min_rnr_timer code.
TEST(RnrNak, CapturedAsAethRnrNakWithTheTimerCode) {
  namespace fs = std::filesystem;
  const fs::path p = fs::path(::testing::TempDir()) / ("rdmasim_" + std::to_string(::getpid()) + "_rnr.pcapng");
  ExportOptions o;
  o.pcap_path = p.string();
  Exports x(o);
  BwConfig c = send_bw(5, 1, 1, Time::ms(1));
  c.base.profile.rc.min_rnr_timer = 14;
  const BwResult r = run_bandwidth(c, &x);
  x.publish();
  const rdmasim::testing::Pcapng cap = rdmasim::testing::parse_pcapng(rdmasim::testing::read_bytes(p));
  fs::remove(p);
  std::uint64_t rnr = 0, acks = 0;
  for (const rdmasim::testing::PcapngPacket& f : cap.packets) {
    if (f.data.size() < 58 || f.data.at(42) != 0x11) continue;  // BTH opcode: RC Acknowledge
    if (f.data.at(54) == (0x20 | 14)) ++rnr;
    else if (f.data.at(54) == 0x1F) ++acks;
  }
  ASSERT_TRUE(r.rc);
  EXPECT_EQ(rnr, r.rc->rnr_naks);  // the client's port both ways sees each once
  EXPECT_EQ(rnr, 4u);
  EXPECT_EQ(acks, 5u);
}
