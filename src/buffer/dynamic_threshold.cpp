#include "buffer/dynamic_threshold.hpp"

namespace rdmasim {

BufferPolicySpec dynamic_threshold_policy() {
  BufferPolicySpec s;
  s.name = "dynamic-threshold";
  s.description = "a lossy queue holds at most alpha x the free shared buffer";
  s.params = "switch.dt_alpha";
  s.source = "Choudhury & Hahne, IEEE/ACM ToN 1998";
  s.make = [](const SwitchParams& p) { return std::make_unique<DynamicThreshold>(p.dt_alpha); };
  return s;
}

}  // namespace rdmasim
