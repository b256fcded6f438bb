#include "sim/fifo_server.hpp"

#include "sim/stages.hpp"

namespace rdmasim {

void FifoServer::enqueue(Packet& p, ServeStage& owner) {
  p.service_owner = &owner;
  p.next_in_queue = nullptr;
  if (!end_pending_ && head_ == nullptr && busy_until_ <= sched_.now()) {
    start(p);
    return;
  }
  if (tail_) tail_->next_in_queue = &p;
  else head_ = &p;
  tail_ = &p;
  ++queued_;
  if (!end_pending_) {  // behind a service handed on at its start: its end needs an event now
    end_pending_ = true;
    sched_.schedule_at(busy_until_, *this, 0);
  }
}

void FifoServer::start(Packet& p) {
  ServeStage& owner = *static_cast<ServeStage*>(p.service_owner);
  const Time now = sched_.now();
  path_.start(p, now, owner.site());
  busy_time_ += p.service;
  busy_until_ = now + p.service;
  if (owner.hands_on_at_start(p)) {
    // The end of this turn, done now: nothing can change it (the packet is in service alone).
    owner.charge_service(p, busy_until_);
    path_.departed(p);
    path_.freed(busy_until_);
    ++served_;
    owner.started(p);
    owner.hand_on(p, busy_until_);
    if (head_ && !end_pending_) {  // started from the queue: the next one waits for this end
      end_pending_ = true;
      sched_.schedule_at(busy_until_, *this, 0);
    }
    return;
  }
  current_ = &p;
  released_ = false;
  ending_ = true;
  end_pending_ = true;
  if (p.release < p.service)
    sched_.schedule_in(p.release, *this, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&p)));
  sched_.schedule_in(p.service, *this, 0);
  owner.started(p);  // last: it may post more work here
}

void FifoServer::on_event(std::uint64_t arg) {
  if (arg != 0) {  // early release: the packet moves on, the server stays busy
    Packet& p = *reinterpret_cast<Packet*>(static_cast<std::uintptr_t>(arg));
    ServeStage& owner = *static_cast<ServeStage*>(p.service_owner);
    owner.charge_service(p);
    // Released early (cut-through), p still holds the server until its last byte: the
    // critical path of the next packet includes that remainder.
    path_.departed(p, p.service_cat, p.service - p.release, sched_.now(), owner.site());
    released_ = true;
    current_ = nullptr;  // may be freed downstream from here on
    owner.served(p);
    return;
  }
  end_pending_ = false;
  Packet* done = nullptr;
  if (ending_) {  // else the service ended was handed on at its start: only the next one starts
    ending_ = false;
    done = released_ ? nullptr : current_;
    current_ = nullptr;
    released_ = false;
    if (done) {
      static_cast<ServeStage*>(done->service_owner)->charge_service(*done);
      path_.departed(*done);
    }
    path_.freed(sched_.now());
    ++served_;
  }
  if (head_) {
    Packet& next = *head_;
    head_ = next.next_in_queue;
    if (!head_) tail_ = nullptr;
    --queued_;
    start(next);
  }
  if (done) static_cast<ServeStage*>(done->service_owner)->served(*done);
}

}  // namespace rdmasim
