#include "sim/stages.hpp"

#include "net/wire_format.hpp"

namespace rdmasim {

void DelayStage::receive(Packet& p) {
  Time t = cost_.eval(p.payload, p.msg->size, p.wire);
  if (cost_.jitter > Time::zero()) t += ctx_.jitter.uniform_time(cost_.jitter);
  ctx_.sched.schedule_in(t, *this, arg_of(p));
}

void DelayStage::on_event(std::uint64_t arg) {
  Packet& p = packet_of(arg);
  p.charge(cat_, ctx_.sched.now());
  forward(p);
}

void ServeStage::receive(Packet& p) {
  const Time s = cost_.eval(p.payload, p.msg->size, p.wire);
  p.service = s + head_extra(p);
  p.release = release_time(cost_, s) + head_extra(p);
  p.service_cat = cat_;
  server_.enqueue(p, *this);
}

void ServeStage::charge_service(Packet& p) {
  const Time extra = head_extra(p);
  if (extra > Time::zero()) {
    p.ledger.add(cost_.head_cat, extra);
    p.stamp += extra;
  }
  p.charge(cat_, ctx_.sched.now());
}

void SplitStage::receive(Packet& token) {
  Message& m = *token.msg;
  const std::int32_t n = split_.header_only ? 1 : packet_count(m.size, split_.segment);
  m.packets = n;
  m.arrived = 0;
  // Build every packet first, then hand them on in order (same time, FIFO downstream).
  Packet* first = &token;
  Packet* prev = nullptr;
  for (std::int32_t i = 0; i < n; ++i) {
    Packet* p = i == 0 ? &token : ctx_.packets.acquire();
    if (i > 0) {
      p->msg = token.msg;
      p->route = token.route;
      p->hop = token.hop;
      p->stamp = token.stamp;
      p->ledger = token.ledger;
    }
    p->index = i;
    p->pos = frame_pos(i, n);
    p->batch_head = true;
    p->payload = split_.header_only ? Bytes{} : packet_payload(m.size, split_.segment, i);
    p->wire = frame_wire_bytes(split_.frame, p->pos, p->payload, split_.layer);
    p->next_in_queue = nullptr;
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

void MergeStage::receive(Packet& p) {
  Message& m = *p.msg;
  if (p.index < m.next_index)
    ++ctx_.out_of_order;
  else
    m.next_index = p.index + 1;
  if (++m.arrived < m.packets) {
    ctx_.packets.release(&p);
    return;
  }
  m.arrived = 0;
  m.next_index = 0;
  p.payload = m.size;
  p.index = 0;
  p.pos = FramePos::only;
  forward(p);
}

}  // namespace rdmasim
