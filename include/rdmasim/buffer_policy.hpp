// BufferPolicy: whether a switch's shared packet buffer takes a frame into a lossy egress queue
// (`switch.buffer_policy`), and the registry of them.
//
// A switch's buffer is shared by all its ports (switch.buffer, less the PFC headroom reserved
// per ingress port). A frame of a lossless class (PFC) is admitted by ingress accounting and
// pauses its sender instead of being dropped (sim/fabric.hpp); a frame of a lossy class asks
// the policy, which sees the queue it would join and the shared buffer. The fabric drops the
// frame when the policy refuses or when the shared buffer has no room for it, whatever the
// policy says.
// A component is its class plus a BufferPolicySpec registered under its name; a program that
// embeds rdmasim can register its own before it runs anything.
// Invariant asked of every implementation: admit() is a pure function of its argument.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rdmasim/profile.hpp"

namespace rdmasim {

/// What a policy sees when a lossy frame arrives (bytes on the wire).
struct BufferOccupancy {
  std::int64_t queue = 0;        // queued at the egress queue (port and class) the frame would join
  std::int64_t frame = 0;        // the frame
  std::int64_t shared_used = 0;  // the switch's shared buffer in use (all ports and classes)
  std::int64_t shared_size = 0;  // its size (switch.buffer less the PFC headroom reserved)
};

class BufferPolicy {
 public:
  virtual ~BufferPolicy() = default;
  /// Whether the frame may join its queue (the fabric still checks that it fits the buffer).
  virtual bool admit(const BufferOccupancy& o) const = 0;
};

struct BufferPolicySpec {
  std::string name, description;
  std::string params;  // the profile parameters it reads (a key or key prefix) or ""
  std::string source;  // where it is published
  /// One switch's policy (a fabric builds one and its switches share it).
  std::function<std::unique_ptr<BufferPolicy>(const SwitchParams&)> make;
};

/// Every registered policy, built-ins first.
std::vector<const BufferPolicySpec*> buffer_policies();
/// Throws std::invalid_argument("unknown buffer policy \"x\" (valid: ...)").
const BufferPolicySpec& buffer_policy(std::string_view name);
/// Registers a policy; throws std::invalid_argument for a taken or empty name.
void register_buffer_policy(BufferPolicySpec spec);

}  // namespace rdmasim
