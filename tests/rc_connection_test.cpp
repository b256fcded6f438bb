// RC transport over the fabric: go-back-N after a single loss, a lost ACK recovered by a later
// cumulative ACK or by timeout and re-ACK, and a silent peer ending in RETRY_EXC_ERR.
#include "sim/rc_connection.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "fabric_faults.hpp"
#include "incast_rig.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;
using namespace rdmasim::testing;

namespace {

// One QP, h0 -> h1 through one switch: 64 KiB WRITEs of 16 packets at the 4096 MTU.
BwConfig one_qp(std::int64_t iters, int depth) {
  BwConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "single-switch";
  c.base.size = Bytes(65536);
  c.base.iters = iters;
  c.tx_depth = depth;
  return c;
}


}  // namespace

TEST(RcConnection, SingleLossIsOneGoBackN) {
  // Frame 50 from h0 (PSN 49, packet 2 of message 4) is lost at the switch.
  BwConfig c = one_qp(20, 4);
  c.base.fabric.faults.push_back(drop("h0", "sw0", {50}));
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc && r.fabric);
  const RcStats& s = *r.rc;
  EXPECT_EQ(s.status, "ok");
  EXPECT_EQ(r.completed, 20);
  EXPECT_EQ(s.sent, 20u * 16u);
  EXPECT_EQ(s.naks, 1u);
  EXPECT_EQ(s.timeouts, 0u);
  EXPECT_EQ(s.duplicates, 0u);
  // Go-back-N resends PSN 49 .. the last sent; every original after 49 reached the responder
  // before the resent 49 (one path, FIFO) and was discarded as out of sequence.
  EXPECT_GE(s.retransmitted, 2u);
  EXPECT_EQ(s.out_of_sequence, s.retransmitted - 1);
  EXPECT_EQ(s.retransmitted_bytes, s.retransmitted * 4096u);
  // Counters agree: the sender's cable carried every first transmission and every resend.
  EXPECT_EQ(tx_packets(*r.fabric, "h0->sw0"), s.sent + s.retransmitted);
  EXPECT_EQ(r.fabric->dropped, 1u);
  EXPECT_TRUE(r.fabric->conserved);
  EXPECT_EQ(r.invariant_violations, 0);  // every message's ledger still sums to its time
}

TEST(RcConnection, OutOfOrderPlacementResendsALostPacketAfterTheTimeout) {
  // The same loss with out-of-order placement: the responder places the packets after the hole,
  // and its ACKs acknowledge only up to the hole, so the requester keeps PSN 49's copy, times
  // out once and resends from it (go-back-N); the message with the hole completes then. (It
  // used to be acknowledged by the next message's ACK and never resent.)
  BwConfig c = one_qp(20, 4);
  c.base.fabric.faults.push_back(drop("h0", "sw0", {50}));
  c.base.profile.rc.ooo_placement = true;
  c.base.profile.rc.timeout = 8;  // 1.048576 ms
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc && r.fabric);
  const RcStats& s = *r.rc;
  EXPECT_EQ(s.status, "ok");
  EXPECT_EQ(r.completed, 20);
  EXPECT_EQ(s.naks, 0u);
  EXPECT_EQ(s.timeouts, 1u);
  EXPECT_EQ(s.out_of_sequence, 0u);
  EXPECT_GE(s.retransmitted, 1u);
  EXPECT_EQ(s.duplicates, s.retransmitted - 1);  // every resend but PSN 49 was placed already
  EXPECT_EQ(tx_packets(*r.fabric, "h0->sw0"), s.sent + s.retransmitted);
  EXPECT_EQ(r.fabric->dropped, 1u);
  EXPECT_EQ(r.invariant_violations, 0);
}

TEST(RcConnection, SelectiveRepeatResendsExactlyTheLostPacket) {
  // The same loss with selective repeat: every packet after the hole is placed and answered by a
  // NACK naming PSN 49; the first one makes the requester resend PSN 49 alone, once.
  BwConfig c = one_qp(20, 4);
  c.base.fabric.faults.push_back(drop("h0", "sw0", {50}));
  c.base.profile.rc.selective_repeat = true;
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc && r.fabric);
  const RcStats& s = *r.rc;
  EXPECT_EQ(s.status, "ok");
  EXPECT_EQ(s.recovery, "selective repeat");
  EXPECT_EQ(r.completed, 20);
  EXPECT_EQ(s.retransmitted, 1u);
  EXPECT_EQ(s.retransmitted_bytes, 4096u);
  EXPECT_EQ(s.timeouts, 0u);
  EXPECT_EQ(s.out_of_sequence, 0u);
  EXPECT_EQ(s.duplicates, 0u);
  EXPECT_GT(s.naks, 1u);  // one per packet placed after the hole until the resend filled it
  EXPECT_EQ(tx_packets(*r.fabric, "h0->sw0"), s.sent + 1);
  EXPECT_EQ(r.fabric->dropped, 1u);
  EXPECT_EQ(r.invariant_violations, 0);
}

