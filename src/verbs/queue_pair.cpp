#include "verbs/queue_pair.hpp"

#include <cerrno>
#include <cstring>

#include "verbs/completion_queue.hpp"
#include "verbs/device.hpp"
#include "verbs/qp_state.hpp"
#include "verbs/rc_connection.hpp"
#include "verbs/world.hpp"

namespace rdmasim::verbs {
namespace {

ibv_wc_opcode wc_opcode(ibv_wr_opcode op) {
  switch (op) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM: return IBV_WC_RDMA_WRITE;
    case IBV_WR_SEND:
    case IBV_WR_SEND_WITH_IMM: return IBV_WC_SEND;
    case IBV_WR_RDMA_READ: return IBV_WC_RDMA_READ;
    case IBV_WR_ATOMIC_CMP_AND_SWP: return IBV_WC_COMP_SWAP;
    case IBV_WR_ATOMIC_FETCH_AND_ADD: return IBV_WC_FETCH_ADD;
  }
  return IBV_WC_SEND;
}

bool is_read_like(ibv_wr_opcode op) {
  return op == IBV_WR_RDMA_READ || op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD;
}

constexpr unsigned kKnownFlags = IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED | IBV_SEND_INLINE;

}  // namespace

QueuePair::QueuePair(Device& dev, Pd& pd_in, const ibv_qp_init_attr& a, std::uint32_t qpn)
    : dev_(dev), init_(a), sq_(a.cap.max_send_wr), rq_(a.cap.max_recv_wr) {
  context = &dev;
  qp_context = a.qp_context;
  pd = &pd_in;
  send_cq = a.send_cq;
  recv_cq = a.recv_cq;
  qp_num = qpn;
  state = IBV_QPS_RESET;
  qp_type = IBV_QPT_RC;
  attr_.cap = a.cap;
}

QueuePair::~QueuePair() = default;

int QueuePair::modify(const ibv_qp_attr& a, int mask) {
  if (!alive_) return EINVAL;
  ibv_qp_state next;
  if (int e = check_modify(state, a, mask, &next)) return e;
  const auto m = static_cast<unsigned>(mask);
  if ((m & IBV_QP_AV) && a.ah_attr.dlid > dev_.world().host_count()) return EINVAL;
  if (m & IBV_QP_ACCESS_FLAGS) attr_.qp_access_flags = a.qp_access_flags;
  if (m & IBV_QP_PKEY_INDEX) attr_.pkey_index = a.pkey_index;
  if (m & IBV_QP_PORT) attr_.port_num = a.port_num;
  if (m & IBV_QP_AV) attr_.ah_attr = a.ah_attr;
  if (m & IBV_QP_PATH_MTU) attr_.path_mtu = a.path_mtu;
  if (m & IBV_QP_DEST_QPN) attr_.dest_qp_num = a.dest_qp_num;
  if (m & IBV_QP_RQ_PSN) attr_.rq_psn = a.rq_psn;
  if (m & IBV_QP_SQ_PSN) attr_.sq_psn = a.sq_psn;
  if (m & IBV_QP_MAX_DEST_RD_ATOMIC) attr_.max_dest_rd_atomic = a.max_dest_rd_atomic;
  if (m & IBV_QP_MAX_QP_RD_ATOMIC) attr_.max_rd_atomic = a.max_rd_atomic;
  if (m & IBV_QP_MIN_RNR_TIMER) attr_.min_rnr_timer = a.min_rnr_timer;
  if (m & IBV_QP_TIMEOUT) attr_.timeout = a.timeout;
  if (m & IBV_QP_RETRY_CNT) attr_.retry_cnt = a.retry_cnt;
  if (m & IBV_QP_RNR_RETRY) attr_.rnr_retry = a.rnr_retry;
  const ibv_qp_state from = state;
  if (next == IBV_QPS_RESET) {
    reset_queues();
    if (conn_) conn_->close();
    conn_ = nullptr;
  } else if (next == IBV_QPS_ERR) {
    to_error();
  } else if (from == IBV_QPS_INIT && next == IBV_QPS_RTR) {
    const int remote = attr_.ah_attr.dlid - 1;
    const Bytes mtu{std::int64_t{128} << attr_.path_mtu};
    conns_.push_back(std::make_unique<RcConnection>(dev_.world(), *this, remote, attr_.dest_qp_num, mtu));
    conn_ = conns_.back().get();
    expected_seq = 0;
  } else if (from == IBV_QPS_RTR && next == IBV_QPS_RTS) {
    next_seq_ = 0;
  }
  state = next;
  attr_.qp_state = attr_.cur_qp_state = next;
  return 0;
}

