// QueueScheduler: which traffic class a switch egress port transmits next
// (`switch.scheduler`), and the registry of them.
//
// A switch port keeps 8 egress queues, one per traffic class, FIFO within a class. A class is
// eligible when it has a frame that may go now: not paused by PFC and, on InfiniBand, with
// credits for its head frame. The scheduler picks one eligible class per transmission. The
// default, strict priority (the highest eligible class), is the fabric's own inline path: its
// spec makes no scheduler object, so a run that keeps it pays nothing per frame.
// A component is its class plus a QueueSchedulerSpec registered under its name; a program that
// embeds rdmasim can register its own before it runs anything.
// Invariants asked of every implementation: pick() returns a class whose bit is set in
// `eligible` (never called with none), and depends only on its arguments and its own state.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rdmasim/profile.hpp"

namespace rdmasim {

/// One switch egress port's view when it may transmit.
struct EgressClasses {
  unsigned backlog = 0;   // bit tc: class tc has frames queued
  unsigned eligible = 0;  // the subset that may transmit now (never empty when asked)
  const std::int64_t* head_bytes = nullptr;  // [8]: each eligible class's head frame, wire bytes
};

class QueueScheduler {
 public:
  virtual ~QueueScheduler() = default;
  /// The class to transmit next; the fabric then sends that class's head frame.
  virtual unsigned pick(const EgressClasses& c) = 0;
};

struct QueueSchedulerSpec {
  std::string name, description;
  std::string params;  // the profile parameters it reads (a key or key prefix) or ""
  std::string source;  // where it is published
  /// One port's scheduler; null means strict priority on the fabric's inline path.
  std::function<std::unique_ptr<QueueScheduler>(const SwitchParams&)> make;
};

/// Every registered scheduler, built-ins first.
std::vector<const QueueSchedulerSpec*> queue_schedulers();
/// Throws std::invalid_argument("unknown queue scheduler \"x\" (valid: ...)").
const QueueSchedulerSpec& queue_scheduler(std::string_view name);
/// Registers a scheduler; throws std::invalid_argument for a taken or empty name.
void register_queue_scheduler(QueueSchedulerSpec spec);

}  // namespace rdmasim
