// What every verbs program does before its first post: allocate a PD, create CQs and an RC
// QP, and take the QP through RESET -> INIT -> RTR -> RTS with the peer's LID and QP number
// (which real programs exchange over a socket or rdma_cm; here the set-up code sees both).
#pragma once

#include <cstdio>
#include <cstdlib>

#include "rdmasim/verbs.hpp"

namespace rdmasim::verbs::example {

struct Endpoint {
  ibv_context* ctx = nullptr;
  ibv_pd* pd = nullptr;
  ibv_cq* send_cq = nullptr;
  ibv_cq* recv_cq = nullptr;
  ibv_qp* qp = nullptr;
  std::uint16_t lid = 0;
};

struct QpOptions {
  std::uint32_t depth = 256;
  std::uint32_t max_inline = 64;
  unsigned access = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
  std::uint8_t min_rnr_timer = 12;  // 0.64 ms
  std::uint8_t rnr_retry = 7;       // forever
  std::uint8_t timeout = 14;        // 67 ms
  std::uint8_t retry_cnt = 7;
  ibv_mtu mtu = IBV_MTU_4096;
};

inline void die(const char* what) {
  std::fprintf(stderr, "%s\n", what);
  std::exit(1);
}

/// A QP on `ctx` (new CQs; a new PD unless one is given).
inline Endpoint make_endpoint(ibv_context* ctx, ibv_pd* pd = nullptr, const QpOptions& o = {}) {
  Endpoint e;
  e.ctx = ctx;
  e.pd = pd ? pd : ibv_alloc_pd(ctx);
  e.send_cq = ibv_create_cq(ctx, static_cast<int>(4 * o.depth));
  e.recv_cq = ibv_create_cq(ctx, static_cast<int>(4 * o.depth));
  ibv_qp_init_attr a;
  a.send_cq = e.send_cq;
  a.recv_cq = e.recv_cq;
  a.cap = ibv_qp_cap{o.depth, o.depth, 4, 4, o.max_inline};
  e.qp = ibv_create_qp(e.pd, &a);
  ibv_port_attr port;
  if (!e.pd || !e.send_cq || !e.recv_cq || !e.qp || ibv_query_port(ctx, 1, &port)) die("endpoint set-up failed");
  e.lid = port.lid;
  return e;
}

/// Takes e.qp to RTS, connected to peer.qp.
inline void connect(Endpoint& e, const Endpoint& peer, const QpOptions& o = {}) {
  ibv_qp_attr a;
  a.qp_state = IBV_QPS_INIT;
  a.port_num = 1;
  a.qp_access_flags = o.access;
  if (ibv_modify_qp(e.qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)) die("INIT");
  a.qp_state = IBV_QPS_RTR;
  a.path_mtu = o.mtu;
  a.dest_qp_num = peer.qp->qp_num;
  a.ah_attr.dlid = peer.lid;
  a.max_dest_rd_atomic = 16;
  a.min_rnr_timer = o.min_rnr_timer;
  if (ibv_modify_qp(e.qp, &a,
                    IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                        IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
    die("RTR");
  a.qp_state = IBV_QPS_RTS;
  a.timeout = o.timeout;
  a.retry_cnt = o.retry_cnt;
  a.rnr_retry = o.rnr_retry;
  a.max_rd_atomic = 16;
  if (ibv_modify_qp(e.qp, &a,
                    IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                        IBV_QP_TIMEOUT))
    die("RTS");
}

inline void connect_pair(Endpoint& a, Endpoint& b, const QpOptions& o = {}) {
  connect(a, b, o);
  connect(b, a, o);
}

inline std::uint64_t addr(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

/// Posts one WR with one SGE; returns ibv_post_send's result.
inline int post1(ibv_qp* qp, ibv_wr_opcode op, const void* local, std::uint32_t len, std::uint32_t lkey,
                 std::uint64_t remote = 0, std::uint32_t rkey = 0, unsigned flags = IBV_SEND_SIGNALED,
                 std::uint64_t wr_id = 0) {
  ibv_sge sge{addr(local), len, lkey};
  ibv_send_wr wr;
  wr.wr_id = wr_id;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.opcode = op;
  wr.send_flags = flags;
  wr.wr.rdma.remote_addr = wr.wr.atomic.remote_addr = remote;
  wr.wr.rdma.rkey = wr.wr.atomic.rkey = rkey;
  ibv_send_wr* bad = nullptr;
  return ibv_post_send(qp, &wr, &bad);
}

inline int recv1(ibv_qp* qp, void* local, std::uint32_t len, std::uint32_t lkey, std::uint64_t wr_id = 0) {
  ibv_sge sge{addr(local), len, lkey};
  ibv_recv_wr wr;
  wr.wr_id = wr_id;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  ibv_recv_wr* bad = nullptr;
  return ibv_post_recv(qp, &wr, &bad);
}

inline ibv_qp_state qp_state(ibv_qp* qp) {
  ibv_qp_attr a;
  ibv_qp_init_attr i;
  return ibv_query_qp(qp, &a, IBV_QP_STATE, &i) == 0 ? a.qp_state : IBV_QPS_UNKNOWN;
}

}  // namespace rdmasim::verbs::example