int QueuePair::query(ibv_qp_attr* a, ibv_qp_init_attr* init) const {
  if (!alive_ || !a || !init) return EINVAL;
  *a = attr_;
  a->qp_state = a->cur_qp_state = state;
  *init = init_;
  return 0;
}

int QueuePair::post_send(ibv_send_wr* wr, ibv_send_wr** bad) {
  if (bad) *bad = wr;
  if (!alive_ || !wr || !bad) return EINVAL;
  if (state != IBV_QPS_RTS && state != IBV_QPS_ERR) return EINVAL;
  for (ibv_send_wr* w = wr; w; w = w->next) {
    *bad = w;
    if (int e = post_one_send(*w)) return e;
  }
  *bad = nullptr;
  return 0;
}

int QueuePair::post_one_send(const ibv_send_wr& wr) {
  if (wr.opcode > IBV_WR_ATOMIC_FETCH_AND_ADD || (wr.send_flags & ~kKnownFlags)) return EINVAL;
  if (wr.num_sge < 0 || static_cast<std::uint32_t>(wr.num_sge) > init_.cap.max_send_sge) return EINVAL;
  if (wr.num_sge > 0 && !wr.sg_list) return EINVAL;
  const bool atomic = wr.opcode == IBV_WR_ATOMIC_CMP_AND_SWP || wr.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD;
  const bool inl = (wr.send_flags & IBV_SEND_INLINE) != 0;
  if (inl && is_read_like(wr.opcode)) return EINVAL;
  if (atomic && (wr.num_sge != 1 || wr.sg_list[0].length != 8)) return EINVAL;
  std::uint64_t length = 0;
  for (int i = 0; i < wr.num_sge; ++i) length += wr.sg_list[i].length;
  if (inl && length > init_.cap.max_inline_data) return EINVAL;
  if (sq_count_ == sq_.size()) return ENOMEM;

  const auto cap = static_cast<std::uint32_t>(sq_.size());
  SendSlot& s = sq_[(sq_head_ + sq_count_) % cap];
  ++sq_count_;
  s.busy = true;
  s.wr_id = wr.wr_id;
  s.opcode = wr.opcode;
  s.flags = wr.send_flags;
  s.imm = wr.imm_data;
  s.num_sge = wr.num_sge;
  for (int i = 0; i < wr.num_sge; ++i) s.sge[static_cast<std::size_t>(i)] = wr.sg_list[i];
  s.remote_addr = atomic ? wr.wr.atomic.remote_addr : wr.wr.rdma.remote_addr;
  s.rkey = atomic ? wr.wr.atomic.rkey : wr.wr.rdma.rkey;
  s.compare_add = wr.wr.atomic.compare_add;
  s.swap = wr.wr.atomic.swap;
  s.length = length;
  s.seq = next_seq_++;
  s.posted = s.stamp = dev_.now();
  s.data.clear();
  if (inl) {
    // Inline data is copied into the WQE now; it needs no L_Key (man ibv_post_send).
    s.data.resize(length);
    std::uint64_t off = 0;
    for (int i = 0; i < wr.num_sge; ++i) {
      const ibv_sge& g = wr.sg_list[i];
      if (g.length) std::memcpy(s.data.data() + off, reinterpret_cast<const void*>(g.addr), g.length);
      off += g.length;
    }
  }
  dev_.cpu().post_send(dev_.now(), dev_.profile().verbs.post);
  if (state == IBV_QPS_ERR) {
    finish(s, IBV_WC_WR_FLUSH_ERR);
    return 0;
  }
  conn_->start(s);
  return 0;
}

