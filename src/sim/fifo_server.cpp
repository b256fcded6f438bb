#include "sim/fifo_server.hpp"

#include "sim/stages.hpp"

namespace rdmasim {

void FifoServer::enqueue(Packet& p, ServeStage& owner) {
  p.service_owner = &owner;
  p.next_in_queue = nullptr;
  if (!busy_ && head_ == nullptr) {
    start(p);
    return;
  }
  if (tail_) tail_->next_in_queue = &p;
  else head_ = &p;
  tail_ = &p;
  ++queued_;
}

void FifoServer::start(Packet& p) {
  path_.start(p, sched_.now(), static_cast<ServeStage*>(p.service_owner)->site());
  current_ = &p;
  busy_ = true;
  released_ = false;
  busy_time_ += p.service;
  if (p.release < p.service)
    sched_.schedule_in(p.release, *this, static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&p)));
  sched_.schedule_in(p.service, *this, 0);
  static_cast<ServeStage*>(p.service_owner)->started(p);  // last: it may post more work here
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
  Packet* done = released_ ? nullptr : current_;
  current_ = nullptr;
  released_ = false;
  busy_ = false;
  if (done) {
    static_cast<ServeStage*>(done->service_owner)->charge_service(*done);
    path_.departed(*done);
  }
  path_.freed(sched_.now());
  ++served_;
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
