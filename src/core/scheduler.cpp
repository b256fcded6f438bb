#include "core/scheduler.hpp"

#include <stdexcept>

namespace rdmasim {

void Scheduler::schedule_at(Time at, EventHandler& h, std::uint64_t arg) {
  if (at < now_) throw std::logic_error("Scheduler: event scheduled in the past");
  Entry e{at, next_seq_++, &h, arg};
  // Sift up with a hole: move parents down until e's place is found.
  std::size_t i = heap_.size();
  heap_.push_back(e);
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!earlier(e, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void Scheduler::pop_into(Entry& out) {
  out = heap_.front();
  const Entry last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == 0) return;
  // Sift the former last entry down from the root.
  std::size_t i = 0;
  for (;;) {
    const std::size_t first = 4 * i + 1;
    if (first >= n) break;
    std::size_t best = first;
    const std::size_t end = first + 4 < n ? first + 4 : n;
    for (std::size_t c = first + 1; c < end; ++c)
      if (earlier(heap_[c], heap_[best])) best = c;
    if (!earlier(heap_[best], last)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = last;
}

bool Scheduler::step() {
  if (heap_.empty()) return false;
  Entry e;
  pop_into(e);
  now_ = e.at;
  ++executed_;
  e.handler->on_event(e.arg);
  return true;
}

void Scheduler::run() {
  stopped_ = false;
  while (!stopped_ && step()) {
  }
}

void Scheduler::run_until(Time limit) {
  stopped_ = false;
  while (!stopped_ && !heap_.empty() && heap_.front().at <= limit) step();
}

}  // namespace rdmasim
