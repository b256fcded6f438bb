// StaticThreshold: every lossy queue has the same fixed limit (switch.queue_limit), whatever
// the rest of the buffer holds — the static-threshold scheme Choudhury & Hahne compare dynamic
// thresholds with (IEEE/ACM ToN 1998), and a drop-tail queue of a fixed size as simulators
// commonly configure one (ns-3's QueueBase MaxSize).
// Invariant: admits exactly when queue + frame <= limit.
#pragma once

#include <cstdint>

#include "rdmasim/buffer_policy.hpp"

namespace rdmasim {

class StaticThreshold final : public BufferPolicy {
 public:
  explicit StaticThreshold(std::int64_t limit) : limit_(limit) {}
  bool admit(const BufferOccupancy& o) const override { return o.queue + o.frame <= limit_; }

 private:
  std::int64_t limit_;
};

BufferPolicySpec static_threshold_policy();

}  // namespace rdmasim