TEST(RcConnection, SelectiveRepeatRecoversATailLossByTimeoutAndOneNack) {
  // A packet of the last message is lost and nothing follows it to draw a NACK: the timer
  // resends the oldest unacknowledged packet (the message's first, which had arrived); the
  // responder answers the duplicate with a NACK naming the lost one, which goes next.
  BwConfig c = one_qp(20, 4);
  c.base.fabric.faults.push_back(drop("h0", "sw0", {320}));
  c.base.profile.rc.selective_repeat = true;
  c.base.profile.rc.timeout = 8;
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc);
  EXPECT_EQ(r.completed, 20);
  EXPECT_EQ(r.rc->timeouts, 1u);
  EXPECT_EQ(r.rc->retransmitted, 2u);
  EXPECT_EQ(r.rc->duplicates, 1u);
  EXPECT_EQ(r.rc->naks, 1u);
  EXPECT_EQ(r.invariant_violations, 0);
}

TEST(RcConnection, MaxInflightCapsThePacketsUnacknowledged) {
  // 16 WRITEs of 16 packets may be outstanding; a cap of 20 packets holds the rest back until
  // ACKs free room (IRN's BDP cap), and every message still completes.
  BwConfig c = one_qp(100, 16);
  const BwResult free_run = run_bandwidth(c);
  c.base.profile.rc.max_inflight = 20;
  c.base.profile.rc.selective_repeat = true;
  const BwResult capped = run_bandwidth(c);
  ASSERT_TRUE(free_run.rc && capped.rc);
  EXPECT_GT(free_run.rc->max_unacked, 20u);
  EXPECT_EQ(capped.rc->max_unacked, 20u);
  EXPECT_EQ(capped.completed, 100);
  EXPECT_EQ(capped.rc->sent, 100u * 16u);
  EXPECT_EQ(capped.invariant_violations, 0);
}

TEST(RcConnection, SelectiveRepeatBeatsGoBackNUnderRandomLoss) {
  // 1e-3 loss per frame on every cable: go-back-N resends every packet in flight after a loss,
  // selective repeat only the lost ones.
  BwConfig c = one_qp(2000, 16);
  c.base.fabric.loss = 1e-3;
  const BwResult gbn = run_bandwidth(c);
  c.base.profile.rc.selective_repeat = true;
  const BwResult sr = run_bandwidth(c);
  ASSERT_TRUE(gbn.rc && sr.rc && gbn.fabric && sr.fabric);
  for (const BwResult* r : {&gbn, &sr}) {
    EXPECT_EQ(r->completed, 2000);
    EXPECT_EQ(r->rc->status, "ok");
    EXPECT_EQ(r->invariant_violations, 0);
    EXPECT_TRUE(r->fabric->conserved);
  }
  // Every frame the fabric dropped was a data packet, an ACK or a NACK: selective repeat resends
  // at most the data packets among them (a lost resend goes again).
  EXPECT_LE(sr.rc->retransmitted, sr.fabric->dropped);
  EXPECT_GT(sr.rc->retransmitted, 0u);
  EXPECT_GT(gbn.rc->retransmitted, 10 * sr.rc->retransmitted);
  EXPECT_GT(sr.bw_avg_bps, gbn.bw_avg_bps);
}

