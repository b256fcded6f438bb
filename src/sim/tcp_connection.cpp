#include "sim/tcp_connection.hpp"

#include <algorithm>
#include <stdexcept>

#include "net/wire_format.hpp"
#include "sim/packet_queue.hpp"
#include "sim/stages.hpp"

namespace rdmasim {

TcpConnection::TcpConnection(SimContext& ctx, const TcpOptions& o)
    : ctx_(ctx), o_(o), cwnd_(static_cast<double>(o.tcp.initial_cwnd)), rto_(o.tcp.initial_rto) {
  const TcpCcSpec& cc = o_.cc ? *o_.cc : tcp_congestion_control("reno");
  c_.cc = cc.name;
  if (cc.make) cc_ = cc.make(o_.tcp);
  ecn_ = cc.ecn;
  rwnd_segments_ = std::max(1.0, static_cast<double>(o_.tcp.rwnd.count() / o_.tcp.mss.count()));
  ack_msg_.frame = static_cast<std::uint8_t>(FrameKind::tcp_segment);
}

TcpConnection::~TcpConnection() = default;

void TcpConnection::bind(NetworkStage& data, NetworkStage& ack) {
  data_ = &data;
  ack_ = &ack;
}

TcpStats TcpConnection::stats() const {
  TcpStats s = c_;
  s.final_cwnd = cwnd_;
  s.srtt_us = srtt_.to_us();
  s.rto_us = rto_.to_us();
  s.dctcp_alpha = alpha();
  return s;
}

Packet& TcpConnection::clone(const Packet& p) { return ctx_.pinned_copy(p); }

void TcpConnection::release(Packet& p) { ctx_.release_packet(p); }

void TcpConnection::changed() {
  if (observer_) observer_->cwnd_changed(ctx_.sched.now(), cwnd_, snd_una_);
}

// ---- sender ----

double TcpConnection::window() const {
  return std::min(std::max(1.0, cwnd_) + static_cast<double>(limited_), rwnd_segments_);
}

double TcpConnection::flight_half() const { return std::max(static_cast<double>((snd_max_ - snd_una_) / 2), 2.0); }

void TcpConnection::send(Packet& p) {
  queue_push(queue_head_, queue_tail_, p);
  pump();
}

void TcpConnection::pump() {
  const Time now = ctx_.sched.now();
  while (static_cast<double>(snd_nxt_ - snd_una_) + 1.0 <= window()) {
    if (snd_nxt_ != snd_max_) {  // going back after a timeout: resend what the receiver lacks
      Packet& c = *cursor_;
      cursor_ = c.next_in_queue;
      ++snd_nxt_;
      resend(c);
      continue;
    }
    Packet* p = queue_pop(queue_head_, queue_tail_);
    if (!p) break;
    p->charge(Category::queue, now);  // waited for the congestion (or receive) window
    transmit_fresh(*p);
  }
}

void TcpConnection::transmit_fresh(Packet& p) {
  const Time now = ctx_.sched.now();
  if (snd_max_ == snd_una_) deadline_ = now + rto_;  // the timer starts with the first outstanding segment
  p.psn = snd_max_++;
  snd_nxt_ = snd_max_;
  p.ce = false;
  p.ts = now;
  queue_push(copies_head_, copies_tail_, clone(p));
  ++c_.sent;
  arm_rto();
  data_->inject(p, o_.tcp.tc);
}

void TcpConnection::resend(Packet& copy) {
  const Time now = ctx_.sched.now();
  Packet& r = clone(copy);
  r.charge(Category::recovery, now);  // from its first transmission until this resend
  r.ce = false;
  r.ts = now;  // the timestamp tells the ACK of a resend from the original's (RFC 7323)
  ++c_.retransmitted;
  c_.retransmitted_bytes += static_cast<std::uint64_t>(r.payload.count());
  if (snd_max_ == snd_una_) deadline_ = now + rto_;
  arm_rto();
  data_->inject(r, o_.tcp.tc);
}

void TcpConnection::acknowledge(std::uint32_t ack) {
  while (copies_head_ && copies_head_->psn < ack) release(*queue_pop(copies_head_, copies_tail_));
  snd_una_ = ack;
  if (snd_nxt_ < snd_una_) {
    snd_nxt_ = snd_una_;  // the ACK passed the go-back point: resume from it
    cursor_ = copies_head_;
  }
  if (snd_nxt_ == snd_max_) cursor_ = nullptr;
}

void TcpConnection::arm_rto() {
  if (snd_max_ == snd_una_) return;
  if (deadline_ <= ctx_.sched.now()) deadline_ = ctx_.sched.now() + rto_;
  if (rto_armed_ && rto_event_ <= deadline_) return;  // the pending expiry comes first and re-arms
  rto_armed_ = true;  // the deadline moved earlier (a smaller RTO): an earlier expiry
  rto_event_ = deadline_;
  ctx_.sched.schedule_at(deadline_, *this, kRto);
}

void TcpConnection::rtt_sample(Time r) {
  const std::int64_t rp = r.count_ps();
  if (!have_rtt_) {
    have_rtt_ = true;
    srtt_ = r;
    rttvar_ = r / 2;
  } else {
    const std::int64_t dev = srtt_.count_ps() > rp ? srtt_.count_ps() - rp : rp - srtt_.count_ps();
    rttvar_ = Time::ps((3 * rttvar_.count_ps() + dev) / 4);
    srtt_ = Time::ps((7 * srtt_.count_ps() + rp) / 8);
  }
  rto_ = std::min(std::max(o_.tcp.min_rto, srtt_ + rttvar_ * 4), o_.tcp.max_rto);
}

void TcpConnection::ack_arrived(Packet& p) {
  const std::uint32_t ack = p.psn;
  const bool ece = (p.index & kEce) != 0;
  const Time echo = p.ts;
  ctx_.packets.release(&p);
  ++c_.acks_received;
  if (ece) ++c_.ece;
  if (ack > snd_una_ && ack <= snd_max_) {
    rtt_sample(ctx_.sched.now() - echo);  // RTTM: every ACK of new data echoes a timestamp
    on_new_ack(ack, ece);
  } else if (ack == snd_una_) {
    if (snd_max_ != snd_una_) on_dup_ack(echo);
    if (ece) congestion_control(0, true);
  }
  pump();
}

void TcpConnection::on_new_ack(std::uint32_t ack, bool ece) {
  const Time now = ctx_.sched.now();
  const std::uint32_t acked = ack - snd_una_;
  acknowledge(ack);
  if (in_recovery_) {
    if (ack >= recover_) {  // ack >= recover: the whole window is repaired
      in_recovery_ = false;
      cwnd_ = ssthresh_;
      dupacks_ = 0;
    } else {  // partial ACK (NewReno): the next hole is lost too
      rtx_time_ = now;
      resend(*copies_head_);
      cwnd_ = std::max(1.0, cwnd_ - static_cast<double>(acked) + 1.0);
    }
  } else {
    dupacks_ = 0;
    limited_ = 0;
    double a = static_cast<double>(acked);
    if (cwnd_ < ssthresh_) {  // slow start, up to ssthresh; the rest of the ACK grows linearly
      const double room = ssthresh_ - cwnd_;
      const double ss = std::min(a, room);
      cwnd_ += ss;
      a -= ss;
    }
    if (a > 0) cwnd_ += a / cwnd_;
  }
  congestion_control(acked, ece);
  deadline_ = now + rto_;  // progress: the timer restarts
  if (snd_max_ != snd_una_) arm_rto();
  changed();
}

void TcpConnection::on_dup_ack(Time echo) {
  ++c_.dup_acks;
  if (in_recovery_) {
    cwnd_ += 1.0;  // a segment left the network
    if (echo > rtx_time_) {  // a segment sent after the resend got there first: the resend was lost
      ++c_.lost_retransmits;
      rtx_time_ = ctx_.sched.now();
      resend(*copies_head_);
    }
    changed();
    return;
  }
  if (++dupacks_ < o_.tcp.dupack_threshold) {
    if (dupacks_ <= 2 && snd_nxt_ == snd_max_) limited_ = dupacks_;  // limited transmit (RFC 3042)
    return;
  }
  if (dupacks_ != o_.tcp.dupack_threshold) return;
  if (snd_una_ < recover_ || snd_nxt_ != snd_max_) return;  // still repairing the last timeout
  ++c_.fast_retransmits;
  ssthresh_ = flight_half();
  cwnd_ = ssthresh_ + static_cast<double>(o_.tcp.dupack_threshold);
  in_recovery_ = true;
  limited_ = 0;
  recover_ = snd_max_;
  rtx_time_ = ctx_.sched.now();
  resend(*copies_head_);
  changed();
}

void TcpConnection::congestion_control(std::uint32_t acked, bool ece) {
  if (!cc_) return;
  TcpWindow w{cwnd_, ssthresh_, snd_una_, snd_max_, in_recovery_};
  if (cc_->on_ack(w, acked, ece)) ++c_.cwr;
  cwnd_ = w.cwnd;
  ssthresh_ = w.ssthresh;
}

void TcpConnection::timeout() {
  ++c_.timeouts;
  ssthresh_ = flight_half();
  cwnd_ = 1.0;
  in_recovery_ = false;
  dupacks_ = 0;
  limited_ = 0;
  recover_ = snd_max_;
  snd_nxt_ = snd_una_;  // go back: everything outstanding is presumed lost
  cursor_ = copies_head_;
  rto_ = std::min(rto_ * 2, o_.tcp.max_rto);  // exponential backoff
  deadline_ = ctx_.sched.now() + rto_;
  changed();
  pump();
}

void TcpConnection::ack_dropped(Packet& p) { ctx_.packets.release(&p); }  // a later cumulative ACK covers it

void TcpConnection::on_event(std::uint64_t arg) {
  const Time now = ctx_.sched.now();
  if (arg == kDelack) {
    delack_armed_ = false;
    if (pending_acks_ == 0) return;
    if (now < delack_deadline_) {
      delack_armed_ = true;
      ctx_.sched.schedule_at(delack_deadline_, *this, kDelack);
      return;
    }
    ack_now(ts_recent_);
    return;
  }
  if (!rto_armed_ || now != rto_event_) return;  // superseded by an earlier expiry
  rto_armed_ = false;
  if (snd_max_ == snd_una_) return;
  if (now < deadline_) return arm_rto();  // progress since it was armed
  timeout();
}

// ---- receiver ----

void TcpConnection::send_ack(Packet&) { throw std::logic_error("a TCP route has no message-level ACK stage"); }

void TcpConnection::data_dropped(Packet& p) { release(p); }  // the sender resends it

void TcpConnection::ack_now(Time echo) {
  pending_acks_ = 0;
  Packet& a = *ctx_.packets.acquire();
  a.msg = &ack_msg_;
  a.route = nullptr;
  a.index = kAck | (ce_state_ ? kEce : 0);
  a.psn = rcv_nxt_;
  a.pos = FramePos::only;
  a.payload = Bytes(0);
  a.wire = o_.ack_wire;
  a.stamp = ctx_.sched.now();
  a.ts = echo;
  ++c_.acks_sent;
  ack_->inject(a, o_.tcp.tc);
}

void TcpConnection::deliver(Packet& p) {
  ++rcv_nxt_;
  c_.delivered_bytes += static_cast<std::uint64_t>(p.payload.count());
  if (p.pinned) {  // an accepted resend is an ordinary segment of its message from here on
    p.pinned = false;
    ctx_.unpin(*p.msg);
  }
  data_->deliver(p);
}

void TcpConnection::data_arrived(Packet& p) {
  const Time now = ctx_.sched.now();
  if (ecn_ && p.ce != ce_state_) {
    if (pending_acks_ > 0) ack_now(ts_recent_);  // acknowledge the segments before the change with the old echo
    ce_state_ = p.ce;
  }
  const std::uint32_t seq = p.psn;
  if (seq == rcv_nxt_) {
    // TS.Recent (RFC 7323): the timestamp of the earliest segment the next ACK acknowledges.
    if (pending_acks_ == 0) ts_recent_ = p.ts;
    const bool hole = ofo_head_ != nullptr;
    const bool psh = last_of_message(p);
    deliver(p);
    while (ofo_head_ && ofo_head_->psn == rcv_nxt_) {
      Packet& q = *queue_pop(ofo_head_, ofo_tail_);
      q.charge(Category::recovery, now);  // waited for the hole before it to be repaired
      deliver(q);
    }
    if (++pending_acks_ >= o_.tcp.delayed_ack || hole || psh) return ack_now(ts_recent_);
    if (pending_acks_ == 1) delack_deadline_ = now + o_.tcp.delayed_ack_timeout;
    if (!delack_armed_) {
      delack_armed_ = true;
      ctx_.sched.schedule_at(delack_deadline_, *this, kDelack);
    }
    return;
  }
  if (seq > rcv_nxt_) {  // past a hole: queue it, in sequence order
    Packet** link = ofo_tail_ && ofo_tail_->psn < seq ? &ofo_tail_->next_in_queue : &ofo_head_;
    while (*link && (*link)->psn < seq) link = &(*link)->next_in_queue;
    if (*link && (*link)->psn == seq) {
      ++c_.duplicates;
      release(p);
    } else {
      ++c_.out_of_order;
      p.next_in_queue = *link;
      *link = &p;
      if (!p.next_in_queue) ofo_tail_ = &p;
    }
    return ack_now(p.ts);  // a duplicate ACK (echoing the segment that caused it): the sender counts them
  }
  ++c_.duplicates;
  release(p);
  ack_now(ts_recent_);
}

}  // namespace rdmasim
