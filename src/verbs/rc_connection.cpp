#include "verbs/rc_connection.hpp"

#include <algorithm>
#include <cstring>

#include "verbs/completion_queue.hpp"
#include "verbs/device.hpp"
#include "verbs/responder.hpp"
#include "verbs/world.hpp"

namespace rdmasim::verbs {
namespace {

bool is_read_like(ibv_wr_opcode op) {
  return op == IBV_WR_RDMA_READ || op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD;
}
bool is_atomic(ibv_wr_opcode op) { return op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD; }
bool consumes_receive(ibv_wr_opcode op) {
  return op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM || op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

RequestKind kind_of(const SendSlot& s) {
  const bool inl = (s.flags & IBV_SEND_INLINE) != 0;
  switch (s.opcode) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM: return inl ? RequestKind::write_inline : RequestKind::write;
    case IBV_WR_SEND:
    case IBV_WR_SEND_WITH_IMM: return inl ? RequestKind::send_inline : RequestKind::send;
    default: return RequestKind::read;
  }
}

Bytes wire_size(const SendSlot& s) { return Bytes(is_atomic(s.opcode) ? 8 : static_cast<std::int64_t>(s.length)); }

// A segment's message tag: segment (3 bits) | slot index (14) | the slot's response attempt (8)
// | "holds a receive" (bit 31) | the slot's generation (32).
constexpr std::uint64_t kHoldsReceive = std::uint64_t{1} << 31;
static_assert(kMaxQueueDepth <= (1u << 14));
std::uint32_t index_of_tag(std::uint64_t tag) { return static_cast<std::uint32_t>((tag >> 3) & 0x3fff); }
std::uint32_t attempt_of_tag(std::uint64_t tag) { return static_cast<std::uint32_t>((tag >> 17) & 0xff); }

std::uint16_t sport_for(const ClusterConfig& c, std::uint32_t qpn) {
  return c.udp_sport ? *c.udp_sport : static_cast<std::uint16_t>(49152 + (qpn & 0x3fff));
}

}  // namespace

RcConnection::RcConnection(World& w, QueuePair& qp, int remote_host, std::uint32_t dest_qpn, Bytes mtu)
    : w_(w),
      qp_(qp),
      remote_(remote_host),
      dest_qpn_(dest_qpn),
      paths_(w.config().profile, w.config().link_layer, mtu,
             w.network(qp.device().host, remote_host, sport_for(w.config(), qp.qp_num))) {}

RcConnection::~RcConnection() = default;

PathInstance& RcConnection::path(std::unique_ptr<PathInstance>& slot, const PathSpec& spec) {
  if (!slot) {
    std::array<HostResources*, 2> hosts{&qp_.device().resources(), &w_.device(remote_).resources()};
    slot = std::make_unique<PathInstance>(w_.ctx(), hosts, spec, *this, &w_, rc_.get());
    slot->set_connection(qp_.qp_num);
  }
  return *slot;
}

Message& RcConnection::post_segment(PathInstance& p, SendSlot& s, Seg seg, Bytes size) {
  Message& m = w_.new_message();
  m.size = size;
  m.tag = static_cast<std::uint64_t>(seg) | (static_cast<std::uint64_t>(qp_.index_of(s)) << 3) |
          (static_cast<std::uint64_t>(s.attempt) << 17) | (static_cast<std::uint64_t>(s.gen) << 32);
  const Time now = w_.sched().now();
  s.ledger.add(s.attempt > 0 && seg == seg_response ? Category::recovery : Category::queue, now - s.stamp);
  s.stamp = now;
  if (seg == seg_request && is_read_like(s.opcode)) {
    m.rc_await_response = true;  // acknowledged by its response (rdmasim::RcConnection::answered)
    s.request = &m;
  }
  p.post(m);
  return m;
}

void RcConnection::start(SendSlot& s) {
  const bool inl = (s.flags & IBV_SEND_INLINE) != 0;
  post_segment(path(post_[inl ? 1 : 0], paths_.post(inl)), s, seg_post, wire_size(s));
}

void RcConnection::send_request(SendSlot& s) {
  if (!rc_) {
    // The transport starts with the first request, from the two QPs' attributes then. The
    // WRITE path is bound first: its ACK direction carries the transport's NAKs and CNPs.
    const PathSpec write = paths_.request(RequestKind::write);
    const StageSpec* data = nullptr;
    for (const StageSpec& st : write.stages)
      if (st.role == NetRole::rc_data) data = &st;
    RcOptions o = rc_options(*data->network);
    const ibv_qp_attr& a = qp_.attr();
    o.rc.timeout = a.timeout;
    o.rc.retry_cnt = a.retry_cnt;
    o.rc.rnr_retry = a.rnr_retry;
    const QueuePair* p = peer();
    o.rc.min_rnr_timer = (p ? p->attr() : a).min_rnr_timer;
    o.endpoint = this;
    rc_ = std::make_unique<rdmasim::RcConnection>(w_.ctx(), o);
    path(request_[static_cast<std::size_t>(RequestKind::write)], write).observe_after("B.nic.reassemble", *this);
  }
  const RequestKind k = kind_of(s);
  std::unique_ptr<PathInstance>& slot = request_[static_cast<std::size_t>(k)];
  if (!slot) {
    path(slot, paths_.request(k));
    if (k != RequestKind::read) slot->observe_after("B.nic.reassemble", *this);
  }
  post_segment(*slot, s, seg_request, wire_size(s));
}

void RcConnection::emit(const ibv_wc& wc, CompletionQueue& cq, const Ledger& l, int side) {
  std::uint32_t i;
  if (free_wcs_.empty()) {
    i = static_cast<std::uint32_t>(wcs_.size());
    wcs_.emplace_back();
  } else {
    i = free_wcs_.back();
    free_wcs_.pop_back();
  }
  wcs_[i].wc = wc;
  wcs_[i].wc.ledger = l;
  wcs_[i].cq = &cq;
  Message& m = w_.new_message();
  m.size = Bytes{};
  m.tag = static_cast<std::uint64_t>(seg_cqe) | (static_cast<std::uint64_t>(i) << 3);
  path(cqe_[static_cast<std::size_t>(side)], paths_.cqe(side)).post(m);
}

void RcConnection::close() {
  if (rc_) rc_->close();
  if (QueuePair* p = peer()) p->receives_held -= std::min(held_receives_, p->receives_held);
  held_receives_ = 0;
}

RcStats RcConnection::stats() const { return rc_ ? rc_->stats() : RcStats{}; }

SendSlot* RcConnection::slot_of(const Message& m) {
  if (!qp_.alive()) return nullptr;
  SendSlot& s = qp_.slot(index_of_tag(m.tag));
  if (!s.busy || s.done || s.gen != static_cast<std::uint32_t>(m.tag >> 32)) return nullptr;  // flushed meanwhile
  return &s;
}

void RcConnection::delivered(Packet& token) {
  Message& m = *token.msg;
  const std::uint64_t tag = m.tag;
  const std::uint32_t psn = m.rc_last_psn;
  const Ledger l = token.ledger;
  w_.packets().release(&token);
  const auto seg = static_cast<Seg>(tag & 7);
  if (seg == seg_cqe) {
    w_.messages().release(&m);
    const auto index = static_cast<std::uint32_t>(tag >> 3);
    PendingWc pw = wcs_[index];
    free_wcs_.push_back(index);
    pw.wc.ledger.add(l);
    if (pw.cq->alive) static_cast<Device*>(pw.cq->context)->cq_written(*pw.cq, pw.wc);
    return;
  }
  SendSlot* sp = slot_of(m);
  w_.ctx().release_message(m);  // a request may still be pinned by the transport's copy
  if (!sp) return;
  SendSlot& s = *sp;
  if (seg == seg_response && attempt_of_tag(tag) != s.attempt) return;  // an answer superseded by a resend
  s.ledger.add(l);
  s.stamp = w_.sched().now();
  switch (seg) {
    case seg_post: local_checks_and_gather(s); break;
    case seg_request:
      if (!is_read_like(s.opcode)) return acked(s);  // the ACK or NAK is back
      s.rc_psn = psn;  // a READ or atomic reached the responder
      return arrived(s, s.ledger);
    case seg_nak: return acked(s);
    case seg_response: response_arrived(s); break;
    case seg_cqe: break;
  }
}

void RcConnection::passed(Packet& token) {
  Message& m = *token.msg;
  if (m.tag & kHoldsReceive) {  // its receive is the responder's to consume now
    m.tag &= ~kHoldsReceive;
    if (QueuePair* p = peer(); p && p->receives_held > 0) --p->receives_held;
    if (held_receives_ > 0) --held_receives_;
  }
  SendSlot* s = slot_of(m);
  if (!s) return;
  Ledger l = s->ledger;
  l.add(token.ledger);
  arrived(*s, l);
}

void RcConnection::local_checks_and_gather(SendSlot& s) {
  if (qp_.state == IBV_QPS_ERR) return;  // flushed by the transition already
  if (s.length > kMaxMessage) return qp_.finish(s, IBV_WC_LOC_LEN_ERR);
  const bool inl = (s.flags & IBV_SEND_INLINE) != 0;
  const unsigned need = is_read_like(s.opcode) ? unsigned{IBV_ACCESS_LOCAL_WRITE} : 0u;
  if (!inl) {
    const bool gather = !is_read_like(s.opcode);
    if (gather) s.data.resize(s.length);
    std::uint64_t off = 0;
    for (int i = 0; i < s.num_sge; ++i) {
      const ibv_sge& g = s.sge[static_cast<std::size_t>(i)];
      if (g.length == 0) continue;
      std::uint8_t* p = nullptr;
      if (qp_.device().mrs().check(g.lkey, qp_.pd, g.addr, g.length, need, &p) != MrCheck::ok)
        return qp_.finish(s, IBV_WC_LOC_PROT_ERR);
      if (gather) std::memcpy(s.data.data() + off, p, g.length);
      off += g.length;
    }
  }
  if (qp_.fence_blocks(s)) {
    s.fence_wait = true;
    return;
  }
  send_request(s);
}

QueuePair* RcConnection::peer() const { return w_.device(remote_).find_qp(dest_qpn_); }

bool RcConnection::ready(const QueuePair* p) const {
  return p && (p->state == IBV_QPS_RTR || p->state == IBV_QPS_RTS) && p->connection() &&
         p->connection()->remote_host() == qp_.device().host && p->attr().dest_qp_num == qp_.qp_num;
}

bool RcConnection::responder_ready() { return ready(peer()); }

bool RcConnection::take_receive(Message& m) {
  const SendSlot* s = slot_of(m);
  if (!s || !consumes_receive(s->opcode)) return true;
  QueuePair& p = *peer();  // ready: responder_ready() said so for this packet
  if (p.receives_free() == 0) return false;
  ++p.receives_held;
  ++held_receives_;
  m.tag |= kHoldsReceive;
  return true;
}

void RcConnection::duplicate(Message& m) {
  // A READ or atomic executed already whose response was lost: answer it again.
  SendSlot* s = slot_of(m);
  if (s && is_read_like(s->opcode) && s->executed) respond_read(*s);
}

void RcConnection::failed(QpStatus why) {
  if (qp_.connection() != this) return;
  SendSlot* s = qp_.oldest_pending();
  if (!s) return qp_.to_error();
  qp_.finish(*s, why == QpStatus::rnr_retry_exc_err ? IBV_WC_RNR_RETRY_EXC_ERR : IBV_WC_RETRY_EXC_ERR);
}

void RcConnection::arrived(SendSlot& s, const Ledger& so_far) {
  // The responder executes requests in posting order: one that overtook an earlier request
  // (a READ's request is shorter than a WRITE's payload) waits for it.
  s.arrived = true;
  s.far = so_far;
  s.far_at = w_.sched().now();
  QueuePair* p = peer();
  if (!ready(p)) {  // the responder went away after the transport accepted the request
    s.nak = Nak::gone;
    if (is_read_like(s.opcode)) post_segment(path(nak_, paths_.ack()), s, seg_nak, Bytes{});
    return;
  }
  while (SendSlot* n = qp_.slot_with_seq(p->expected_seq)) {
    if (!n->arrived) break;
    n->arrived = false;
    Ledger l = n->far;
    l.add(Category::queue, w_.sched().now() - n->far_at);
    execute(*p, *n, l);
    if (n->nak != Nak::none || p->state == IBV_QPS_ERR) break;
  }
}

void RcConnection::execute(QueuePair& p, SendSlot& s, const Ledger& l) {
  const ResponderResult r = respond(p, s, qp_.qp_num);
  if (r.has_recv) emit(r.recv_wc, *static_cast<CompletionQueue*>(p.recv_cq), l, 1);
  if (r.nak == Nak::none) {
    ++p.expected_seq;
    s.executed = true;
    if (r.wrote) p.device().dma_written(l);
    if (is_read_like(s.opcode)) respond_read(s);
    return;
  }
  s.nak = r.nak;
  p.to_error();
  if (is_read_like(s.opcode)) post_segment(path(nak_, paths_.ack()), s, seg_nak, Bytes{});
  // A WRITE's or SEND's NAK travels back on its request's ACK leg.
}

void RcConnection::respond_read(SendSlot& s) {
  if (s.executed && s.responses++ > 0) ++s.attempt;  // a resend's answer: the last one counts
  post_segment(path(response_, paths_.response()), s, seg_response, wire_size(s));
}

void RcConnection::acked(SendSlot& s) {
  switch (s.nak) {
    case Nak::none: return qp_.finish(s, IBV_WC_SUCCESS);
    case Nak::access: return qp_.finish(s, IBV_WC_REM_ACCESS_ERR);
    case Nak::invalid: return qp_.finish(s, IBV_WC_REM_INV_REQ_ERR);
    case Nak::op: return qp_.finish(s, IBV_WC_REM_OP_ERR);
    // The receive it held is gone (the responder was reset meanwhile) / so is the responder.
    case Nak::rnr: return qp_.finish(s, IBV_WC_RNR_RETRY_EXC_ERR);
    case Nak::gone: return qp_.finish(s, IBV_WC_RETRY_EXC_ERR);
  }
}

void RcConnection::response_arrived(SendSlot& s) {
  if (rc_) rc_->answered(*s.request, s.rc_psn);  // the response acknowledges the request
  std::uint64_t off = 0;
  for (int i = 0; i < s.num_sge; ++i) {
    const ibv_sge& g = s.sge[static_cast<std::size_t>(i)];
    if (g.length == 0) continue;
    std::uint8_t* p = nullptr;
    // Checked again: the region may have been deregistered while the READ was in flight.
    if (qp_.device().mrs().check(g.lkey, qp_.pd, g.addr, g.length, IBV_ACCESS_LOCAL_WRITE, &p) != MrCheck::ok)
      return qp_.finish(s, IBV_WC_LOC_PROT_ERR);
    std::memcpy(p, s.data.data() + off, g.length);
    off += g.length;
  }
  qp_.device().dma_written(s.ledger);
  qp_.finish(s, IBV_WC_SUCCESS);
}

}  // namespace rdmasim::verbs
