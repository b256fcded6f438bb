#include "verbs/completion_queue.hpp"

namespace rdmasim::verbs {

CompletionQueue::CompletionQueue(ibv_context* ctx, int capacity) : ring_(static_cast<std::size_t>(capacity)) {
  context = ctx;
  cqe = capacity;
}

bool CompletionQueue::push(const ibv_wc& wc, Time at) {
  if (size_ == cqe) {
    ++overruns_;
    return false;
  }
  ring_[static_cast<std::size_t>((head_ + size_) % cqe)] = Entry{wc, at};
  ++size_;
  if (waiter_) {
    Waiter* w = waiter_;
    waiter_ = nullptr;
    w->completion_arrived(*this, cookie_);
  }
  return true;
}

int CompletionQueue::pop(int n, ibv_wc* wc, Time polled_at, const Ledger& extra) {
  int k = 0;
  while (k < n && size_ > 0) {
    Entry& e = ring_[static_cast<std::size_t>(head_)];
    wc[k] = e.wc;
    wc[k].ledger.add(Category::queue, polled_at - e.at);
    wc[k].ledger.add(extra);
    head_ = (head_ + 1) % cqe;
    --size_;
    ++k;
  }
  return k;
}

}  // namespace rdmasim::verbs
