#include "workload/post_list_bw.hpp"

#include <algorithm>
#include <stdexcept>

namespace rdmasim {
namespace {
// Message::tag: a list token has the low bit set and its WQE count above it; a WQE has tag 0.
constexpr std::uint64_t kListBit = 1;
}  // namespace

PostListBw::PostListBw(SimWorld& w, const PostListPaths& paths, const Options& o) : w_(w), o_(o) {
  if (o.post_list < 1 || o.cq_mod < 1) throw std::invalid_argument("post list and CQ moderation must be at least 1");
  post_ = w_.instance(paths.post, *this);
  send_ = w_.instance(paths.send, *this);
}

void PostListBw::run() {
  posted.reserve(static_cast<std::size_t>(o_.iters));
  completed.reserve(static_cast<std::size_t>(o_.iters));
  post_list();
  w_.run();
}

void PostListBw::post_list() {
  for (;;) {
    const std::int64_t n = std::min<std::int64_t>(o_.post_list, o_.iters - next_);
    const auto in_flight = next_ - static_cast<std::int64_t>(completed.size());
    if (n <= 0 || in_flight + n > o_.tx_depth) return;
    Message& m = *w_.messages.acquire();
    m.id = static_cast<std::uint64_t>(next_);
    m.size = o_.size * n;
    m.tag = (static_cast<std::uint64_t>(n) << 1) | kListBit;
    for (std::int64_t i = 0; i < n; ++i) posted.push_back(w_.sched.now().count_ps());
    next_ += n;
    ++lists;
    post_->post(m);
  }
}

void PostListBw::delivered(Packet& token) {
  Message& m = *token.msg;
  const Time now = w_.sched.now();
  if (token.ledger.total() != now - m.posted) ++violations;
  if (m.tag & kListBit) {  // the list's WQEs are fetched: each goes on as its own message
    const auto n = static_cast<std::int64_t>(m.tag >> 1);
    const auto first = static_cast<std::int64_t>(m.id);
    const Ledger carried = token.ledger;
    const Time list_posted = m.posted;
    w_.packets.release(&token);
    w_.ctx.release_message(m);
    for (std::int64_t i = first; i < first + n; ++i) {
      Message& q = *w_.messages.acquire();
      q.id = static_cast<std::uint64_t>(i);
      q.size = o_.size;
      q.unsignaled = !is_signaled(i);
      send_->post(q, carried, list_posted);
    }
    return;
  }
  wqe_ledger_sum.add(token.ledger);
  const auto i = static_cast<std::int64_t>(m.id);
  const bool was_signaled = !m.unsignaled;
  w_.packets.release(&token);
  w_.ctx.release_message(m);
  if (!was_signaled) return;
  // A signaled completion: every WQE up to it is complete (RC completes in order).
  ++signaled;
  while (static_cast<std::int64_t>(completed.size()) <= i) completed.push_back(now.count_ps());
  post_list();
}

}  // namespace rdmasim
