#include "workload/post_list_bw.hpp"

#include <algorithm>
#include <stdexcept>

namespace rdmasim {
namespace {
// Message::id: the QP above bit 40, the WQE's index (a list's first) below, so ids are unique
// in the world (the servers' critical-path rule compares them). Message::tag: a list token has
// the low bit set and its WQE count above it; a WQE has tag 0.
constexpr std::uint64_t kListBit = 1;
constexpr int kQpShift = 40;
constexpr std::uint64_t kIndexMask = (std::uint64_t{1} << kQpShift) - 1;
}  // namespace

PostListBw::PostListBw(SimWorld& w, const std::vector<PostListPaths>& paths, const Options& o) : w_(w), o_(o) {
  if (o.post_list < 1 || o.cq_mod < 1) throw std::invalid_argument("post list and CQ moderation must be at least 1");
  if (o.qps < 1 || static_cast<std::size_t>(o.qps) != paths.size())
    throw std::invalid_argument("a batched run needs one pair of paths per QP");
  qp_.resize(paths.size());
  for (std::size_t q = 0; q < paths.size(); ++q) {
    const int core = static_cast<int>(q) % std::max(1, o.cores);
    qp_[q].post = w_.instance(paths[q].post, *this, false, core);
    qp_[q].send = w_.instance(paths[q].send, *this, false, core);
  }
}

void PostListBw::run() {
  const auto all = static_cast<std::size_t>(o_.iters) * qp_.size();
  posted.reserve(all);
  completed.reserve(all);
  post_lists();
  w_.run();
}

void PostListBw::post_lists() {
  for (std::uint64_t q = 0; q < qp_.size(); ++q) post_list(q);
}

void PostListBw::post_list(std::uint64_t q) {
  Qp& qp = qp_[q];
  for (;;) {
    const std::int64_t n = std::min<std::int64_t>(o_.post_list, o_.iters - qp.next);
    if (n <= 0 || qp.next - qp.done + n > o_.tx_depth) return;
    Message& m = *w_.messages.acquire();
    m.id = (q << kQpShift) | static_cast<std::uint64_t>(qp.next);
    m.size = o_.size * n;
    m.tag = (static_cast<std::uint64_t>(n) << 1) | kListBit;
    for (std::int64_t i = 0; i < n; ++i) posted.push_back(w_.sched.now().count_ps());
    qp.next += n;
    ++lists;
    qp.post->post(m);
  }
}

void PostListBw::delivered(Packet& token) {
  Message& m = *token.msg;
  const Time now = w_.sched.now();
  if (token.ledger.total() != now - m.posted) ++violations;
  const std::uint64_t q = m.id >> kQpShift;
  Qp& qp = qp_[q];
  if (m.tag & kListBit) {  // the list's WQEs are fetched: each goes on as its own message
    const auto n = static_cast<std::int64_t>(m.tag >> 1);
    const auto first = static_cast<std::int64_t>(m.id & kIndexMask);
    const Ledger carried = token.ledger;
    const Time list_posted = m.posted;
    w_.packets.release(&token);
    w_.ctx.release_message(m);
    for (std::int64_t i = first; i < first + n; ++i) {
      Message& wqe = *w_.messages.acquire();
      wqe.id = (q << kQpShift) | static_cast<std::uint64_t>(i);
      wqe.size = o_.size;
      wqe.unsignaled = !is_signaled(i);
      qp.send->post(wqe, carried, list_posted);
    }
    return;
  }
  wqe_ledger_sum.add(token.ledger);
  const auto i = static_cast<std::int64_t>(m.id & kIndexMask);
  const bool was_signaled = !m.unsignaled;
  w_.packets.release(&token);
  w_.ctx.release_message(m);
  if (!was_signaled) return;
  // A signaled completion: every WQE of its QP up to it is complete (RC completes in order).
  ++signaled;
  for (; qp.done <= i; ++qp.done) completed.push_back(now.count_ps());
  post_lists();
}

}  // namespace rdmasim
