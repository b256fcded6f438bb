// The ibv_* entry points and the Cluster: argument checks, then the component that does the
// work. Every misuse a real program could make here (null or destroyed objects, objects of
// another device, out-of-range sizes) is a defined errno, never undefined behaviour.
#include <cerrno>

#include "verbs/device.hpp"
#include "verbs/rc_connection.hpp"
#include "verbs/world.hpp"

namespace rdmasim::verbs {
namespace {
Device* dev(ibv_context* c) { return static_cast<Device*>(c); }
Pd* live(ibv_pd* p) {
  auto* x = static_cast<Pd*>(p);
  return x && x->alive ? x : nullptr;
}
CompletionQueue* live(ibv_cq* c) {
  auto* x = static_cast<CompletionQueue*>(c);
  return x && x->alive ? x : nullptr;
}
template <typename T>
T* fail(int e) {
  errno = e;
  return nullptr;
}
}  // namespace

const char* ibv_wc_status_str(ibv_wc_status status) {
  static const char* const kNames[] = {"success",
                                       "local length error",
                                       "local QP operation error",
                                       "local EE context operation error",
                                       "local protection error",
                                       "Work Request Flushed Error",
                                       "memory management operation error",
                                       "bad response error",
                                       "local access error",
                                       "remote invalid request error",
                                       "remote access error",
                                       "remote operation error",
                                       "transport retry counter exceeded",
                                       "RNR retry counter exceeded",
                                       "local RDD violation error",
                                       "remote invalid RD request",
                                       "aborted error",
                                       "invalid EE context number",
                                       "invalid EE context state",
                                       "fatal error",
                                       "response timeout error",
                                       "general error",
                                       "TM error",
                                       "TM software rendezvous"};
  return status < std::size(kNames) ? kNames[status] : "unknown";
}

const char* ibv_qp_state_str(ibv_qp_state s) {
  static const char* const kNames[] = {"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR", "UNKNOWN"};
  return s < std::size(kNames) ? kNames[s] : "UNKNOWN";
}

int ibv_query_port(ibv_context* context, std::uint8_t port_num, ibv_port_attr* a) {
  if (!context || !a || port_num != 1) return EINVAL;
  *a = ibv_port_attr{};
  a->lid = static_cast<std::uint16_t>(context->host + 1);
  return 0;
}

ibv_pd* ibv_alloc_pd(ibv_context* context) {
  if (!context) return fail<ibv_pd>(EINVAL);
  return dev(context)->alloc_pd();
}

int ibv_dealloc_pd(ibv_pd* pd) {
  Pd* p = live(pd);
  if (!p) return EINVAL;
  if (p->users > 0 || dev(p->context)->mrs().count(p) > 0) return EBUSY;
  p->alive = false;
  return 0;
}

ibv_mr* ibv_reg_mr(ibv_pd* pd, void* addr, std::size_t length, unsigned access) {
  Pd* p = live(pd);
  if (!p) return fail<ibv_mr>(EINVAL);
  int err = 0;
  ibv_mr* mr = dev(p->context)->mrs().reg(p->context, p, addr, length, access, &err);
  if (!mr) errno = err;
  return mr;
}

int ibv_dereg_mr(ibv_mr* mr) {
  if (!mr || !mr->context) return EINVAL;
  return dev(mr->context)->mrs().dereg(mr);
}

ibv_cq* ibv_create_cq(ibv_context* context, int cqe, void*, void* channel, int) {
  if (!context || cqe < 1 || cqe > 4'194'303) return fail<ibv_cq>(EINVAL);
  if (channel) return fail<ibv_cq>(EOPNOTSUPP);  // completion channels are not modelled
  return dev(context)->create_cq(cqe);
}

int ibv_destroy_cq(ibv_cq* cq) {
  CompletionQueue* c = live(cq);
  if (!c) return EINVAL;
  if (c->users > 0 || c->waiter()) return EBUSY;
  c->alive = false;
  return 0;
}

ibv_qp* ibv_create_qp(ibv_pd* pd, ibv_qp_init_attr* a) {
  Pd* p = live(pd);
  if (!p || !a) return fail<ibv_qp>(EINVAL);
  CompletionQueue* s = live(a->send_cq);
  CompletionQueue* r = live(a->recv_cq);
  if (!s || !r || s->context != p->context || r->context != p->context || a->srq) return fail<ibv_qp>(EINVAL);
  if (a->qp_type != IBV_QPT_RC) return fail<ibv_qp>(EOPNOTSUPP);  // only RC is modelled
  const ibv_qp_cap& c = a->cap;
  if (c.max_send_wr < 1 || c.max_send_wr > kMaxQueueDepth || c.max_recv_wr < 1 || c.max_recv_wr > kMaxQueueDepth ||
      c.max_send_sge < 1 || c.max_send_sge > kMaxSge || c.max_recv_sge > kMaxSge || c.max_inline_data > kMaxInline)
    return fail<ibv_qp>(EINVAL);
  return dev(p->context)->create_qp(*p, *a);
}

int ibv_modify_qp(ibv_qp* qp, ibv_qp_attr* attr, int mask) {
  if (!qp || !attr) return EINVAL;
  return static_cast<QueuePair*>(qp)->modify(*attr, mask);
}

int ibv_query_qp(ibv_qp* qp, ibv_qp_attr* attr, int, ibv_qp_init_attr* init) {
  if (!qp) return EINVAL;
  return static_cast<QueuePair*>(qp)->query(attr, init);
}

int ibv_destroy_qp(ibv_qp* qp) {
  if (!qp) return EINVAL;
  return static_cast<QueuePair*>(qp)->destroy();
}

int ibv_post_send(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad_wr) {
  if (!qp) {
    if (bad_wr) *bad_wr = wr;
    return EINVAL;
  }
  return static_cast<QueuePair*>(qp)->post_send(wr, bad_wr);
}

int ibv_post_recv(ibv_qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad_wr) {
  if (!qp) {
    if (bad_wr) *bad_wr = wr;
    return EINVAL;
  }
  return static_cast<QueuePair*>(qp)->post_recv(wr, bad_wr);
}

int ibv_poll_cq(ibv_cq* cq, int num_entries, ibv_wc* wc) {
  CompletionQueue* c = live(cq);
  if (!c || num_entries < 0 || (num_entries > 0 && !wc)) return -EINVAL;
  const Time t = dev(c->context)->now();
  return c->pop(num_entries, wc, t, Ledger{});
}

// ---- Cluster ----
struct Cluster::Impl {
  explicit Impl(const ClusterConfig& c) : w(c) {}
  World w;
};

Cluster::Cluster(const ClusterConfig& c) : impl_(std::make_unique<Impl>(c)) {}
Cluster::~Cluster() = default;
int Cluster::hosts() const { return impl_->w.host_count(); }
ibv_context* Cluster::open_device(int host) {
  if (host < 0 || host >= hosts()) return fail<ibv_context>(EINVAL);
  return &impl_->w.device(host);
}
void Cluster::spawn(int host, Task app) {
  if (host < 0 || host >= hosts()) throw std::invalid_argument("spawn: no host " + std::to_string(host));
  impl_->w.spawn(host, app.release());
}
bool Cluster::run() {
  impl_->w.run();
  impl_->w.rethrow();
  return impl_->w.all_done();
}
void Cluster::run_until(Time limit) {
  impl_->w.sched().run_until(limit);
  impl_->w.rethrow();
}
Time Cluster::now() const { return impl_->w.sched().now(); }
VerbsCpuUsage Cluster::cpu(int host) const { return impl_->w.device(host).cpu().usage(); }
std::string Cluster::waiting() const { return impl_->w.waiting(); }
RcStats Cluster::transport(const ibv_qp* qp) const {
  for (int h = 0; qp && h < hosts(); ++h) {
    Device& d = impl_->w.device(h);
    if (qp->context != &d) continue;
    const QueuePair* q = d.find_qp(qp->qp_num);
    if (q == qp && q->connection()) return q->connection()->stats();
  }
  return {};
}
std::uint64_t Cluster::events() const { return impl_->w.sched().executed(); }

}  // namespace rdmasim::verbs
