#include "sim/interrupt_moderator.hpp"

#include "sim/stages.hpp"

namespace rdmasim {

void InterruptModerator::arrive(Packet& p, Stage& owner, Time usecs, int frames, bool adaptive) {
  if (pending_ > 0 && sched_.now() >= deadline_) fire();  // timer due at this instant fires first
  if (adaptive && pending_ == 0 && (!fired_ || sched_.now() - last_fire_ >= usecs)) frames = 1;
  p.service_owner = &owner;
  p.next_in_queue = nullptr;
  if (tail_) tail_->next_in_queue = &p;
  else head_ = &p;
  tail_ = &p;
  ++pending_;
  ++packets_;
  if (pending_ >= frames) {
    fire();
  } else if (pending_ == 1) {
    deadline_ = sched_.now() + usecs;
    sched_.schedule_at(deadline_, *this, generation_);
  }
}

void InterruptModerator::on_event(std::uint64_t generation) {
  if (generation == generation_ && pending_ > 0) fire();
}

void InterruptModerator::fire() {
  ++generation_;
  ++interrupts_;
  fired_ = true;
  last_fire_ = sched_.now();
  Packet* p = head_;
  head_ = tail_ = nullptr;
  pending_ = 0;
  bool first = true;
  const Time now = sched_.now();
  while (p) {
    Packet* next = p->next_in_queue;
    p->batch_head = first;
    first = false;
    const Time wait = now - p->stamp;
    total_wait_ += wait;
    if (wait > max_wait_) max_wait_ = wait;
    p->charge(Category::interrupt, now, static_cast<ModerateStage*>(p->service_owner)->site());
    static_cast<ModerateStage*>(p->service_owner)->release(*p);
    p = next;
  }
}

}  // namespace rdmasim
