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
  if (p.stamp < now) {
    // p waited: the server has been busy without a break until now (FIFO, work-conserving).
    if (p.msg->id == last_msg_ && now == last_done_) {
      p.ledger = last_ledger_;  // critical path continues through the message's previous packet
    } else {
      p.ledger.add(Category::queue, now - p.stamp);
    }
    p.stamp = now;
  }
  current_ = &p;
  busy_time_ += p.service;
  sched_.schedule_in(p.service, *this, 0);
}

void FifoServer::on_event(std::uint64_t) {
  Packet& done = *current_;
  ServeStage& owner = *static_cast<ServeStage*>(done.service_owner);
  current_ = nullptr;
  owner.charge_service(done);
  last_done_ = sched_.now();
  last_msg_ = done.msg->id;
  last_ledger_ = done.ledger;
  ++served_;
  if (head_) {
    Packet& next = *head_;
    head_ = next.next_in_queue;
    if (!head_) tail_ = nullptr;
    --queued_;
    start(next);
  }
  owner.served(done);
}

}  // namespace rdmasim