int QueuePair::post_recv(ibv_recv_wr* wr, ibv_recv_wr** bad) {
  if (bad) *bad = wr;
  if (!alive_ || !wr || !bad) return EINVAL;
  if (state == IBV_QPS_RESET) return EINVAL;
  for (ibv_recv_wr* w = wr; w; w = w->next) {
    *bad = w;
    if (w->num_sge < 0 || static_cast<std::uint32_t>(w->num_sge) > init_.cap.max_recv_sge) return EINVAL;
    if (w->num_sge > 0 && !w->sg_list) return EINVAL;
    if (rq_count_ == rq_.size()) return ENOMEM;
    dev_.cpu().post_recv(dev_.now(), dev_.profile().verbs.post);
    dev_.post_recv_work();
    if (state == IBV_QPS_ERR) {
      ibv_wc wc;
      wc.wr_id = w->wr_id;
      wc.status = IBV_WC_WR_FLUSH_ERR;
      wc.opcode = IBV_WC_RECV;
      wc.qp_num = qp_num;
      emit(wc, *static_cast<CompletionQueue*>(recv_cq), Ledger{});
      continue;
    }
    RecvSlot& r = rq_[(rq_head_ + rq_count_) % rq_.size()];
    ++rq_count_;
    r.wr_id = w->wr_id;
    r.num_sge = w->num_sge;
    for (int i = 0; i < w->num_sge; ++i) r.sge[static_cast<std::size_t>(i)] = w->sg_list[i];
    r.posted = dev_.now();
  }
  *bad = nullptr;
  return 0;
}

void QueuePair::pop_recv() {
  rq_head_ = static_cast<std::uint32_t>((rq_head_ + 1) % rq_.size());
  --rq_count_;
}

int QueuePair::destroy() {
  if (!alive_) return EINVAL;
  reset_queues();
  if (conn_) conn_->close();
  alive_ = false;
  conn_ = nullptr;
  state = IBV_QPS_RESET;
  static_cast<Pd*>(pd)->users--;
  static_cast<CompletionQueue*>(send_cq)->users--;
  static_cast<CompletionQueue*>(recv_cq)->users--;
  return 0;
}

SendSlot* QueuePair::slot_with_seq(std::uint64_t seq) {
  if (sq_count_ == 0) return nullptr;
  const std::uint64_t first = sq_[sq_head_].seq;
  if (seq < first || seq - first >= sq_count_) return nullptr;
  return &sq_[(sq_head_ + (seq - first)) % sq_.size()];
}

SendSlot* QueuePair::oldest_pending() {
  for (std::uint32_t k = 0, i = sq_head_; k < sq_count_; ++k, i = static_cast<std::uint32_t>((i + 1) % sq_.size()))
    if (!sq_[i].done) return &sq_[i];
  return nullptr;
}

bool QueuePair::reads_before(const SendSlot& s) const {
  for (std::uint32_t k = 0, i = sq_head_; k < sq_count_; ++k, i = static_cast<std::uint32_t>((i + 1) % sq_.size())) {
    const SendSlot& o = sq_[i];
    if (&o == &s) return false;
    if (!o.done && is_read_like(o.opcode)) return true;
  }
  return false;
}

bool QueuePair::fence_blocks(const SendSlot& s) const {
  for (std::uint32_t k = 0, i = sq_head_; k < sq_count_; ++k, i = static_cast<std::uint32_t>((i + 1) % sq_.size())) {
    const SendSlot& o = sq_[i];
    if (&o == &s) break;
    if (o.fence_wait) return true;
  }
  return (s.flags & IBV_SEND_FENCE) && reads_before(s);
}

