#include "queue/strict_priority.hpp"

namespace rdmasim {

QueueSchedulerSpec strict_priority_scheduler() {
  QueueSchedulerSpec s;
  s.name = "strict-priority";
  s.description = "the highest eligible traffic class transmits first, FIFO within a class";
  s.source = "IEEE 802.1Q strict priority transmission selection";
  s.make = [](const SwitchParams&) { return std::unique_ptr<QueueScheduler>(); };
  return s;
}

}  // namespace rdmasim
