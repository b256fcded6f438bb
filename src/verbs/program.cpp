// The program model: Task (an application coroutine) and the awaitables that make simulated
// time pass for it. Coroutines are resumed only from scheduler events or from the host's poll
// path, never from inside a QP's transport, so an application may destroy what it likes.
#include <cerrno>

#include "verbs/device.hpp"
#include "verbs/world.hpp"

namespace rdmasim::verbs {

Task& Task::operator=(Task&& o) noexcept {
  if (this != &o) {
    if (h_) h_.destroy();
    h_ = o.h_;
    o.h_ = {};
  }
  return *this;
}

Task::~Task() {
  if (h_) h_.destroy();
}

void Task::await_resume() {
  if (h_ && h_.promise().error) std::rethrow_exception(h_.promise().error);
}

namespace {
Device* device_of(ibv_context* c) { return static_cast<Device*>(c); }
}  // namespace

bool PollAwaiter::await_ready() {
  auto* c = static_cast<CompletionQueue*>(cq);
  if (!c || !c->alive || n <= 0 || !wc) {
    result = -EINVAL;
    return true;
  }
  if (c->waiter()) {  // one busy-poller per CQ at a time
    result = -EBUSY;
    return true;
  }
  return false;
}

void PollAwaiter::await_suspend(std::coroutine_handle<> h) {
  h_ = h;
  device_of(cq->context)->wait_cq(*this);
}

PollAwaiter poll(ibv_cq* cq, int num_entries, ibv_wc* wc) { return PollAwaiter{cq, num_entries, wc}; }

bool MemoryAwaiter::await_ready() {
  if (!ctx || !pred) return true;
  return pred();
}

void MemoryAwaiter::await_suspend(std::coroutine_handle<> h) {
  h_ = h;
  device_of(ctx)->wait_memory(*this);
}

MemoryAwaiter poll_memory(ibv_context* ctx, std::function<bool()> pred) { return MemoryAwaiter{ctx, std::move(pred), {}}; }

void SleepAwaiter::await_suspend(std::coroutine_handle<> h) {
  Device* dev = device_of(ctx);
  dev->resume_at(dev->now() + d, h);
}

SleepAwaiter sleep(ibv_context* ctx, Time d) { return SleepAwaiter{ctx, d}; }

Time now(ibv_context* ctx) { return device_of(ctx)->now(); }

}  // namespace rdmasim::verbs