TEST(RcConnection, BurstDropsByArrivalTime) {
  // One-shot at 20 us: the first frame from h0 arriving at the switch then is lost: one go-back-N.
  BwConfig c = one_qp(40, 8);
  LinkFault one{"h0", "sw0", {}, 0, {}, {{Time::us(20), Time::us(20)}}};
  c.base.fabric.faults.push_back(one);
  BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc && r.fabric);
  EXPECT_EQ(r.rc->status, "ok");
  EXPECT_EQ(r.completed, 40);
  EXPECT_EQ(r.fabric->dropped, 1u);
  EXPECT_EQ(rx_errors(*r.fabric, "sw0->h0"), 1u);  // counted by the switch port that received it corrupted
  EXPECT_EQ(r.rc->naks, 1u);
  // A 10 us burst from 20 us: h0 sends back to back at line rate throughout (resends and new
  // packets alike), so the frames arriving in the window are 10 us / one frame's wire time.
  c.base.fabric.faults.back() = LinkFault{"h0", "sw0", {}, 0, {}, {{Time::us(20), Time::us(30)}}};
  r = run_bandwidth(c);
  ASSERT_TRUE(r.rc && r.fabric);
  EXPECT_EQ(r.rc->status, "ok");
  EXPECT_EQ(r.completed, 40);
  const double frame_us = static_cast<double>(r.wire_bytes_per_message.count()) / 16 * 8 / 100e3;
  const auto lost = static_cast<double>(rx_errors(*r.fabric, "sw0->h0"));
  EXPECT_GE(lost, std::floor(10 / frame_us));
  EXPECT_LE(lost, std::ceil(10 / frame_us));
  EXPECT_EQ(r.fabric->dropped, rx_errors(*r.fabric, "sw0->h0"));
  EXPECT_TRUE(r.fabric->conserved);
  EXPECT_EQ(r.invariant_violations, 0);
  // A window before any frame arrives or after the last loses nothing.
  c.base.fabric.faults.back() = LinkFault{"h0", "sw0", {}, 0, {}, {{Time::ps(0), Time::ps(1)}, {Time::ms(5000), Time::ms(6000)}}};
  r = run_bandwidth(c);
  EXPECT_EQ(r.fabric->dropped, 0u);
}

TEST(RcConnection, LostAckCoveredByTheNextCumulativeAck) {
  BwConfig c = one_qp(6, 4);
  c.base.fabric.faults.push_back(drop("sw0", "h0", {1}));  // the first message's ACK
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc);
  EXPECT_EQ(r.completed, 6);
  EXPECT_EQ(r.rc->acks_lost, 1u);
  EXPECT_EQ(r.rc->timeouts, 0u);
  EXPECT_EQ(r.rc->retransmitted, 0u);
  EXPECT_EQ(r.invariant_violations, 0);
}

TEST(RcConnection, LostLastAckRecoveredByTimeoutAndReAck) {
  BwConfig c = one_qp(5, 1);
  c.base.profile.rc.timeout = 8;  // 4.096 us x 2^8 = 1.048576 ms
  c.base.fabric.faults.push_back(drop("sw0", "h0", {1}));
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc);
  EXPECT_EQ(r.completed, 5);
  EXPECT_EQ(r.rc->acks_lost, 1u);
  EXPECT_EQ(r.rc->timeouts, 1u);
  EXPECT_EQ(r.rc->retransmitted, 16u);  // the whole unacknowledged message
  EXPECT_EQ(r.rc->duplicates, 16u);     // all already received; the first one re-ACKs
  EXPECT_GT(r.seconds, 1.048576e-3);    // one message waited a whole timeout
  EXPECT_EQ(r.invariant_violations, 0);
}

TEST(RcConnection, SilentPeerEndsInRetryExceeded) {
  // Every frame towards h1 is lost; after retry_cnt timeouts of 4.096 us x
  // 2^timeout the requester's QP goes to error with RETRY_EXC_ERR and nothing completes.
  for (int retry : {7, 3}) {
    BwConfig c = one_qp(20, 4);
    c.base.profile.rc.timeout = 10;
    c.base.profile.rc.retry_cnt = retry;
    c.base.fabric.faults.push_back(LinkFault{"h1", "sw0", {}, 1.0, {}, {}});
    const BwResult r = run_bandwidth(c);
    ASSERT_TRUE(r.rc);
    const RcStats& s = *r.rc;
    EXPECT_EQ(s.status, "RETRY_EXC_ERR");
    EXPECT_EQ(r.completed, 0);
    EXPECT_EQ(s.timeouts, static_cast<std::uint64_t>(retry));
    EXPECT_EQ(s.sent, 4u * 16u);  // the window: tx_depth messages
    EXPECT_EQ(s.retransmitted, static_cast<std::uint64_t>(retry) * s.sent);
    const double t_us = 4.096 * 1024;  // the timeout
    // First packet out after ~1.5 us of host and NIC work; the QP fails at the (retry+1)th expiry.
    EXPECT_GT(s.failed_at_us, (retry + 1) * t_us);
    EXPECT_LT(s.failed_at_us, (retry + 1) * t_us + 10.0);
  }
}

