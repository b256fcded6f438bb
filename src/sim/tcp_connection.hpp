// TcpConnection: packet-level kernel TCP of one socket pair across the fabric — the sender's
// segments, congestion window and loss recovery, and the receiver's reassembly and ACKs, for
// one direction of data (its ACKs travel the reverse flow). RFC 5681 / 6582 / 6298 / 8257.
//
// Sender: every segment the kernel's segmentation hands to the NIC gets the next sequence
// number (counted in segments: the path cuts messages at tcp.mss) and a retransmission copy,
// kept until cumulatively acknowledged. At most min(cwnd, rwnd) segments are in flight; the
// rest wait in the send queue (charged to `queue`). cwnd starts at tcp.initial_cwnd; slow start
// adds one segment per segment acknowledged (so it doubles per RTT, delayed ACKs included:
// appropriate byte counting), congestion avoidance adds acked/cwnd (one segment per RTT).
// tcp.dupack_threshold duplicate ACKs: fast retransmit of the first unacknowledged segment,
// ssthresh = max(flight/2, 2), cwnd = ssthresh + 3, fast recovery (NewReno): each further
// duplicate inflates cwnd by one, a partial ACK resends the next hole and deflates, the ACK
// covering `recover` (the highest sequence sent at entry) ends it with cwnd = ssthresh.
// A lost resend: a duplicate ACK echoes the timestamp of the segment that caused it, and one
// caused by a segment sent after the resend (the path is FIFO) proves the resend lost — it is
// resent again at once (what Linux's RACK learns from SACK), else only the RTO would repair it.
// Limited transmit (RFC 3042): the first two duplicate ACKs each let one new segment out.
// RTO (RFC 6298): srtt/rttvar sampled by every ACK of new data from the timestamp it echoes
// (RFC 7323 RTTM: the MSS assumes the timestamps option; a resend carries its own timestamp,
// so no Karn ambiguity), RTO = max(tcp.min_rto, srtt + 4 rttvar), tcp.initial_rto before the
// first sample, and a sample ends the backoff; on expiry
// ssthresh = max(flight/2, 2), cwnd = 1, the RTO doubles (up to tcp.max_rto) and the sender
// goes back to the first unacknowledged segment, resending in slow start (no SACK).
// Congestion control (rdmasim/tcp_cc.hpp, `cc`): a registered control reacts to the ACKs after
// NewReno (DCTCP: src/cc/dctcp.hpp). With an ECN-capable control the fabric's RED/ECN marks
// segments CE and the receiver echoes ECE on its ACKs (an immediate ACK whenever the CE state
// of the arriving segments changes, so the echo is exact); with reno marks are ignored.
//
// Receiver: accepts the next sequence and hands it on its route; a later one waits in the
// out-of-order queue (the wait is charged to `recovery`) and is answered by an immediate
// duplicate ACK; an earlier one is a duplicate, discarded and acknowledged again. In-order
// segments are acknowledged every tcp.delayed_ack segments, at the latest
// tcp.delayed_ack_timeout after the first unacknowledged one, and at once for the last segment
// of a message (PSH) and for a segment that fills a hole. ACKs are 64 B frames injected by the
// receiving NIC; the kernel's per-ACK processing is not charged (its per-segment receive and
// transmit costs are the path's stages, paid once per segment before the window: a resend
// reuses them).
//
// Ledger: a resent segment continues its copy's ledger and charges the time until it is resent
// to `recovery`; a wait in the out-of-order queue is `recovery`, a wait for the window `queue`.
// Invariants: copies held == sequences sent and not yet acknowledged; the receiver delivers
// every sequence exactly once, in order (delivered_bytes counts their payload).
#pragma once

#include <cstdint>

#include "rdmasim/profile.hpp"
#include <memory>

#include "rdmasim/latency.hpp"
#include "rdmasim/tcp_cc.hpp"
#include "rdmasim/tcp_stats.hpp"
#include "sim/net_transport.hpp"
#include "sim/stage.hpp"

namespace rdmasim {

class NetworkStage;

struct TcpOptions {
  TcpParams tcp;
  const TcpCcSpec* cc = nullptr;  // null: reno
  Bytes ack_wire{};  // wire bytes of a pure ACK
};

/// Optional observer of the sender's window (tests, traces): told after every change of cwnd.
class TcpWindowObserver {
 public:
  virtual void cwnd_changed(Time now, double cwnd, std::uint32_t snd_una) = 0;

