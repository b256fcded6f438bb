#include "buffer/complete_sharing.hpp"

namespace rdmasim {

BufferPolicySpec complete_sharing_policy() {
  BufferPolicySpec s;
  s.name = "complete-sharing";
  s.description = "a lossy frame is admitted whenever the shared buffer has room (one queue may fill it)";
  s.source = "Irland, IEEE Trans. Commun. 1978";
  s.make = [](const SwitchParams&) { return std::make_unique<CompleteSharing>(); };
  return s;
}

}  // namespace rdmasim
