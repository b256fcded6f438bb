#include "verbs/verbs_latency.hpp"

#include <array>
#include <stdexcept>
#include <vector>

#include "model/path.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/verbs.hpp"

namespace rdmasim::verbs {
namespace {

struct Side {
  ibv_context* ctx = nullptr;
  ibv_pd* pd = nullptr;
  ibv_cq* cq = nullptr;
  ibv_qp* qp = nullptr;
  ibv_mr* mr = nullptr;
  std::uint16_t lid = 0;
  std::vector<std::uint8_t> buf;  // [0, size): what this side sends; [size, 2 size): where it receives
  std::size_t size = 0;
  std::uint8_t* in() { return buf.data() + size; }
};

void check(bool ok, const char* what) {
  if (!ok) throw std::logic_error(std::string("verbs lat: ") + what);
}

void set_up(Side& s, ibv_context* ctx, std::size_t size, std::uint32_t max_inline) {
  s.ctx = ctx;
  s.pd = ibv_alloc_pd(ctx);
  s.cq = ibv_create_cq(ctx, 4096);
  s.size = size;
  s.buf.assign(2 * size, 0);
  s.mr = ibv_reg_mr(s.pd, s.buf.data(), 2 * size,
                    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
  ibv_qp_init_attr a;
  a.send_cq = a.recv_cq = s.cq;
  a.cap = ibv_qp_cap{4096, 4096, 1, 1, max_inline};
  s.qp = ibv_create_qp(s.pd, &a);
  ibv_port_attr port;
  check(s.pd && s.cq && s.mr && s.qp && ibv_query_port(ctx, 1, &port) == 0, "set-up failed");
  s.lid = port.lid;
}

ibv_mtu mtu_enum(Bytes mtu) {
  switch (mtu.count()) {
    case 256: return IBV_MTU_256;
    case 512: return IBV_MTU_512;
    case 1024: return IBV_MTU_1024;
    case 2048: return IBV_MTU_2048;
    default: return IBV_MTU_4096;
  }
}

void connect(Side& s, const Side& peer, ibv_mtu mtu) {
  ibv_qp_attr a;
  a.qp_state = IBV_QPS_INIT;
  a.port_num = 1;
  a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
  check(ibv_modify_qp(s.qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) == 0, "INIT");
  a.qp_state = IBV_QPS_RTR;
  a.path_mtu = mtu;
  a.dest_qp_num = peer.qp->qp_num;
  a.ah_attr.dlid = peer.lid;
  a.max_dest_rd_atomic = 1;
  a.min_rnr_timer = 12;
  check(ibv_modify_qp(s.qp, &a,
                      IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                          IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER) == 0,
        "RTR");
  a.qp_state = IBV_QPS_RTS;
  a.timeout = 14;
  a.retry_cnt = 7;
  a.rnr_retry = 7;
  a.max_rd_atomic = 1;
  check(ibv_modify_qp(s.qp, &a,
                      IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                          IBV_QP_TIMEOUT) == 0,
        "RTS");
}

struct Exchange {
  LatConfig c;
  bool inl = false;
  std::size_t n = 0;  // iterations
  std::vector<std::int64_t> samples;
  std::vector<Ledger> ledgers;  // per sample: the iteration's messages' ledgers
};

// WRITE/SEND: from our send area into the peer's receive area; READ: the peer's send area into
// our receive area.
int post(Side& s, Side& peer, ibv_wr_opcode op, bool inl, std::size_t size) {
  const bool read = op == IBV_WR_RDMA_READ;
  std::uint8_t* local = read ? s.in() : s.buf.data();
  std::uint8_t* remote = read ? peer.buf.data() : peer.in();
  ibv_sge sge{reinterpret_cast<std::uintptr_t>(local), static_cast<std::uint32_t>(size), s.mr->lkey};
  ibv_send_wr wr;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.opcode = op;
  wr.send_flags = (inl ? unsigned{IBV_SEND_INLINE} : 0u) | (op == IBV_WR_RDMA_READ ? unsigned{IBV_SEND_SIGNALED} : 0u);
  wr.wr.rdma.remote_addr = reinterpret_cast<std::uintptr_t>(remote);
  wr.wr.rdma.rkey = peer.mr->rkey;
  ibv_send_wr* bad = nullptr;
  return ibv_post_send(s.qp, &wr, &bad);
}

int post_recv(Side& s, std::size_t size) {
  ibv_sge sge{reinterpret_cast<std::uintptr_t>(s.in()), static_cast<std::uint32_t>(size), s.mr->lkey};
  ibv_recv_wr wr;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  ibv_recv_wr* bad = nullptr;
  return ibv_post_recv(s.qp, &wr, &bad);
}

// ib_write_lat: the client writes the whole buffer, its last byte counting iterations; the
// server spins on its last byte, then writes back the same way.
Task write_client(Exchange& e, Side& me, Side& peer, Ledger* back) {
  const std::size_t n = me.size;
  for (std::size_t i = 0; i < e.n; ++i) {
    const Time t0 = now(me.ctx);
    const auto mark = static_cast<std::uint8_t>(i + 1);
    me.buf[n - 1] = mark;
    check(post(me, peer, IBV_WR_RDMA_WRITE, e.inl, n) == 0, "post_send");
    const Ledger l = co_await poll_memory(me.ctx, [&me, n, mark] { return me.in()[n - 1] == mark; });
    Ledger it = back[i];
    it.add(l);
    e.ledgers.push_back(it);
    e.samples.push_back((now(me.ctx) - t0).count_ps());
  }
}

Task write_server(Exchange& e, Side& me, Side& peer, Ledger* forward) {
  const std::size_t n = me.size;
  for (std::size_t i = 0; i < e.n; ++i) {
    const auto mark = static_cast<std::uint8_t>(i + 1);
    forward[i] = co_await poll_memory(me.ctx, [&me, n, mark] { return me.in()[n - 1] == mark; });
    me.buf[n - 1] = mark;
    check(post(me, peer, IBV_WR_RDMA_WRITE, e.inl, n) == 0, "post_send");
  }
}

// ib_read_lat: one READ per iteration, completion polled from the CQ.
Task read_client(Exchange& e, Side& me, Side& peer) {
  for (std::size_t i = 0; i < e.n; ++i) {
    const Time t0 = now(me.ctx);
    check(post(me, peer, IBV_WR_RDMA_READ, false, me.size) == 0, "post_send");
    ibv_wc wc;
    check(co_await poll(me.cq, 1, &wc) == 1 && wc.status == IBV_WC_SUCCESS, "READ completion");
    e.ledgers.push_back(wc.ledger);
    e.samples.push_back((now(me.ctx) - t0).count_ps());
  }
}

// ib_send_lat: SEND/RECV ping-pong; each side re-posts its receive after its own send.
Task send_client(Exchange& e, Side& me, Side& peer, Ledger* forward) {
  for (std::size_t i = 0; i < e.n; ++i) {
    const Time t0 = now(me.ctx);
    check(post(me, peer, IBV_WR_SEND, e.inl, me.size) == 0, "post_send");
    if (i > 0) check(post_recv(me, me.size) == 0, "post_recv");
    ibv_wc wc;
    check(co_await poll(me.cq, 1, &wc) == 1 && wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV,
          "RECV completion");
    Ledger it = forward[i];
    it.add(wc.ledger);
    e.ledgers.push_back(it);
    e.samples.push_back((now(me.ctx) - t0).count_ps());
  }
}

Task send_server(Exchange& e, Side& me, Side& peer, Ledger* forward) {
  for (std::size_t i = 0; i < e.n; ++i) {
    ibv_wc wc;
    check(co_await poll(me.cq, 1, &wc) == 1 && wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV,
          "RECV completion");
    forward[i] = wc.ledger;
    check(post(me, peer, IBV_WR_SEND, e.inl, me.size) == 0, "post_send");
    check(post_recv(me, me.size) == 0, "post_recv");
  }
}

}  // namespace

LatResult run_latency_verbs(const LatConfig& c) {
  const ExchangePaths paths = build_exchange(c);  // validates, resolves the toggles
  const ResolvedToggles& t = paths.toggles;
  if (c.transport != Transport::rdma || !t.kernel_bypass || !t.zero_copy || !t.busy_poll || t.interrupt_coalescing)
    throw std::invalid_argument(
        "verbs runs RDMA with kernel bypass, zero copy and busy polling (no interrupt coalescing)");
  ClusterConfig cc;
  cc.profile = c.profile;
  cc.link_layer = c.link_layer;
  cc.seed = c.seed;
  int client = 0, server = 1;
  if (c.topology == LatTopology::fabric) {
    cc.fabric = c.fabric;
    cc.udp_sport = c.fabric.udp_sport;
    client = c.fabric.from;
    server = c.fabric.to;
    cc.hosts = std::max(client, server) + 1;
  }
  Cluster cluster(cc);
  const auto size = static_cast<std::size_t>(c.size.count());
  const auto max_inline = static_cast<std::uint32_t>(t.max_inline.count());
  std::array<Side, 2> s;
  set_up(s[0], cluster.open_device(client), size, max_inline);
  set_up(s[1], cluster.open_device(server), size, max_inline);
  connect(s[0], s[1], mtu_enum(c.mtu));
  connect(s[1], s[0], mtu_enum(c.mtu));

  Exchange e;
  e.c = c;
  e.inl = t.inline_data;
  const auto n = static_cast<std::size_t>(c.iters - 1);
  e.n = n;
  e.samples.reserve(n);
  e.ledgers.reserve(n);
  std::vector<Ledger> other(n);
  switch (c.test) {
    case TestKind::write:
      cluster.spawn(client, write_client(e, s[0], s[1], other.data()));
      cluster.spawn(server, write_server(e, s[1], s[0], other.data()));
      break;
    case TestKind::read: cluster.spawn(client, read_client(e, s[0], s[1])); break;
    case TestKind::send:
      // The first receives are posted during set-up, before the measured exchanges start.
      check(post_recv(s[0], size) == 0 && post_recv(s[1], size) == 0, "post_recv");
      cluster.run();
      cluster.spawn(client, send_client(e, s[0], s[1], other.data()));
      cluster.spawn(server, send_server(e, s[1], s[0], other.data()));
      break;
  }
  if (!cluster.run()) throw std::logic_error("verbs lat: an application did not finish:\n" + cluster.waiting());

  LatResult r;
  r.config = c;
  r.toggles = t;
  r.rtt_factor = paths.rtt_factor;
  r.routes = paths.routes;
  r.events = cluster.events();
  // perftest's kept set: all samples but the two largest (among equal values the later ones).
  std::array<std::size_t, 2> top{n, n};
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t v = e.samples[i];
    if (e.ledgers[i].total().count_ps() != v) ++r.invariant_violations;
    r.kept_ledger_sum.add(e.ledgers[i]);
    if (top[0] == n || v >= e.samples[top[0]]) {
      top[1] = top[0];
      top[0] = i;
    } else if (top[1] == n || v >= e.samples[top[1]]) {
      top[1] = i;
    }
  }
  for (std::size_t i : top)
    if (i < n) r.kept_ledger_sum.subtract(e.ledgers[i]);
  for (const StageSpec& st : paths.forward.stages)
    if (st.kind == StageKind::split && !st.split.header_only) {
      r.packets_per_message = packet_count(c.size, st.split.segment);
      r.wire_bytes_per_message = message_wire_bytes(st.split.frame, c.size, st.split.segment, st.split.layer);
    }
  r.stats = compute_latency_stats(e.samples, r.rtt_factor);
  return r;
}

}  // namespace rdmasim::verbs