TEST(RcConnection, ReorderingWithoutOutOfOrderPlacementCostsGoBackN) {
  // Per-packet spraying of a permutation reorders; a classic RC responder NAKs every
  // reorder, a multipath NIC (out-of-order placement) places the packets and never resends.
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.size = Bytes(65536);
  c.base.iters = 20;
  c.tx_depth = 8;
  c.pattern = "permutation";
  c.base.fabric.routing = "spray";
  const TrafficResult strict = run_traffic(c);
  c.base.profile.rc.ooo_placement = true;
  const TrafficResult placed = run_traffic(c);
  EXPECT_GT(strict.naks, 0u);
  EXPECT_GT(strict.retransmitted, 0u);
  EXPECT_EQ(strict.out_of_order, 0u);  // in-order delivery: nothing reaches a merge out of order
  EXPECT_EQ(placed.naks, 0u);
  EXPECT_EQ(placed.retransmitted, 0u);
  EXPECT_GT(placed.out_of_order, 0u);
  for (const auto* t : {&strict, &placed}) {
    EXPECT_EQ(t->failed_qps, 0);
    for (const FlowResult& f : t->flows) EXPECT_EQ(f.completed, 20);
    EXPECT_TRUE(t->fabric.conserved);
  }
  EXPECT_LT(strict.aggregate_bps, 0.6 * placed.aggregate_bps);
}

TEST(RcConnection, DcqcnIncastConvergesFairWithAShortQueueAndFewerPauses) {
  // 16 -> 1 incast of 1 MiB WRITEs at 100 Gb/s, RoCE lossless with ECN.
  // DCQCN (CNPs on the marks) shares the bottleneck fairly in steady state, holds its queue
  // near the marking range instead of at the PFC threshold, and needs far fewer pauses.
  TrafficConfig c = rdmasim::testing::incast_16_to_1(60);
  const TrafficResult plain = run_traffic(c);
  c.base.fabric.cc = "dcqcn";
  const TrafficResult dcqcn = run_traffic(c);
  using rdmasim::testing::bottleneck;
  EXPECT_EQ(plain.cnps, 0u);
  EXPECT_GT(dcqcn.cnps, 0u);
  EXPECT_GE(dcqcn.jain_steady, 0.95);
  const double kmax = static_cast<double>(c.base.profile.sw.ecn_kmax.count());
  EXPECT_LT(bottleneck(dcqcn).mean_queue_bytes, kmax);          // near the marking range...
  EXPECT_GT(bottleneck(plain).mean_queue_bytes, 4 * kmax);      // ...where PFC alone sits far above it
  EXPECT_LT(dcqcn.fabric.pause_frames * 10, plain.fabric.pause_frames);
  for (const auto* r : {&plain, &dcqcn}) {
    EXPECT_EQ(r->fabric.lossless_drops, 0u);
    EXPECT_TRUE(r->fabric.conserved);
    EXPECT_EQ(r->retransmitted, 0u);
    for (const FlowResult& f : r->flows) EXPECT_EQ(f.completed, 60);
  }
}

TEST(RcConnection, PortCountersCountTheNaksAndCnpsEachPortTransmits) {
  BwConfig c = one_qp(20, 4);
  c.base.fabric.faults.push_back(drop("h0", "sw0", {50}));
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc && r.fabric);
  ASSERT_EQ(r.rc->naks, 1u);
  for (const PortStats& p : r.fabric->ports) {  // the one NAK crosses h1 -> sw0 -> h0
    EXPECT_EQ(p.naks, p.port == "h1->sw0" || p.port == "sw0->h0" ? 1u : 0u) << p.port;
    EXPECT_EQ(p.cnps, 0u) << p.port;
  }
  TrafficConfig t;  // a 4 -> 1 incast with DCQCN: h0 sends the CNPs, each sender's port carries its own
  t.base.topology = LatTopology::fabric;
  t.base.fabric.topology = "single-switch";
  t.base.fabric.hosts = 5;
  t.base.fabric.cc = "dcqcn";
  t.base.size = Bytes(65536);
  t.base.iters = 40;
  t.pattern = "incast";
  t.incast_senders = 4;
  t.tx_depth = 8;
  const TrafficResult x = run_traffic(t);
  ASSERT_GT(x.cnps, 0u);
  ASSERT_EQ(x.fabric.dropped, 0u);
  std::uint64_t to_senders = 0;
  for (const PortStats& p : x.fabric.ports) {
    if (p.port == "h0->sw0") {
      EXPECT_EQ(p.cnps, x.cnps);
    }
    for (const FlowResult& f : x.flows) {
      if (p.port == "sw0->h" + std::to_string(f.src)) {
        EXPECT_EQ(p.cnps, f.rc.cnps) << p.port;
      }
    }
    if (p.port.rfind("sw0->h", 0) == 0) to_senders += p.cnps;
    EXPECT_EQ(p.naks, 0u) << p.port;
  }
  EXPECT_EQ(to_senders, x.cnps);
}

