// The registry of switch queue schedulers (rdmasim/queue_scheduler.hpp): one registration line
// per built-in component, in the order `rdmasim list` shows them.
#include "core/registry.hpp"
#include "queue/ets.hpp"
#include "queue/strict_priority.hpp"
#include "rdmasim/queue_scheduler.hpp"

namespace rdmasim {
namespace {

Registry<QueueSchedulerSpec>& registry() {
  static Registry<QueueSchedulerSpec> r = [] {
    Registry<QueueSchedulerSpec> x("queue scheduler");
    x.add(strict_priority_scheduler());
    x.add(ets_scheduler());
    return x;
  }();
  return r;
}

}  // namespace

std::vector<const QueueSchedulerSpec*> queue_schedulers() { return registry().pointers(); }

const QueueSchedulerSpec& queue_scheduler(std::string_view name) { return registry().get(name); }

void register_queue_scheduler(QueueSchedulerSpec spec) { registry().add(std::move(spec)); }

}  // namespace rdmasim
