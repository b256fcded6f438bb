#include "sim/rc_connection.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "net/wire_format.hpp"
#include "sim/packet_queue.hpp"
#include "sim/stages.hpp"
#include "sim/rnr_timer.hpp"

namespace rdmasim {
namespace {

bool first_of_message(const Packet& p) { return p.pos == FramePos::first || p.pos == FramePos::only; }

}  // namespace

std::string_view to_string(QpStatus s) {
  switch (s) {
    case QpStatus::ok: return "ok";
    case QpStatus::retry_exc_err: return "RETRY_EXC_ERR";
    case QpStatus::rnr_retry_exc_err: return "RNR_RETRY_EXC_ERR";
    case QpStatus::closed: return "closed";
  }
  return "?";
}

RcConnection::RcConnection(SimContext& ctx, SimContext& responder, const RcOptions& o)
    : ctx_(ctx), rctx_(responder), o_(o), timeout_(Time::ps(4'096'000LL << o.rc.timeout)),
      rnr_wait_(verbs::rnr_timer_delay(static_cast<std::uint8_t>(o.rc.min_rnr_timer))), slot_(ctx.relay.add(*this)) {
  if (o_.cc && o_.cc->make) {
    cc_ = o_.cc->make(*o_.profile, o_.line);
    cnps_ = o_.cc->cnps;
    telemetry_ = o_.cc->telemetry;
    per_packet_ = telemetry_ || o_.cc->per_packet_acks;
    cnp_interval_ = o_.profile->dcqcn.cnp_interval;
    cnp_tc_ = o_.profile->dcqcn.cnp_tc;
  }
  control_msg_[kNak].frame = static_cast<std::uint8_t>(FrameKind::roce_ack);
  control_msg_[kCnp].frame = static_cast<std::uint8_t>(FrameKind::roce_cnp);
  control_msg_[kRnrNak].frame = static_cast<std::uint8_t>(FrameKind::roce_ack);
  control_msg_[kSack].frame = static_cast<std::uint8_t>(FrameKind::roce_ack);
  control_msg_[kAck].frame = static_cast<std::uint8_t>(FrameKind::roce_ack);
  control_msg_[kSack].tag = 0x60;  // AETH: NAK, PSN sequence error (the missing PSN)
  control_msg_[kAck].tag = 0x1F;   // AETH: ACK (credit count not given)
  ooo_ = o.rc.ooo_placement || o.rc.selective_repeat;
  control_msg_[kNak].tag = 0x60;                                                // AETH: NAK, PSN sequence error
  control_msg_[kRnrNak].tag = 0x20 | static_cast<std::uint64_t>(o.rc.min_rnr_timer);  // AETH: RNR NAK + timer
  for (Message& m : control_msg_) m.dest_qp = o_.requester_qp;
}

RcConnection::~RcConnection() {
  ctx_.relay.remove(slot_);  // a pending timer of ours is dropped when due, and no longer counts as idle
  if (timer_idle_) --ctx_.idle_events;
}

bool RcConnection::quiescent() const {
  return unacked_ == 0 && !pacer_armed_ && !rnr_waiting_ && !resend_in_nic_ && !new_head_ && !resend_head_ &&
         !lost_head_ && (!timer_armed_ || timer_idle_);
}

RcStats RcConnection::stats() const {
  RcStats s;
  s.status = std::string(to_string(status_));
  if (o_.rc.selective_repeat) s.recovery = "selective repeat";
  if (status_ != QpStatus::ok) s.failed_at_us = failed_at_.to_us();
  s.sent = c_.sent;
  s.retransmitted = c_.retransmitted;
  s.retransmitted_bytes = c_.retransmitted_bytes;
  s.timeouts = c_.timeouts;
  s.naks = c_.naks_received;
  s.out_of_sequence = c_.out_of_sequence;
  s.duplicates = c_.duplicates;
  s.acks_lost = c_.acks_lost;
  s.cnps = c_.cnps_received;
  s.rnr_naks_sent = c_.rnr_naks_sent;
  s.rnr_naks = c_.rnr_naks_received;
  s.not_ready = c_.not_ready;
  s.max_unacked = c_.max_unacked;
  if (cc_) s.final_rate_bps = cc_->current_bps();
  return s;
}

void RcConnection::close() {
  if (status_ == QpStatus::ok) stop(QpStatus::closed);
}

Packet& RcConnection::clone(const Packet& p) { return ctx_.pinned_copy(p); }

void RcConnection::copy_for_retransmit(const Packet& p) {
  // What clone() would hold, kept in the log instead of a pool packet.
  Packet c = p;
  c.next_in_queue = nullptr;
  c.pacer = nullptr;
  c.pinned = true;
  ctx_.pin(*c.msg);
  copies_.push(c);
}

void RcConnection::release(Packet& p) { ctx_.release_packet(p); }
void RcConnection::release_at_responder(Packet& p) { rctx_.release_packet(p); }

void RcConnection::discard(Packet& p) {
  p.notify_pacer();  // the NIC's transmit window moves on (a flushed packet never starts)
  release(p);
}

// ---- requester ----

void RcConnection::send(Packet& p) {
  if (status_ != QpStatus::ok) return discard(p);
  if (new_head_ || resend_head_ || resend_in_nic_ || rnr_waiting_ || (cc_ && ctx_.sched.now() < next_tx_) || capped()) {
    queue_push(new_head_, new_tail_, p);  // behind the resends (go-back-N rewinds the send queue), the rate limiter or the cap
    return pump();
  }
  transmit(p, true);
}

void RcConnection::transmit(Packet& p, bool fresh) {
  const Time now = ctx_.sched.now();
  if (fresh) {
    p.psn = snd_nxt_++;
    if (last_of_message(p)) {
      p.msg->rc_last_psn = p.psn;
      p.msg->rc_last_sent = now;
    }
    if (per_packet_) int_.push_back(PathTelemetry{p.psn, now, 0, {}});
    copy_for_retransmit(p);
    ++unacked_;
    unacked_bytes_ += p.payload.count();
    ++c_.sent;
    c_.max_unacked = std::max<std::uint64_t>(c_.max_unacked, unacked_);
  } else {
    if (p.psn == p.msg->rc_last_psn) p.msg->rc_last_sent = Time::ps(-1);  // its ACK times no round trip
    if (!int_.empty() && p.psn >= int_.front().psn && p.psn - int_.front().psn < int_.size())
      int_[p.psn - int_.front().psn] = PathTelemetry{p.psn, Time::ps(-1), 0, {}};  // the resend records its own path
    ++c_.retransmitted;
    c_.retransmitted_bytes += static_cast<std::uint64_t>(p.payload.count());
  }
  if (cc_) {
    cc_->on_sent(p.wire.count(), now);
    const double rate = cc_->rate_bps(now);
    next_tx_ = rate < static_cast<double>(o_.line.bits_per_sec())
                   ? now + Time::ps(static_cast<std::int64_t>(static_cast<double>(p.wire.count()) * 8e12 / rate))
                   : now;
  }
  arm_timer();
  if (fresh) note_timer();
  p.route->rc_data->inject(p);
}

void RcConnection::pump() {
  while (resend_head_ || new_head_) {
    if (resend_in_nic_ || rnr_waiting_) return;  // transmitting() / the RNR timer pump again
    const Time now = ctx_.sched.now();
    if (cc_ && now < next_tx_) {
      if (!pacer_armed_) {
        pacer_armed_ = true;
        ctx_.relay.schedule_at(ctx_.sched, next_tx_, slot_, static_cast<std::uint8_t>(kPacer));
      }
      return;
    }
    const bool fresh = resend_head_ == nullptr;
    if (fresh && capped()) return;  // acknowledge() pumps again
    Packet& p = fresh ? *queue_pop(new_head_, new_tail_) : *queue_pop(resend_head_, resend_tail_);
    if (fresh) {
      if (p.stamp < rnr_until_) p.charge(Category::recovery, rnr_until_);  // held by an RNR wait
      p.charge(Category::queue, now);  // waited for the rate limiter or behind resends
    } else {
      p.charge(Category::recovery, now);
      p.pacer = this;  // one resend at a time in the NIC: a later go-back can still rewind the rest
      resend_in_nic_ = true;
    }
    transmit(p, fresh);
  }
}

void RcConnection::transmitting(const Packet&) {
  resend_in_nic_ = false;
  if (status_ == QpStatus::ok) pump();
}

void RcConnection::go_back(std::uint32_t from) {
  // The send queue rewinds to `from`: resends not yet handed to the NIC are superseded.
  while (Packet* stale = queue_pop(resend_head_, resend_tail_)) release(*stale);
  resend_copies(from, snd_nxt_, false);
}

bool RcConnection::ack_lost(const Message& m) const {
  for (const Packet* t = lost_head_; t; t = t->next_in_queue)
    if (t->msg == &m) return true;
  return false;
}

void RcConnection::resend_copies(std::uint32_t from, std::uint32_t below, bool selective) {
  const Time now = ctx_.sched.now();
  const Message* prev = nullptr;
  copies_.for_each([&](const Packet& c) {
    if (c.psn < from || c.psn >= below) return;
    if (selective) {
      std::uint8_t& f = sr_[c.psn & (sr_.size() - 1)];
      if (f & (kReported | kResent)) return;
      f |= kResent;
    }
    Packet& r = clone(c);
    r.charge(Category::recovery, now);
    if (!selective && lost_head_ && r.msg != std::exchange(prev, r.msg) && ack_lost(*r.msg)) r.sack = kAckLost;
    queue_push(resend_head_, resend_tail_, r);
  });
  deadline_ = now + timeout_;
  arm_timer();
  pump();
}

std::uint8_t& RcConnection::sr_flags(std::uint32_t psn) {
  const std::uint32_t base = copies_.front().psn;  // callers ask only for unacknowledged PSNs
  while (psn - base >= sr_.size()) {  // grow the ring (a power of two), keeping [base, snd_nxt_)
    const std::size_t cap = sr_.size(), grown = cap ? cap * 2 : 1024;
    std::vector<std::uint8_t> g(grown, 0);
    for (std::uint32_t q = base; cap && q != snd_nxt_ && q - base < cap; ++q) g[q & (grown - 1)] = sr_[q & (cap - 1)];
    sr_.swap(g);
  }
  return sr_[psn & (sr_.size() - 1)];
}

void RcConnection::sack_arrived(std::uint32_t missing, std::uint32_t received) {
  complete_lost_acks(missing);
  if (missing > 0) acknowledge(missing - 1);
  if (copies_.empty()) return;
  const std::uint32_t base = copies_.front().psn;
  if (received >= base && received < snd_nxt_) sr_flags(received) |= kReported;
  if (received < missing) {  // the answer to a duplicate (a timeout's resend): it names the first missing PSN,
    // lost if it was sent before that resend (one path, in order), else still on its way
    if (missing < probe_below_) resend_unreported(std::max(missing, base), missing + 1);
    return;
  }
  resend_unreported(std::max(missing, base), std::min(received, snd_nxt_));  // what is missing below it
}

void RcConnection::resend_unreported(std::uint32_t from, std::uint32_t below) {
  if (from >= below) return;
  sr_flags(below - 1);  // the ring holds the range before the scan below
  bool any = false;
  for (std::uint32_t q = from; q < below && !any; ++q) any = (sr_flags(q) & (kReported | kResent)) == 0;
  if (any) resend_copies(from, below, true);
}

void RcConnection::acknowledge(std::uint32_t last) {
  bool progress = false;
  acked_below_ = std::max(acked_below_, last + 1);
  while (!copies_.empty() && copies_.front().psn < acked_below_) {
    // A READ's request stays until its response is in: a later ACK may have overtaken it.
    if (copies_.front().msg->rc_await_response && !copies_.front().msg->rc_answered) break;
    if (!sr_.empty()) sr_[copies_.front().psn & (sr_.size() - 1)] = 0;
    ctx_.unpin(*copies_.front().msg);  // a copy always holds a pin
    unacked_bytes_ -= copies_.front().payload.count();
    copies_.pop_front();
    --unacked_;
    progress = true;
  }
  if (progress) {
    retries_ = 0;
    rnr_tries_ = 0;
    deadline_ = ctx_.sched.now() + timeout_;
    note_timer();
    if (new_head_ && (o_.rc.max_inflight > 0 || window_limited())) pump();  // the cap let more out
  }
}

void RcConnection::note_timer() {
  const bool idle = timer_armed_ && (unacked_ == 0 || status_ != QpStatus::ok);
  if (idle == timer_idle_) return;
  timer_idle_ = idle;
  if (idle) ++ctx_.idle_events;
  else --ctx_.idle_events;
}

void RcConnection::arm_timer() {
  if (timer_armed_ || unacked_ == 0 || o_.rc.timeout == 0) return;  // timeout 0: infinite (IBA)
  if (deadline_ <= ctx_.sched.now()) deadline_ = ctx_.sched.now() + timeout_;
  timer_armed_ = true;
  ctx_.relay.schedule_at(ctx_.sched, deadline_, slot_, static_cast<std::uint8_t>(kRetransmit));
  note_timer();
}

void RcConnection::on_event(std::uint64_t arg) {
  if (arg == kRnr) {  // the RNR wait is over: resend from the NAKed PSN
    rnr_waiting_ = false;
    if (status_ == QpStatus::ok) go_back(rnr_psn_);
    return;
  }
  if (arg == kPacer) {
    pacer_armed_ = false;
    if (status_ == QpStatus::ok) pump();
    return;
  }
  timer_armed_ = false;
  note_timer();
  if (status_ != QpStatus::ok || unacked_ == 0) return;
  const Time now = ctx_.sched.now();
  if (rnr_waiting_ && deadline_ < rnr_until_ + timeout_) deadline_ = rnr_until_ + timeout_;  // not while waiting
  if (now < deadline_) {  // progress since it was armed: wait for the new deadline
    timer_armed_ = true;
    ctx_.relay.schedule_at(ctx_.sched, deadline_, slot_, static_cast<std::uint8_t>(kRetransmit));
    note_timer();
    return;
  }
  if (++retries_ > o_.rc.retry_cnt) return fail();
  ++c_.timeouts;
  if (!o_.rc.selective_repeat) return go_back(copies_.front().psn);
  // Selective repeat: the oldest unacknowledged PSN goes again; the responder answers it (a
  // duplicate too) with a NACK naming what it still misses. Earlier resends may go again.
  copies_.for_each([&](const Packet& c) { sr_flags(c.psn) &= static_cast<std::uint8_t>(~kResent); });
  probe_below_ = snd_nxt_;  // what was sent before this resend and is missing when it arrives is lost
  resend_unreported(copies_.front().psn, copies_.front().psn + 1);
}

void RcConnection::fail(QpStatus why) {
  stop(why);
  if (o_.endpoint) o_.endpoint->failed(why);
}

void RcConnection::stop(QpStatus why) {
  status_ = why;  // the QP is in the error state: its work requests flush
  failed_at_ = ctx_.sched.now();
  while (!copies_.empty()) {
    ctx_.unpin(*copies_.front().msg);
    copies_.pop_front();
  }
  unacked_ = 0;
  unacked_bytes_ = 0;
  note_timer();
  while (Packet* p = queue_pop(resend_head_, resend_tail_)) release(*p);
  while (Packet* p = queue_pop(new_head_, new_tail_)) discard(*p);
  while (Packet* p = queue_pop(lost_head_, lost_tail_)) ctx_.packets.release(p);
}

void RcConnection::complete_lost_acks(std::uint32_t before) {
  while (lost_head_ && lost_head_->msg->rc_last_psn < before) {
    Packet& t = *queue_pop(lost_head_, lost_tail_);
    t.charge(Category::recovery, ctx_.sched.now());  // a later cumulative ACK covered it
    t.route->rc_ack->deliver(t);
  }
}

void RcConnection::ack_arrived(Packet& p) {
  if (status_ != QpStatus::ok) return ctx_.packets.release(&p);
  if (!p.route) {  // a control frame
    if (p.index == kNak) {
      ++c_.naks_received;
      complete_lost_acks(p.psn);
      if (p.psn > 0) acknowledge(p.psn - 1);
      go_back(p.psn);
    } else if (p.index == kSack) {
      ++c_.naks_received;
      sack_arrived(p.psn, p.sack);
    } else if (p.index == kRnrNak) {
      rnr_nak_arrived(p.psn);
    } else if (p.index == kAck) {  // a packet's ACK (per-packet rate controls, AckReq, a duplicate's): cumulative below p.psn
      complete_lost_acks(p.psn);
      const std::size_t held = unacked_;
      if (p.psn > 0) acknowledge(p.psn - 1);
      if (cc_ && per_packet_ && p.psn > 0 && p.sack != kDuplicateAck) {  // a rate control hears of the per-packet ACKs it asked for
        const PathTelemetry* t = record_of(p.psn - 1);
        const Time rtt = t && t->sent >= Time::zero() ? ctx_.sched.now() - t->sent : Time::ps(-1);
        if (t && (!telemetry_ || t->hops == 0)) t = nullptr;
        cc_->on_ack({ctx_.sched.now(), p.psn, snd_nxt_, static_cast<std::int32_t>(held - unacked_),
                     static_cast<std::int32_t>(p.sack), rtt, t, p.hops});
        if (new_head_ && window_limited()) pump();  // the window may have grown
      }
    } else if (p.index == kCnp) {
      ++c_.cnps_received;
      if (cc_) cc_->on_cnp(ctx_.sched.now());
    }
    ctx_.packets.release(&p);
    return;
  }
  const std::uint32_t last = p.msg->rc_last_psn;
  // One past what the ACK acknowledges: its message, or with out-of-order placement everything
  // before the first PSN the responder still missed when it sent it (p.psn, see send_ack) —
  // which may end before this message, or after it.
  const std::uint32_t upto = ooo_ ? p.psn : last + 1;
  complete_lost_acks(upto == last + 1 ? last : upto);
  const std::size_t held = unacked_;
  if (upto > 0) acknowledge(upto - 1);
  if (cc_)
    cc_->on_ack({ctx_.sched.now(), upto, snd_nxt_, static_cast<std::int32_t>(held - unacked_),
                 static_cast<std::int32_t>(p.msg->rc_ce),
                 p.msg->rc_last_sent < Time::zero() ? Time::ps(-1) : ctx_.sched.now() - p.msg->rc_last_sent,
                 per_packet_ ? telemetry_of(last) : nullptr, p.hops});
  if (new_head_ && window_limited()) pump();  // the window may have grown
  p.route->rc_ack->deliver(p);
}

void RcConnection::hop(std::uint32_t psn, const HopTelemetry& h) {
  if (int_.empty() || psn < int_.front().psn || psn - int_.front().psn >= int_.size()) return;
  PathTelemetry& t = int_[psn - int_.front().psn];
  // In path order, which is time order: partitioned, a report from another LP's switch comes
  // between windows, after the sender's own LP's later ones (one scheduler: always at the end).
  int i = t.hops;
  while (i > 0 && t.hop[i - 1].ts > h.ts) --i;
  if (i >= PathTelemetry::kMaxHops) return;  // a longer path keeps its first hops
  for (int j = std::min(t.hops, PathTelemetry::kMaxHops - 1); j > i; --j) t.hop[j] = t.hop[j - 1];
  t.hop[i] = h;
  t.hops = std::min(t.hops + 1, PathTelemetry::kMaxHops);
}

const PathTelemetry* RcConnection::record_of(std::uint32_t psn) {
  while (!int_.empty() && int_.front().psn < psn) int_.pop_front();  // echoed already, or their ACKs were lost
  if (int_.empty() || int_.front().psn != psn) return nullptr;
  return &int_.front();  // valid until the next transmit or ACK
}

const PathTelemetry* RcConnection::telemetry_of(std::uint32_t psn) {
  const PathTelemetry* t = record_of(psn);
  return t && telemetry_ && t->hops > 0 ? t : nullptr;
}

void RcConnection::answered(Message& request, std::uint32_t last) {
  if (status_ != QpStatus::ok) return;  // `request` may be gone with the copies
  request.rc_answered = true;
  complete_lost_acks(last);
  acknowledge(last);
}

void RcConnection::rnr_nak_arrived(std::uint32_t psn) {
  ++c_.rnr_naks_received;
  complete_lost_acks(psn);
  if (psn > 0) acknowledge(psn - 1);
  if (rnr_waiting_) return;  // already waiting (a stale NAK of a packet in flight before the wait)
  if (o_.rc.rnr_retry != verbs::kInfiniteRnrRetry && rnr_tries_ >= o_.rc.rnr_retry)
    return fail(QpStatus::rnr_retry_exc_err);
  ++rnr_tries_;
  // The send queue stops and rewinds to `psn` (resends not yet handed to the NIC are stale).
  while (Packet* stale = queue_pop(resend_head_, resend_tail_)) release(*stale);
  rnr_waiting_ = true;
  rnr_psn_ = psn;
  rnr_until_ = ctx_.sched.now() + rnr_wait_;
  ctx_.relay.schedule_at(ctx_.sched, rnr_until_, slot_, static_cast<std::uint8_t>(kRnr));
}

void RcConnection::ack_dropped(Packet& p) {
  if (!p.route) return ctx_.packets.release(&p);  // a lost NAK or CNP: the timer recovers
  ++c_.acks_lost;
  queue_push(lost_head_, lost_tail_, p);
}

// ---- responder ----

void RcConnection::send_control(Control kind, std::uint32_t psn, std::uint32_t sack) {
  Packet& c = *rctx_.packets.acquire();
  c.msg = &control_msg_[kind];
  c.route = nullptr;
  c.index = kind;
  c.psn = psn;
  c.sack = sack;
  c.pos = FramePos::only;
  c.payload = Bytes(0);
  c.wire = kind == kCnp ? o_.cnp_wire : o_.ack_wire;
  c.stamp = rctx_.sched.now();
  if (!ack_) throw std::logic_error("RC: a NAK or CNP to send but no ACK direction bound");
  ack_->inject(c, kind == kCnp ? cnp_tc_ : -1);
}

void RcConnection::send_ack(Packet& token) {
  // Out-of-order placement completes a message while an earlier PSN may still be missing: the
  // ACK is cumulative only up to that PSN (the requester must not free its copy).
  if (ooo_) token.psn = rcv_nxt_;
  token.route->rc_ack->inject(token);
}

void RcConnection::data_dropped(Packet& p) { release_at_responder(p); }  // the requester resends it

void RcConnection::set_receive_queue(std::int64_t posted) {
  rq_modelled_ = true;
  receives_ = posted;
}

bool RcConnection::seen(std::uint32_t psn) const {
  const std::size_t cap = ooo_seen_.size();
  return psn - rcv_nxt_ < cap && ooo_seen_[psn & (cap - 1)];
}

void RcConnection::mark_seen(std::uint32_t psn) {
  while (psn - rcv_nxt_ >= ooo_seen_.size()) {  // grow the ring (a power of two), keeping the window
    const std::size_t cap = ooo_seen_.size(), grown = cap ? cap * 2 : 1024;
    std::vector<std::uint8_t> g(grown, 0);
    for (std::size_t i = 0; i < cap; ++i) {
      const std::uint32_t q = rcv_nxt_ + static_cast<std::uint32_t>(i);
      g[q & (grown - 1)] = ooo_seen_[q & (cap - 1)];
    }
    ooo_seen_.swap(g);
  }
  ooo_seen_[psn & (ooo_seen_.size() - 1)] = 1;
}

bool RcConnection::take_receive(Message& m) {
  if (o_.endpoint) return o_.endpoint->take_receive(m);
  if (!rq_modelled_) return true;
  if (receives_ == 0) return false;
  --receives_;
  return true;
}

void RcConnection::data_arrived(Packet& p) {
  if (o_.endpoint && !o_.endpoint->responder_ready()) {
    ++c_.not_ready;
    return release_at_responder(p);
  }
  const Time now = rctx_.sched.now();
  if (p.ce && cnps_ && (!cnp_sent_ || now - last_cnp_ >= cnp_interval_)) {
    cnp_sent_ = true;
    last_cnp_ = now;
    ++c_.cnps_sent;
    send_control(kCnp, p.psn);
  }
  const bool fresh = ooo_ ? p.psn >= rcv_nxt_ && !seen(p.psn) : p.psn == rcv_nxt_;
  if (fresh && first_of_message(p)) {  // a SEND's first packet consumes a receive
    if (!take_receive(*p.msg)) {  // receiver not ready
      ++c_.rnr_naks_sent;
      rnr_pending_ = true;
      send_control(kRnrNak, p.psn);
      release_at_responder(p);
      return;
    }
    rnr_pending_ = false;
  }
  if (fresh) {
    // Echoed on the message's ACK (AckSignal::ce_marked); with an ACK per packet, each ACK
    // echoes its own packet's mark.
    if (p.ce && (!per_packet_ || last_of_message(p))) ++p.msg->rc_ce;
    if (ooo_) {
      const bool gap = p.psn > rcv_nxt_;
      mark_seen(p.psn);
      while (seen(rcv_nxt_)) ooo_seen_[rcv_nxt_++ & (ooo_seen_.size() - 1)] = 0;
      if (gap && o_.rc.selective_repeat) {  // a PSN before it is missing: say which, and what came
        ++c_.naks_sent;
        send_control(kSack, rcv_nxt_, p.psn);
      }
    } else {
      ++rcv_nxt_;
      nak_pending_ = false;
    }
    if (p.pinned) {  // an accepted resend is an ordinary packet of its message from here on
      p.pinned = false;
      rctx_.unpin(*p.msg);
    }
    // Rate controls that ask for it hear of every packet, as the HPCC simulator acknowledges
    // each (its CE mark in the ACK's `sack` word); a message's last packet is acknowledged by its
    // ACK token.
    if (per_packet_ && !last_of_message(p)) send_control(kAck, rcv_nxt_, p.ce ? 1 : 0);
    // Otherwise the requester asks for a cumulative ACK every rc.ack_every packets of a message
    // (AckReq), so that a long message makes progress before its last packet lands.
    else if (!last_of_message(p) && asks_ack(p, o_.rc.ack_interval())) send_control(kAck, rcv_nxt_, 0);
    p.route->rc_data->deliver(p);
    return;
  }
  if (p.psn > rcv_nxt_ && rnr_pending_) {  // behind an RNR NAK: dropped until the retry
    ++c_.rnr_discarded;
  } else if (p.psn > rcv_nxt_ && !ooo_) {  // sequence error
    ++c_.out_of_sequence;
    if (!nak_pending_) {
      nak_pending_ = true;
      ++c_.naks_sent;
      send_control(kNak, rcv_nxt_);
    }
  } else {
    ++c_.duplicates;
    if (o_.rc.selective_repeat && p.psn < rcv_nxt_) {  // a resend it had: say what it misses
      ++c_.naks_sent;
      send_control(kSack, rcv_nxt_, p.psn);
    }
    // The first packet of a resend of a message whose ACK was lost: acknowledge it again.
    const bool re_ack = !o_.rc.selective_repeat && p.sack == kAckLost;
    if (re_ack) send_control(kAck, rcv_nxt_, kDuplicateAck);
    else if (o_.endpoint && first_of_message(p)) o_.endpoint->duplicate(*p.msg);
  }
  release_at_responder(p);
}

}  // namespace rdmasim
