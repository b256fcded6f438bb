#include "sim/stages.hpp"

#include "net/wire_format.hpp"

namespace rdmasim {

void DelayStage::link(Stage* next) {
  Stage::link(next);
  const bool constant = fixed_only_ && cost_.jitter == Time::zero();
  merge_ = constant ? dynamic_cast<MergeStage*>(next) : nullptr;
}

void DelayStage::receive(Packet& p) {
  // Counted (and released) now. A traced packet's step here would be a leaf of its trace that
  // no critical path reaches (sim/tracer.hpp): only the message's last packet continues.
  if (merge_ && !merge_->count(p)) return;
  Time t = fixed_only_ ? cost_.fixed : cost_.eval(p.payload, p.msg->size, p.wire);
  if (random_) [[unlikely]] t += draw();
  ctx_.sched.schedule_in(t, *this, arg_of(p));
}

Time DelayStage::draw() {
  Time t = rng_.uniform_time(cost_.jitter);
  t += rng_.exponential_time(cost_.noise_mean);
  if (cost_.spike > Time::zero() && rng_.chance_ppm(cost_.spike_ppm)) t += rng_.uniform_time(cost_.spike);
  return t;
}

void DelayStage::receive_at(Packet& p, Time at) {
  if (merge_ && !merge_->count(p)) return;
  ctx_.sched.schedule_at(at + cost_.fixed, *this, arg_of(p));
}

void DelayStage::on_event(std::uint64_t arg) {
  Packet& p = packet_of(arg);
  if (p.trail >= 0) [[unlikely]] return traced(p);  // keeps the untraced path free of calls
  p.charge(cat_, ctx_.sched.now());
  if (merge_) return merge_->complete(p);  // counted when it entered
  forward(p);
}

void DelayStage::traced(Packet& p) {
  p.charge(cat_, ctx_.sched.now(), site_);
  if (merge_) return merge_->complete(p);
  forward(p);
}

void ServeStage::link(Stage* next) {
  Stage::link(next);
  auto* d = dynamic_cast<DelayStage*>(next);
  then_delay_ = d && d->constant() && !wire_ && !irqs_ ? d : nullptr;
}

void ServeStage::started(Packet& p) {
  if (!wire_) return;
  p.notify_pacer();
  if (ctx_.tap) [[unlikely]] ctx_.tap->wire_start(server_, p, ctx_.sched.now());
}

void ServeStage::receive(Packet& p) {
  const Time s = cost_.eval_at(p.index, p.payload, p.msg->size, p.wire);
  p.service = s + head_extra(p);
  p.release = release_time(cost_, s, p.msg->size) + head_extra(p);
  p.service_cat = cat_;
  server_.enqueue(p, *this);
}

void ServeStage::charge_service(Packet& p, Time at) {
  if (irqs_ && (cost_.head_extra == Time::zero() || head_extra(p) > Time::zero())) ++*irqs_;
  if (p.trail >= 0) [[unlikely]] return charge_traced(p, at);  // keeps the untraced path free of calls
  const Time extra = head_extra(p);
  if (extra > Time::zero()) {
    p.ledger.add(cost_.head_cat, extra);
    p.stamp += extra;
  }
  p.charge(cat_, at);
}

void ServeStage::charge_traced(Packet& p, Time at) {
  const Time extra = head_extra(p);
  if (extra > Time::zero()) {
    p.trail = trace_step(p, p.trail, site_, cost_.head_cat, p.stamp, extra);
    p.ledger.add(cost_.head_cat, extra);
    p.stamp += extra;
  }
  p.charge(cat_, at, site_);
}

Bytes SplitStage::payload_of(const Message& m, std::int32_t i) const {
  return split_.header_only ? Bytes{} : packet_payload(m.size, split_.segment, i);
}

void SplitStage::set_up(Packet& p, const Message& m, std::int32_t i, std::int32_t n, Bytes wire) const {
  p.index = i;
  p.pos = frame_pos(i, n);
  p.batch_head = true;
  p.payload = payload_of(m, i);
  p.wire = wire;
  p.next_in_queue = nullptr;
}

void SplitStage::receive(Packet& token) {
  Message& m = *token.msg;
  const std::int32_t n = split_.header_only ? 1 : packet_count(m.size, split_.segment);
  m.packets = n;
  ++m.splits;
  m.arrived = 0;
  if (ctx_.tap) [[unlikely]] stamp_wire(m, *token.route, n);
  if (split_.window.count() > 0) {
    token.next_in_queue = nullptr;
    if (waiting_tail_) waiting_tail_->next_in_queue = &token;
    else waiting_head_ = &token;
    waiting_tail_ = &token;
    pump();
    return;
  }
  // Build every packet first, then hand them on in order (same time, FIFO downstream).
  Packet* first = &token;
  Packet* prev = nullptr;
  for (std::int32_t i = 0; i < n; ++i) {
    Packet* p = i == 0 ? &token : ctx_.packets.acquire();
    if (i > 0) {
      p->msg = token.msg;
      p->route = token.route;
      p->stamp = token.stamp;
      p->ledger = token.ledger;
      p->trail = token.trail;
    }
    set_up(*p, m, i, n, frame_wire_bytes(split_.frame, frame_pos(i, n), payload_of(m, i), split_.layer));
    if (prev) prev->next_in_queue = p;
    prev = p;
  }
  for (Packet* p = first; p;) {
    Packet* next = p->next_in_queue;
    p->next_in_queue = nullptr;
    forward(*p);
    p = next;
  }
}

void SplitStage::stamp_wire(Message& m, const Route& r, std::int32_t n) {
  m.frame = static_cast<std::uint8_t>(split_.frame);
  // Frames from side 0 go to the responder's QP, from side 1 to the requester's.
  m.dest_qp = kFirstQpn + 2 * r.connection + (side_ == 0 ? 1 : 0);
  if (split_.frame == FrameKind::roce_ack) return;  // carries the PSN and MSN of what it acknowledges
  constexpr std::uint32_t mask = 0xFFFFFF;
  m.psn = next_psn_;
  m.acked_psn = (next_psn_ + static_cast<std::uint32_t>(n) - 1) & mask;
  next_psn_ = (next_psn_ + static_cast<std::uint32_t>(n)) & mask;
  m.msn = ++msn_ & mask;
}

void SplitStage::transmitting(const Packet& p) {
  in_flight_ -= p.wire.count();
  pump();
}

void SplitStage::pump() {
  for (;;) {
    if (!current_) {
      if (!waiting_head_) return;
      current_ = waiting_head_;
      waiting_head_ = current_->next_in_queue;
      if (!waiting_head_) waiting_tail_ = nullptr;
      next_ = 0;
      count_ = current_->msg->packets;
    }
    const Message& m = *current_->msg;
    const Bytes wire = frame_wire_bytes(split_.frame, frame_pos(next_, count_), payload_of(m, next_), split_.layer);
    if (in_flight_ > 0 && in_flight_ + wire.count() > split_.window.count()) return;
    // The last packet is the token itself; the others are copies of it at the split.
    Packet* p = next_ + 1 == count_ ? current_ : ctx_.packets.acquire();
    if (p != current_) {
      p->msg = current_->msg;
      p->route = current_->route;
      p->stamp = current_->stamp;
      p->ledger = current_->ledger;
      p->trail = current_->trail;
    }
    set_up(*p, m, next_, count_, wire);
    p->charge(Category::queue, ctx_.sched.now(), site_);  // waited for the window (zero if not)
    p->pacer = this;
    in_flight_ += wire.count();
    if (++next_ == count_) current_ = nullptr;
    forward(*p);
  }
}

bool MergeStage::count(Packet& p) {
  Message& m = *p.msg;
  if (p.index < m.next_index)
    ++ctx_.out_of_order;
  else
    m.next_index = p.index + 1;
  if (++m.arrived < m.packets) {
    ctx_.packets.release(&p);
    return false;
  }
  m.arrived = 0;
  m.next_index = 0;
  return true;
}

void MergeStage::complete(Packet& p) {
  const Message& m = *p.msg;
  p.payload = m.size;
  p.index = 0;
  p.pos = FramePos::only;
  forward(p);
}

}  // namespace rdmasim
