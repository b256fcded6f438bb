#include "verbs/rc_connection.hpp"

#include <algorithm>
#include <cstring>

#include "verbs/completion_queue.hpp"
#include "verbs/device.hpp"
#include "verbs/responder.hpp"
#include "sim/rnr_timer.hpp"
#include "verbs/world.hpp"

namespace rdmasim::verbs {
namespace {

bool is_read_like(ibv_wr_opcode op) {
  return op == IBV_WR_RDMA_READ || op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD;
}
bool is_atomic(ibv_wr_opcode op) { return op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD; }

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

constexpr std::uint64_t kTimerRnr = 0, kTimerAck = 1;

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
    slot = std::make_unique<PathInstance>(w_.ctx(), hosts, spec, *this, &w_);
    slot->set_connection(qp_.qp_num);
  }
  return *slot;
}

void RcConnection::post_segment(PathInstance& p, SendSlot& s, Seg seg, Bytes size) {
  Message& m = *w_.messages().acquire();
  m.size = size;
  m.tag = static_cast<std::uint64_t>(seg) | (static_cast<std::uint64_t>(qp_.index_of(s)) << 3) |
          (static_cast<std::uint64_t>(s.gen) << 32);
  const Time now = w_.sched().now();
  s.ledger.add(Category::queue, now - s.stamp);
  s.stamp = now;
  p.post(m);
}

void RcConnection::start(SendSlot& s) {
  const bool inl = (s.flags & IBV_SEND_INLINE) != 0;
  post_segment(path(post_[inl ? 1 : 0], paths_.post(inl)), s, seg_post, wire_size(s));
}

void RcConnection::send_request(SendSlot& s) {
  s.sent_at = w_.sched().now();
  const RequestKind k = kind_of(s);
  post_segment(path(request_[static_cast<std::size_t>(k)], paths_.request(k)), s, seg_request, wire_size(s));
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
  Message& m = *w_.messages().acquire();
  m.size = Bytes{};
  m.tag = static_cast<std::uint64_t>(seg_cqe) | (static_cast<std::uint64_t>(i) << 3);
  path(cqe_[static_cast<std::size_t>(side)], paths_.cqe(side)).post(m);
}

void RcConnection::delivered(Packet& token) {
  Message& m = *token.msg;
  const std::uint64_t tag = m.tag;
  const Ledger l = token.ledger;
  w_.packets().release(&token);
  w_.messages().release(&m);
  const auto seg = static_cast<Seg>(tag & 7);
  const auto index = static_cast<std::uint32_t>((tag >> 3) & 0x1fffffff);
  if (seg == seg_cqe) {
    PendingWc pw = wcs_[index];
    free_wcs_.push_back(index);
    pw.wc.ledger.add(l);
    if (pw.cq->alive) static_cast<Device*>(pw.cq->context)->cq_written(*pw.cq, pw.wc);
    return;
  }
  if (!qp_.alive()) return;
  SendSlot& s = qp_.slot(index);
  if (!s.busy || s.gen != static_cast<std::uint32_t>(tag >> 32)) return;  // flushed meanwhile
  s.ledger.add(l);
  s.stamp = w_.sched().now();
  switch (seg) {
    case seg_post: local_checks_and_gather(s); break;
    case seg_request: arrived(s); break;
    case seg_ack:
      if (s.nak == Nak::none) qp_.finish(s, IBV_WC_SUCCESS);
      else nak_arrived(s);
      break;
    case seg_response: response_arrived(s); break;
    case seg_cqe: break;
  }
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

void RcConnection::arrived(SendSlot& s) {
  QueuePair* p = peer();
  const bool ready = p && (p->state == IBV_QPS_RTR || p->state == IBV_QPS_RTS) && p->connection() &&
                     p->connection()->remote_host() == qp_.device().host && p->attr().dest_qp_num == qp_.qp_num;
  if (!ready) {
    // The responder drops it silently; the requester resends after its ACK timeout.
    if (const auto t = ack_timeout(qp_.attr().timeout))
      schedule_retry(s, std::max(w_.sched().now(), s.sent_at + *t), kTimerAck);
    return;
  }
  s.arrived = true;
  while (SendSlot* n = qp_.slot_with_seq(p->expected_seq)) {
    if (!n->arrived) break;
    n->arrived = false;
    execute(*p, *n);
    if (n->nak != Nak::none || p->state == IBV_QPS_ERR) break;
  }
}

void RcConnection::execute(QueuePair& p, SendSlot& s) {
  const ResponderResult r = respond(p, s, qp_.qp_num);
  if (r.has_recv) emit(r.recv_wc, *static_cast<CompletionQueue*>(p.recv_cq), s.ledger, 1);
  if (r.nak == Nak::none) {
    ++p.expected_seq;
    if (r.wrote) p.device().dma_written(s.ledger);
    if (is_read_like(s.opcode)) post_segment(path(response_, paths_.response()), s, seg_response, wire_size(s));
    else post_segment(path(ack_, paths_.ack()), s, seg_ack, Bytes{});
    return;
  }
  s.nak = r.nak;
  if (r.nak == Nak::rnr) s.rnr_timer = p.attr().min_rnr_timer;
  else p.to_error();
  post_segment(path(ack_, paths_.ack()), s, seg_ack, Bytes{});
}

void RcConnection::nak_arrived(SendSlot& s) {
  switch (s.nak) {
    case Nak::rnr: {
      const std::uint8_t limit = qp_.attr().rnr_retry;
      if (limit != kInfiniteRnrRetry && s.rnr_tries >= limit) return qp_.finish(s, IBV_WC_RNR_RETRY_EXC_ERR);
      ++s.rnr_tries;
      s.nak = Nak::none;
      schedule_retry(s, w_.sched().now() + rnr_timer_delay(s.rnr_timer), kTimerRnr);
      return;
    }
    case Nak::access: return qp_.finish(s, IBV_WC_REM_ACCESS_ERR);
    case Nak::invalid: return qp_.finish(s, IBV_WC_REM_INV_REQ_ERR);
    case Nak::op: return qp_.finish(s, IBV_WC_REM_OP_ERR);
    case Nak::none: return;
  }
}

void RcConnection::response_arrived(SendSlot& s) {
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

void RcConnection::schedule_retry(SendSlot& s, Time at, std::uint64_t kind) {
  w_.sched().schedule_at(at, *this,
                         kind | (static_cast<std::uint64_t>(qp_.index_of(s)) << 1) | (static_cast<std::uint64_t>(s.gen) << 32));
}

void RcConnection::on_event(std::uint64_t arg) {
  if (!qp_.alive() || qp_.state == IBV_QPS_ERR) return;
  SendSlot& s = qp_.slot(static_cast<std::uint32_t>((arg >> 1) & 0x7fffffff));
  if (!s.busy || s.gen != static_cast<std::uint32_t>(arg >> 32)) return;
  if ((arg & 1) == kTimerAck) {
    if (s.retries >= qp_.attr().retry_cnt) return qp_.finish(s, IBV_WC_RETRY_EXC_ERR);
    ++s.retries;
  }
  send_request(s);
}

}  // namespace rdmasim::verbs
