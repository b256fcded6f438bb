// RcConnection: the RC (reliable connected) transport of one QP pair across the packet-level
// fabric — the requester's send side and the responder's receive side of one direction of
// data, with its acknowledgements (IB spec ch. 9).
//
// Requester: every data packet gets the next PSN and a retransmission copy (kept until
// acknowledged). An ACK (the path's per-message ACK token, cumulative) frees the copies up to
// the message's last PSN, and so does, up to its PSN, the ACK frame the responder sends for
// every rc.ack_every-th packet of a message (RcParams::ack_interval: the requester's AckReq),
// so a long message makes progress before its end; a NAK (sequence error) frees those before its PSN and resends every
// packet from that PSN to the last sent (go-back-N); no progress for 4.096 us x 2^timeout
// resends from the oldest unacknowledged PSN, and after `retry_cnt` such timeouts the QP goes
// to the error state (IBV_WC_RETRY_EXC_ERR): outstanding work is flushed, nothing completes.
// A go-back rewinds the send queue: resends go to the NIC one at a time (the next when the
// previous starts on the wire) with new packets behind them, so a later NAK or timeout
// supersedes the resends not yet handed over; packets already in the NIC's transmit window
// (nic.tx_window) still go out and are discarded by the responder.
// With a rate control (rdmasim/rate_control.hpp: DCQCN, ...) the requester paces its packets at
// the rate it gives, and tells it of every packet sent, CNP received and ACK (with the CE marks
// the responder counted on the acknowledged message).
//
// Responder: accepts packets in PSN order. A later PSN is a sequence error: discarded, and
// answered with one NAK carrying the expected PSN until that PSN arrives; an earlier PSN is a
// duplicate: discarded. When the ACK of a message was lost, the requester (told by the fabric)
// marks the first packet of each resend of that message; the responder answers that duplicate
// with a cumulative ACK, which completes the message (its ACK acknowledged again: IBA C9-105).
// What the responder knows travels in packets only, so the two sides may run in different LPs
// of a partitioned run.
// With out-of-order placement (rc.ooo_placement) it accepts any new PSN and recovers losses by
// timeout: a message's ACK acknowledges only up to the first PSN still missing, so the
// requester keeps that packet's copy, times out and resends it. For a rate control that uses CNPs (DCQCN) it sends a CNP for a CE-marked packet at
// most once per dcqcn.cnp_interval; it counts every accepted CE-marked packet on its message.
//
// Selective repeat (rc.selective_repeat; IRN, Mittal et al., SIGCOMM'18): the responder places
// out-of-order packets (as rc.ooo_placement) and answers each one that arrives after a gap
// with a NACK naming the first missing PSN and the PSN it just received. The requester frees
// what the NACK acknowledges, remembers the received PSN, and resends each PSN below it that is
// neither reported received nor resent already (once per loss). A timeout resends the oldest
// unacknowledged PSN; the responder answers a duplicate with a NACK too, naming the first PSN
// it misses, which the requester resends if it was sent before that timeout (else it is still
// on its way). rc.max_inflight caps the packets unacknowledged at once (IRN's BDP cap): new
// packets wait for acknowledgements; resends are not held. A window-based rate control
// (RateControl::window_bytes: HPCC, Swift) caps the payload bytes unacknowledged the same way.
//
// Ledger: a resent packet continues its copy's ledger (accounted up to its first injection)
// and charges the time until it is resent to `recovery`; a pacing wait is `queue`; a lost ACK
// completed by a later ACK charges its wait to `recovery`; so do the RNR wait of the
// resent packets and new packets held behind it. So the ledger of every
// completed message still sums to its end-to-end time.
// Several paths may share one RcConnection (a verbs QP's WRITE, SEND and inline requests take
// different paths but one PSN space): each packet travels its own route's network stages.
// An application on the ends (RcEndpoint: the simulated verbs layer) decides whether the
// responder's QP accepts packets at all and whether a message finds a posted receive, and is
// told when the requester's QP fails; close() ends the connection without telling it.
// Invariants: copies held == PSNs sent and not yet acknowledged; the responder delivers each
// PSN exactly once, in order unless out-of-order placement is on.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "rdmasim/profile.hpp"
#include "rdmasim/rc_stats.hpp"
#include "sim/telemetry_sink.hpp"
#include "sim/copy_log.hpp"
#include "rdmasim/rate_control.hpp"
#include "sim/net_transport.hpp"
#include "sim/stage.hpp"

