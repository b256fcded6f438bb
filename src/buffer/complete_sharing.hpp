// CompleteSharing: a lossy frame is admitted whenever the shared buffer has room for it, so one
// congested queue can take the whole buffer and starve the others (Irland, "Buffer Management
// in a Packet Switch", IEEE Trans. Commun. 1978; the baseline of Choudhury & Hahne 1998).
// Invariant: admits every frame (the fabric's own check of the shared buffer decides).
#pragma once

#include "rdmasim/buffer_policy.hpp"

namespace rdmasim {

class CompleteSharing final : public BufferPolicy {
 public:
  bool admit(const BufferOccupancy&) const override { return true; }
};

BufferPolicySpec complete_sharing_policy();

}  // namespace rdmasim