TEST(RcConnection, ALongMessageIsAcknowledgedEveryAckEveryPackets) {
  // 1 MiB WRITEs are 256 packets: AckReq on packets 64, 128 and 192 and on the last, so four
  // ACK frames per message cross back (rc.ack_every 100: packets 100, 200 and the last; 0: the
  // last only).
  for (const auto& [every, acks] : {std::pair{64, 4u}, {100, 3u}, {0, 1u}}) {
    BwConfig c = one_qp(5, 1);
    c.base.size = Bytes(1 << 20);
    c.base.profile.rc.ack_every = every;
    const BwResult r = run_bandwidth(c);
    ASSERT_TRUE(r.rc && r.fabric);
    EXPECT_EQ(r.completed, 5);
    EXPECT_EQ(tx_packets(*r.fabric, "h0->sw0"), 5u * 256u) << every;
    EXPECT_EQ(tx_packets(*r.fabric, "h1->sw0"), 5u * acks) << every;
    EXPECT_EQ(r.rc->naks, 0u) << every;  // an ACK frame is not counted as a NAK
    EXPECT_EQ(r.invariant_violations, 0);
  }
}

TEST(RcConnection, ACapOnPacketsInFlightAsksForAcksBeforeTheWindowFills) {
  // rc.max_inflight 32 below rc.ack_every 64: the requester asks every 16 packets (half the
  // cap), so a 256-packet message keeps flowing (asking only every 64th, 32 packets out would
  // wait for an ACK that never comes, and the QP would time out).
  BwConfig c = one_qp(5, 1);
  c.base.size = Bytes(1 << 20);
  c.base.profile.rc.max_inflight = 32;
  c.base.profile.rc.timeout = 8;
  EXPECT_EQ(c.base.profile.rc.ack_interval(), 16);
  const BwResult r = run_bandwidth(c);
  ASSERT_TRUE(r.rc && r.fabric);
  EXPECT_EQ(r.completed, 5);
  EXPECT_EQ(r.rc->timeouts, 0u);
  EXPECT_EQ(r.rc->max_unacked, 32u);
  EXPECT_EQ(tx_packets(*r.fabric, "h1->sw0"), 5u * 16u);  // 15 requests within a message and its last
  c.base.profile.rc.ack_every = 8;  // asking more often than half the cap: every 8
  EXPECT_EQ(c.base.profile.rc.ack_interval(), 8);
  c.base.profile.rc.ack_every = 0;  // never within a message: still before the window fills
  EXPECT_EQ(c.base.profile.rc.ack_interval(), 16);
  c.base.profile.rc.max_inflight = 0;
  EXPECT_EQ(c.base.profile.rc.ack_interval(), 0);
}

TEST(RcConnection, AMessageLongerThanTheTimeoutMakesProgressOnItsAcks) {
  // 16 MiB takes 1.4 ms at 100 Gb/s, longer than the 4.096 us x 2^8 = 1.05 ms timeout: ACKs
  // every 64 packets keep restarting the timer; with the last packet's ACK alone the timer
  // expires mid-message, every retry too, and the QP fails.
  BwConfig c = one_qp(5, 1);
  c.base.size = Bytes(16 << 20);
  c.base.profile.rc.timeout = 8;
  const BwResult ok = run_bandwidth(c);
  ASSERT_TRUE(ok.rc);
  EXPECT_EQ(ok.completed, 5);
  EXPECT_EQ(ok.rc->timeouts, 0u);
  EXPECT_EQ(ok.rc->retransmitted, 0u);
  c.base.profile.rc.ack_every = 0;
  const BwResult failed = run_bandwidth(c);
  ASSERT_TRUE(failed.rc);
  EXPECT_EQ(failed.rc->status, "RETRY_EXC_ERR");
  EXPECT_EQ(failed.rc->timeouts, 7u);
  EXPECT_EQ(failed.completed, 0);
}
