#include "queue/ets.hpp"

namespace rdmasim {

Ets::Ets(const std::array<int, 8>& weights) {
  for (unsigned tc = 0; tc < 8; ++tc) {
    quantum_[tc] = weights[tc] * kQuantumUnit;
    (weights[tc] == 0 ? strict_ : weighted_) |= 1u << tc;
  }
  turn_ = weighted_ ? static_cast<unsigned>(__builtin_ctz(weighted_)) : 0;
}

unsigned Ets::pick(const EgressClasses& c) {
  if (const unsigned s = c.eligible & strict_) return 31u - static_cast<unsigned>(__builtin_clz(s));
  // Deficit round robin over the weighted classes: terminates because an eligible class gains a
  // positive quantum every round.
  for (;;) {
    const unsigned bit = 1u << turn_;
    if (c.eligible & bit) {
      if (!granted_) deficit_[turn_] += quantum_[turn_], granted_ = true;
      if (c.head_bytes[turn_] <= deficit_[turn_]) {
        deficit_[turn_] -= c.head_bytes[turn_];
        return turn_;
      }
    } else if (!(c.backlog & bit)) {
      deficit_[turn_] = 0;  // an empty queue keeps no credit
    }
    granted_ = false;
    const unsigned later = weighted_ & ~((bit << 1) - 1);
    turn_ = static_cast<unsigned>(__builtin_ctz(later ? later : weighted_));
  }
}

QueueSchedulerSpec ets_scheduler() {
  QueueSchedulerSpec s;
  s.name = "ets";
  s.description = "weight-0 classes strict first, the rest share the port by deficit round robin in proportion "
                  "to their weights";
  s.params = "switch.ets_weights";
  s.source = "IEEE 802.1Qaz ETS; deficit round robin (Shreedhar & Varghese, SIGCOMM 1995)";
  s.make = [](const SwitchParams& p) { return std::make_unique<Ets>(p.ets_weights); };
  return s;
}

}  // namespace rdmasim
