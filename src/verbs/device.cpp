#include "verbs/device.hpp"

#include <algorithm>

#include "verbs/verbs_paths.hpp"
#include "verbs/world.hpp"

namespace rdmasim::verbs {
namespace {
// Tags of the host-side tokens: the low bits say what the token is for.
constexpr std::uint64_t kTagPostRecv = 0, kTagPollCq = 1, kTagPollMemory = 2;
std::uint64_t tag(const void* p, std::uint64_t kind) { return reinterpret_cast<std::uintptr_t>(p) | kind; }
}  // namespace

Device::Device(World& w, int h, HostResources& res) : w_(w), res_(res) {
  host = h;
  const Profile& p = w.config().profile;
  poll_path_ = std::make_unique<PathInstance>(w.ctx(), std::array<HostResources*, 2>{&res, &res},
                                              VerbsPaths::poll(p), *this, &w);
  post_recv_path_ = std::make_unique<PathInstance>(w.ctx(), std::array<HostResources*, 2>{&res, &res},
                                                   VerbsPaths::post_recv(p), *this, &w);
}

Device::~Device() = default;

Time Device::now() const { return w_.sched().now(); }
const Profile& Device::profile() const { return w_.config().profile; }

Pd* Device::alloc_pd() {
  pds_.push_back(std::make_unique<Pd>());
  Pd* p = pds_.back().get();
  p->context = this;
  p->handle = static_cast<std::uint32_t>(pds_.size() - 1);
  return p;
}

CompletionQueue* Device::create_cq(int cqe) {
  cqs_.push_back(std::make_unique<CompletionQueue>(this, cqe));
  return cqs_.back().get();
}

QueuePair* Device::create_qp(Pd& pd, const ibv_qp_init_attr& a) {
  qps_.push_back(std::make_unique<QueuePair>(*this, pd, a, next_qpn_++));
  pd.users++;
  static_cast<CompletionQueue*>(a.send_cq)->users++;
  static_cast<CompletionQueue*>(a.recv_cq)->users++;
  return qps_.back().get();
}

QueuePair* Device::find_qp(std::uint32_t qpn) const {
  if (qpn < 0x11 || qpn - 0x11 >= qps_.size()) return nullptr;
  QueuePair* q = qps_[qpn - 0x11].get();
  return q->alive() ? q : nullptr;
}

bool Device::owns(const ibv_pd* p) const {
  return std::any_of(pds_.begin(), pds_.end(), [&](const auto& x) { return x.get() == p; });
}
bool Device::owns(const ibv_cq* c) const {
  return std::any_of(cqs_.begin(), cqs_.end(), [&](const auto& x) { return x.get() == c; });
}
bool Device::owns(const ibv_qp* q) const {
  return std::any_of(qps_.begin(), qps_.end(), [&](const auto& x) { return x.get() == q; });
}

void Device::post_recv_work() {
  Message& m = w_.new_message();
  m.tag = kTagPostRecv;
  post_recv_path_->post(m);
}

void Device::cq_written(CompletionQueue& cq, const ibv_wc& wc) { cq.push(wc, now()); }

void Device::dma_written(const Ledger& l) {
  for (std::size_t i = 0; i < mem_waiters_.size();) {
    MemoryAwaiter* a = mem_waiters_[i];
    if (!a->pred()) {
      ++i;
      continue;
    }
    mem_waiters_.erase(mem_waiters_.begin() + static_cast<std::ptrdiff_t>(i));
    a->result = l;
    a->landed_at_ = now();
    cpu_.spin(a->waited_from_, now());
    start_poll(tag(a, kTagPollMemory));
  }
}

void Device::start_poll(std::uint64_t t) {
  Message& m = w_.new_message();
  m.tag = t;
  poll_path_->post(m);
}

void Device::wait_cq(PollAwaiter& a) {
  auto& cq = *static_cast<CompletionQueue*>(a.cq);
  a.waited_from_ = now();
  if (cq.size() > 0) {
    a.poll_from_ = now();
    start_poll(tag(&a, kTagPollCq));
    return;
  }
  ++cq_waiters_;
  cq.set_waiter(this, &a);
}

void Device::completion_arrived(CompletionQueue&, void* cookie) {
  auto* a = static_cast<PollAwaiter*>(cookie);
  --cq_waiters_;
  cpu_.spin(a->waited_from_, now());
  a->poll_from_ = now();
  start_poll(tag(a, kTagPollCq));
}

void Device::wait_memory(MemoryAwaiter& a) {
  a.waited_from_ = now();
  mem_waiters_.push_back(&a);
}

void Device::delivered(Packet& token) {
  Message& m = *token.msg;
  const std::uint64_t t = m.tag;
  const Ledger l = token.ledger;
  w_.packets().release(&token);
  w_.messages().release(&m);
  const std::uint64_t kind = t & 3;
  if (kind == kTagPostRecv) return;
  cpu_.poll(now(), profile().verbs.poll_detect);
  if (kind == kTagPollCq) {
    auto* a = reinterpret_cast<PollAwaiter*>(t & ~std::uint64_t{3});
    auto& cq = *static_cast<CompletionQueue*>(a->cq);
    a->result = cq.pop(a->n, a->wc, a->poll_from_, l);
    if (a->result == 0) {  // another poller took them: keep polling
      wait_cq(*a);
      return;
    }
    a->h_.resume();
    return;
  }
  auto* a = reinterpret_cast<MemoryAwaiter*>(t & ~std::uint64_t{3});
  a->result.add(Category::queue, now() - l.total() - a->landed_at_);  // zero: the poll starts on landing
  a->result.add(l);
  a->h_.resume();
}

void Device::resume_at(Time at, std::coroutine_handle<> h) {
  w_.sched().schedule_at(at, *this, reinterpret_cast<std::uintptr_t>(h.address()));
}

void Device::on_event(std::uint64_t arg) { std::coroutine_handle<>::from_address(reinterpret_cast<void*>(arg)).resume(); }

std::string Device::waiting() const {
  std::string s;
  if (cq_waiters_) s += "poll_cq ";
  if (!mem_waiters_.empty()) s += "poll_memory ";
  return s;
}

}  // namespace rdmasim::verbs