 protected:
  ~TcpWindowObserver() = default;
};

class TcpConnection final : public EventHandler, public NetTransport {
 public:
  TcpConnection(SimContext& ctx, const TcpOptions& o);
  TcpConnection(const TcpConnection&) = delete;
  TcpConnection& operator=(const TcpConnection&) = delete;
  ~TcpConnection();

  /// The network stages of the data direction and of its ACKs (the reverse flow).
  void bind(NetworkStage& data, NetworkStage& ack);
  void observe(TcpWindowObserver* o) { observer_ = o; }

  // Sender.
  void send(Packet& p) override;
  void ack_arrived(Packet& p) override;
  void ack_dropped(Packet& p) override;
  // Receiver.
  void data_arrived(Packet& p) override;
  void data_dropped(Packet& p) override;
  void send_ack(Packet& token) override;  // not on a TCP route

  void on_event(std::uint64_t arg) override;

  TcpStats stats() const;
  const TcpStats& counters() const { return c_; }
  double cwnd() const { return cwnd_; }
  double ssthresh() const { return ssthresh_; }
  Time rto() const { return rto_; }
  double alpha() const { return cc_ ? cc_->alpha() : 0.0; }
  /// Copies held for retransmission (sequences sent, not yet acknowledged).
  std::uint32_t unacked() const { return snd_max_ - snd_una_; }
  std::uint32_t delivered() const { return rcv_nxt_; }

 private:
  enum Timer : std::uint64_t { kRto = 1, kDelack = 2 };
  enum AckFlag : std::int32_t { kAck = 1, kEce = 2 };

  Packet& clone(const Packet& p);
  void release(Packet& p);
  void pump();
  void transmit_fresh(Packet& p);
  void resend(Packet& copy);
  void acknowledge(std::uint32_t ack);
  void on_new_ack(std::uint32_t ack, bool ece);
  void on_dup_ack(Time echo);
  void congestion_control(std::uint32_t acked, bool ece);
  void timeout();
  void arm_rto();
  void rtt_sample(Time r);
  double window() const;
  double flight_half() const;
  void changed();
  // Receiver.
  void ack_now(Time echo);
  void deliver(Packet& p);

  SimContext& ctx_;
  TcpOptions o_;
  NetworkStage* data_ = nullptr;
  NetworkStage* ack_ = nullptr;
  TcpWindowObserver* observer_ = nullptr;
  TcpStats c_;
  double rwnd_segments_;

  // Sender.
  std::uint32_t snd_una_ = 0, snd_nxt_ = 0, snd_max_ = 0;
  double cwnd_, ssthresh_ = 1e9;
  int dupacks_ = 0;
  bool in_recovery_ = false;
  std::uint32_t recover_ = 0;          // fast recovery ends when this is acknowledged
  Time rtx_time_{};                    // when the first unacknowledged segment was last resent
  Packet* copies_head_ = nullptr;      // retransmission copies in sequence order
  Packet* copies_tail_ = nullptr;
  Packet* cursor_ = nullptr;           // the copy of snd_nxt_ while snd_nxt_ < snd_max_ (after an RTO)
  Packet* queue_head_ = nullptr;       // segments waiting for the window
  Packet* queue_tail_ = nullptr;
  Time srtt_{}, rttvar_{}, rto_;
  bool have_rtt_ = false;
  int limited_ = 0;                    // limited transmit: segments allowed past cwnd on dup ACKs 1 and 2
  Time deadline_{};
  bool rto_armed_ = false;
  Time rto_event_{};                   // when the armed expiry fires (earlier ones are stale)
  std::unique_ptr<TcpCongestionControl> cc_;  // null: NewReno alone
  bool ecn_ = false;                   // ECN-capable segments, exact CE echo

  // Receiver.
  std::uint32_t rcv_nxt_ = 0;
  Packet* ofo_head_ = nullptr;         // out-of-order queue, sequence order
  Packet* ofo_tail_ = nullptr;
  int pending_acks_ = 0;               // in-order segments not yet acknowledged
  bool ce_state_ = false;              // ECN receiver: CE of the last segment
  Time ts_recent_{};                   // the timestamp the next ACK echoes
  Time delack_deadline_{};
  bool delack_armed_ = false;
  Message ack_msg_;                    // the wire identity of ACKs (captures)
};

}  // namespace rdmasim
