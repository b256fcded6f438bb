// Enhanced Transmission Selection (IEEE 802.1Qaz): classes with weight 0 are strict priority
// and go first (highest first); the others share the port by deficit round robin
// (Shreedhar & Varghese, SIGCOMM 1995) in proportion to their weights (switch.ets_weights).
//
// Each weighted class gets a quantum of weight x kQuantumUnit bytes when its turn comes, and
// sends head frames while they fit its deficit; a class whose queue empties forfeits what is
// left. Over any interval in which two weighted classes stay backlogged, their transmitted
// bytes differ from the weights' ratio by at most one quantum plus one frame each.
// State: 8 deficits and the round-robin position, 80 bytes per switch port.
#pragma once

#include <array>
#include <cstdint>

#include "rdmasim/queue_scheduler.hpp"

namespace rdmasim {

class Ets final : public QueueScheduler {
 public:
  static constexpr std::int64_t kQuantumUnit = 256;  // bytes per weight point: weight 50 = 12.8 KB
  /// weights[tc]: 0 = strict priority, 1..100 = the class's share.
  explicit Ets(const std::array<int, 8>& weights);
  unsigned pick(const EgressClasses& c) override;

 private:
  std::array<std::int64_t, 8> quantum_{};  // 0 for a strict class
  std::array<std::int64_t, 8> deficit_{};
  unsigned strict_ = 0, weighted_ = 0;     // class masks
  unsigned turn_ = 0;                      // the weighted class whose turn it is
  bool granted_ = false;                   // turn_ has had its quantum this turn
};

QueueSchedulerSpec ets_scheduler();

}  // namespace rdmasim
