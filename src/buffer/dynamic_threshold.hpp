// DynamicThreshold: a lossy queue may hold alpha x the free shared buffer (Choudhury & Hahne,
// "Dynamic Queue Length Thresholds for Shared-Memory Packet Switches", IEEE/ACM ToN 6(2), 1998).
// One queue alone settles at alpha B / (1 + alpha) of a buffer B; n congested queues at
// alpha B / (1 + n alpha) each, so a newly congested queue always finds room. The default of
// datacenter switch ASICs' shared buffers.
// Invariant: admits exactly when queue + frame <= alpha (shared_size - shared_used).
#pragma once

#include "rdmasim/buffer_policy.hpp"

namespace rdmasim {

class DynamicThreshold final : public BufferPolicy {
 public:
  explicit DynamicThreshold(double alpha) : alpha_(alpha) {}
  bool admit(const BufferOccupancy& o) const override {
    return static_cast<double>(o.queue + o.frame) <= alpha_ * static_cast<double>(o.shared_size - o.shared_used);
  }

 private:
  double alpha_;
};

BufferPolicySpec dynamic_threshold_policy();

}  // namespace rdmasim