namespace rdmasim {

class NetworkStage;

struct RcCounters {
  std::uint64_t sent = 0;              // data packets sent the first time
  std::uint64_t retransmitted = 0;     // data packets sent again (go-back-N)
  std::uint64_t retransmitted_bytes = 0;  // their payload bytes
  std::uint64_t timeouts = 0;          // retransmission timer expiries that resent
  std::uint64_t naks_sent = 0, naks_received = 0;
  std::uint64_t out_of_sequence = 0;   // data packets the responder discarded (later PSN)
  std::uint64_t duplicates = 0;        // data packets the responder discarded (already received)
  std::uint64_t acks_lost = 0;         // message ACKs the fabric dropped
  std::uint64_t cnps_sent = 0, cnps_received = 0;
  std::uint64_t rnr_naks_sent = 0, rnr_naks_received = 0;
  std::uint64_t rnr_discarded = 0;     // data packets the responder discarded behind an RNR NAK
  std::uint64_t not_ready = 0;         // data packets dropped by a responder QP not ready (RcEndpoint)
  std::uint64_t max_unacked = 0;       // the most packets unacknowledged at once
};

enum class QpStatus : std::uint8_t { ok, retry_exc_err, rnr_retry_exc_err, closed };
std::string_view to_string(QpStatus s);  // "ok", "RETRY_EXC_ERR", "RNR_RETRY_EXC_ERR", "closed"

/// The application on the two ends of an RC connection (the simulated verbs layer).
class RcEndpoint {
 public:
  /// Responder: whether its QP accepts packets now. A QP in RESET, INIT or ERR (or gone) drops
  /// them silently, and the requester times out.
  virtual bool responder_ready() = 0;
  /// Responder: message `m`'s first packet arrived in sequence. False: it needs a receive and
  /// none is free (RNR NAK); true: it may go on (and holds its receive from now on).
  virtual bool take_receive(Message& m) = 0;
  /// Responder: message `m`'s first packet arrived again (a resend of a request executed
  /// already, whose ACK was not lost): a READ or atomic is answered again.
  virtual void duplicate(Message& m) = 0;
  /// Requester: the QP went to the error state (status `why`): its outstanding work fails.
  virtual void failed(QpStatus why) = 0;

 protected:
  ~RcEndpoint() = default;
};

struct RcOptions {
  RcParams rc;
  const RateControlSpec* cc = nullptr;  // congestion control (null or "none": line rate)
  const Profile* profile = nullptr;      // the parameters it reads (its CNP interval and class)
  Rate line{};                       // the requester's link rate (the rate control's maximum)
  Bytes ack_wire{};                  // wire bytes of an ACK/NAK frame
  Bytes cnp_wire{};                  // wire bytes of a CNP
  std::uint32_t requester_qp = 0;    // DestQP of frames to the requester (captures)
  RcEndpoint* endpoint = nullptr;    // the application on the ends (null: lat/bw's workloads)
};

class RcConnection final : public EventHandler, public TxPacer, public NetTransport, public TelemetrySink {
 public:
  RcConnection(SimContext& ctx, const RcOptions& o) : RcConnection(ctx, ctx, o) {}
  /// The requester's side runs in `requester` (its timers, copies and pacing), the responder's
  /// in `responder` (what it accepts, discards and answers): the contexts of the two hosts'
  /// logical processes in a partitioned run, whose sides meet only through the fabric.
  RcConnection(SimContext& requester, SimContext& responder, const RcOptions& o);
  ~RcConnection();
  RcConnection(const RcConnection&) = delete;
  RcConnection& operator=(const RcConnection&) = delete;

  /// A path's ACK-direction network stage (it calls the methods below, as its data direction's
  /// stage does): the first one bound also carries NAKs and CNPs.
  /// Whether its rate control reads the switches' in-band telemetry (the path then asks the
  /// fabric to stamp its data packets).
  bool wants_telemetry() const { return telemetry_; }
  void hop(std::uint32_t psn, const HopTelemetry& h) override;
  void bind_ack(NetworkStage& ack) {
    if (!ack_) ack_ = &ack;
  }
  /// Ends the connection (its QP left RTS): nothing more is sent, timers do nothing.
  void close();
  /// The requester received the response to `request` (a READ or atomic whose last PSN is
  /// `last`): it acknowledges every PSN up to `last`, as an ACK would.
  void answered(Message& request, std::uint32_t last);