void QueuePair::release_fenced() {
  for (std::uint32_t k = 0, i = sq_head_; k < sq_count_; ++k, i = static_cast<std::uint32_t>((i + 1) % sq_.size())) {
    SendSlot& o = sq_[i];
    if (!o.fence_wait) continue;
    if ((o.flags & IBV_SEND_FENCE) && reads_before(o)) return;
    o.fence_wait = false;
    if (conn_) conn_->send_request(o);
  }
}

void QueuePair::finish(SendSlot& s, ibv_wc_status status) {
  s.done = true;
  s.status = status;
  const bool read_like = is_read_like(s.opcode);
  retire();
  if (read_like && state != IBV_QPS_ERR) release_fenced();
}

void QueuePair::retire() {
  if (retiring_) return;
  retiring_ = true;
  while (sq_count_ > 0) {
    SendSlot& s = sq_[sq_head_];
    if (!s.done) break;
    const bool error = s.status != IBV_WC_SUCCESS && s.status != IBV_WC_WR_FLUSH_ERR;
    const bool signaled = (s.flags & IBV_SEND_SIGNALED) || init_.sq_sig_all;
    if (signaled || s.status != IBV_WC_SUCCESS) {
      ibv_wc wc;
      wc.wr_id = s.wr_id;
      wc.status = s.status;
      wc.opcode = wc_opcode(s.opcode);
      wc.qp_num = qp_num;
      if (s.status == IBV_WC_SUCCESS && is_read_like(s.opcode)) wc.byte_len = static_cast<std::uint32_t>(s.length);
      Ledger l = s.ledger;
      l.add(Category::queue, dev_.now() - s.stamp);
      emit(wc, *static_cast<CompletionQueue*>(send_cq), l);
    }
    free_slot(s);
    sq_head_ = static_cast<std::uint32_t>((sq_head_ + 1) % sq_.size());
    --sq_count_;
    if (error) to_error();
  }
  retiring_ = false;
}

void QueuePair::to_error() {
  if (state == IBV_QPS_ERR) return;
  state = IBV_QPS_ERR;
  attr_.qp_state = attr_.cur_qp_state = IBV_QPS_ERR;
  if (conn_) conn_->close();  // the transport sends nothing more
  receives_held = 0;
  for (std::uint32_t k = 0, i = sq_head_; k < sq_count_; ++k, i = static_cast<std::uint32_t>((i + 1) % sq_.size())) {
    SendSlot& o = sq_[i];
    if (!o.done) {
      o.done = true;
      o.status = IBV_WC_WR_FLUSH_ERR;
    }
  }
  while (rq_count_ > 0) {
    RecvSlot& r = rq_[rq_head_];
    ibv_wc wc;
    wc.wr_id = r.wr_id;
    wc.status = IBV_WC_WR_FLUSH_ERR;
    wc.opcode = IBV_WC_RECV;
    wc.qp_num = qp_num;
    Ledger l;
    l.add(Category::queue, dev_.now() - r.posted);
    emit(wc, *static_cast<CompletionQueue*>(recv_cq), l);
    pop_recv();
  }
  retire();
}

void QueuePair::emit(const ibv_wc& wc, CompletionQueue& cq, const Ledger& l) {
  if (conn_) {
    conn_->emit(wc, cq, l, 0);
    return;
  }
  ibv_wc w = wc;
  w.ledger = l;
  dev_.cq_written(cq, w);
}

void QueuePair::free_slot(SendSlot& s) {
  s.busy = s.done = s.arrived = s.executed = s.fence_wait = false;
  ++s.gen;
  s.nak = Nak::none;
  s.attempt = s.responses = 0;
  s.request = nullptr;
  s.ledger = Ledger{};
  s.data.clear();
}

void QueuePair::reset_queues() {
  while (sq_count_ > 0) {
    free_slot(sq_[sq_head_]);
    sq_head_ = static_cast<std::uint32_t>((sq_head_ + 1) % sq_.size());
    --sq_count_;
  }
  rq_count_ = 0;
  receives_held = 0;
  next_seq_ = 0;
  expected_seq = 0;
}

}  // namespace rdmasim::verbs
