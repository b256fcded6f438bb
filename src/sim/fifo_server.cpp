#include "sim/fifo_server.hpp"

#include "sim/stages.hpp"

namespace rdmasim {

void FifoServer::enqueue(Packet& p, ServeStage& owner) {
  p.service_owner = &owner;
  p.next_in_queue = nullptr;
  if (current_ == nullptr && head_ == nullptr) {
    start(p);
    return;
  }
  if (tail_) tail_->next_in_queue = &p;
  else head_ = &p;
  tail_ = &p;
  ++queued_;
}

void FifoServer::start(Packet& p) {
  const Time now = sched_.now();
  const std::uint64_t msg = p.msg->id;
  Time own{};
  if (msg == run_msg_ && now == last_done_) {
    // The server has served this message without a break since run_start_.
    const Time from = p.stamp > run_start_ ? p.stamp : run_start_;
    own = now - from;
  } else {
    run_msg_ = msg;
    run_start_ = now;
  }
  const Time wait = now - p.stamp;
  p.ledger.add(Category::queue, wait - own);
  p.ledger.add(p.service_cat, own);
  p.stamp = now;
  current_ = &p;
  busy_time_ += p.service;
  sched_.schedule_in(p.service, *this, 0);
}

void FifoServer::on_event(std::uint64_t) {
  Packet& done = *current_;
  current_ = nullptr;
  last_done_ = sched_.now();
  ++served_;
  if (head_) {
    Packet& next = *head_;
    head_ = next.next_in_queue;
    if (!head_) tail_ = nullptr;
    --queued_;
    start(next);
  }
  static_cast<ServeStage*>(done.service_owner)->served(done);
}

}  // namespace rdmasim