  // Requester.
  void send(Packet& p) override;         // a data packet leaves the requester's NIC
  void ack_arrived(Packet& p) override;  // an ACK token, NAK or CNP reached the requester
  void ack_dropped(Packet& p) override;  // the fabric dropped one of them
  // Responder.
  void data_arrived(Packet& p) override;
  void data_dropped(Packet& p) override;
  void send_ack(Packet& token) override;  // the responder acknowledges a message (the path's ACK token)
  /// Models the responder's receive queue with `posted` receives (SEND): see above.
  void set_receive_queue(std::int64_t posted);
  /// The responder's application posts one more receive.
  void post_receive() { ++receives_; }
  std::int64_t receives_posted() const { return receives_; }

  void on_event(std::uint64_t arg) override;
  /// A resend started on the requester's wire: the next one may go to the NIC.
  void transmitting(const Packet& p) override;

  /// Nothing of this connection is left to happen on its side: nothing unacknowledged, queued
  /// or waiting, and no timer that would act (a pending retransmission timer with nothing to
  /// resend is dropped if the connection is destroyed). With no packet of its flows in the
  /// fabric either, destroying it changes nothing in the simulation.
  bool quiescent() const;
  const RcCounters& counters() const { return c_; }
  QpStatus status() const { return status_; }
  /// When the QP went to the error state (status() != ok).
  Time failed_at() const { return failed_at_; }
  /// Copies held for retransmission (PSNs sent, not yet acknowledged).
  std::size_t unacked() const { return unacked_; }
  /// The reaction point (nullptr without DCQCN).
  Time timeout() const { return timeout_; }
  /// The user-facing summary (rdmasim/rc_stats.hpp).
  RcStats stats() const;
  void set_requester_qp(std::uint32_t qp) {
    for (Message& m : control_msg_) m.dest_qp = qp;
  }

 private:
  enum Control : std::int32_t { kNak = 1, kCnp = 2, kRnrNak = 3, kSack = 4, kAck = 5 };
  // A kAck's `sack` word: its packet's CE mark (0 or 1), or this for the answer to a duplicate,
  // which tells the rate control nothing (no packet of its own, so no RTT or mark).
  static constexpr std::uint32_t kDuplicateAck = 2;
  // A resent data packet's `sack` word: its message's ACK was lost (the requester heard so from
  // the fabric), so the responder, to whom it is a duplicate, acknowledges again.
  static constexpr std::uint32_t kAckLost = 1;
  /// Whether the ACK of message `m` is among the lost ones.
  bool ack_lost(const Message& m) const;
  enum Timer : std::uint64_t { kRetransmit = 1, kPacer = 2, kRnr = 3 };

  Packet& clone(const Packet& p);
  void copy_for_retransmit(const Packet& p);
  void transmit(Packet& p, bool fresh);
  void pump();
  void go_back(std::uint32_t from);
  // Queues a resend of each copy with a PSN in [from, below) (selective: only those neither
  // reported nor resent, which it marks resent) and restarts the retransmission timer.
  void resend_copies(std::uint32_t from, std::uint32_t below, bool selective);
  // Selective repeat.
  void sack_arrived(std::uint32_t missing, std::uint32_t received);
  void resend_unreported(std::uint32_t from, std::uint32_t below);  // every PSN in [from, below) not reported or resent
  std::uint8_t& sr_flags(std::uint32_t psn);  // kReported | kResent of an unacknowledged PSN
  void acknowledge(std::uint32_t last);
  void arm_timer();
  void fail(QpStatus why = QpStatus::retry_exc_err);
  void stop(QpStatus why);  // drops every copy and queued packet
  bool take_receive(Message& m);
  bool window_limited() const { return cc_ && cc_->window_bytes() > 0; }
  bool capped() const {
    if (o_.rc.max_inflight > 0 && unacked_ >= static_cast<std::size_t>(o_.rc.max_inflight)) return true;
    return unacked_ > 0 && window_limited() && unacked_bytes_ >= cc_->window_bytes();
  }
  void note_timer();  // keeps SimContext::idle_events: counts the armed timer while it is useless
  void rnr_nak_arrived(std::uint32_t psn);
  void complete_lost_acks(std::uint32_t before);
  void send_control(Control kind, std::uint32_t psn, std::uint32_t sack = 0);
  void discard(Packet& p);
  void release(Packet& p);  // back to the pool, unpinning its message if it is a copy or resend
  void release_at_responder(Packet& p);  // the same, on the responder's side
  bool seen(std::uint32_t psn) const;
  void mark_seen(std::uint32_t psn);

  SimContext& ctx_;   // the requester's
  SimContext& rctx_;  // the responder's
  RcOptions o_;
  NetworkStage* ack_ = nullptr;  // carries NAKs and CNPs
  Time timeout_;
  std::unique_ptr<RateControl> cc_;  // null: no pacing
  bool cnps_ = false;                // the responder sends CNPs for CE marks
  bool telemetry_ = false;           // the rate control reads the switches' telemetry (HPCC)
  bool per_packet_ = false;          // the responder ACKs every packet (telemetry, or a window: HPCC, Swift)
  // Send times (and telemetry) of the packets in flight when every packet is acknowledged, one
  // per PSN from the oldest unacknowledged (popped by the ACK that echoes it or a later one):
  // the side table that keeps Packet unchanged.
  std::deque<PathTelemetry> int_;
  /// The telemetry of `psn` for its ACK (older entries dropped; null if none was recorded).
  const PathTelemetry* telemetry_of(std::uint32_t psn);
  /// The record of `psn` (its send time; its hops with telemetry), older ones dropped; null if none.
  const PathTelemetry* record_of(std::uint32_t psn);
  Time cnp_interval_{};
  int cnp_tc_ = -1;
  RcCounters c_;
  QpStatus status_ = QpStatus::ok;
  Time failed_at_{};

  // Requester.
  std::uint32_t snd_nxt_ = 0;
  CopyLog copies_;  // retransmission copies in PSN order, compactly coded (sim/copy_log.hpp)
  std::size_t unacked_ = 0;
  std::int64_t unacked_bytes_ = 0;  // their payload (a window-based rate control's bytes in flight)
  std::uint32_t acked_below_ = 0;  // every PSN below was acknowledged (copies of unanswered READs may stay)
  bool ooo_ = false;               // the responder places out-of-order packets (ooo_placement or selective repeat)
  static constexpr std::uint8_t kReported = 1, kResent = 2;
  std::vector<std::uint8_t> sr_;   // selective repeat: flags per unacknowledged PSN (a ring, power of two)
  std::uint32_t probe_below_ = 0;  // selective repeat: snd_nxt_ when the last timeout resent
  int retries_ = 0;
  Time deadline_{};
  bool timer_armed_ = false;
  bool timer_idle_ = false;  // counted in SimContext::idle_events
  // Packets waiting to go to the NIC: resends first (one at a time in the NIC, so a later
  // go-back rewinds the rest), then new packets (behind resends, or paced by DCQCN).
  Packet* resend_head_ = nullptr;
  Packet* resend_tail_ = nullptr;
  Packet* new_head_ = nullptr;
  Packet* new_tail_ = nullptr;
  Time next_tx_{};
  bool pacer_armed_ = false;
  Time rnr_wait_{}, rnr_until_{};  // an RNR wait: nothing is sent before rnr_until_
  bool rnr_waiting_ = false;
  std::uint32_t rnr_psn_ = 0;      // the PSN resent when it ends
  int rnr_tries_ = 0;
  bool resend_in_nic_ = false;  // a resend handed to the NIC that has not started on the wire
  // ACK tokens the fabric dropped, in order (completed by a later cumulative ACK).
  Packet* lost_head_ = nullptr;
  Packet* lost_tail_ = nullptr;

  // Responder.
  std::uint32_t rcv_nxt_ = 0;
  bool nak_pending_ = false;
  std::vector<std::uint8_t> ooo_seen_;  // out-of-order placement: PSNs >= rcv_nxt received (ring)
  Time last_cnp_{};
  bool cnp_sent_ = false;
  bool rq_modelled_ = false;
  std::int64_t receives_ = 0;    // receives posted and not yet consumed
  bool rnr_pending_ = false;     // an RNR NAK for rcv_nxt_ is outstanding: later PSNs are dropped
  EventRelay::Slot slot_;  // its timers go through ctx_.relay, so it may be destroyed with one pending
  Message control_msg_[6];  // the wire identity of NAKs, CNPs, RNR NAKs, selective NACKs and packet ACKs (captures)
};

}  // namespace rdmasim
