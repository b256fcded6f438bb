#include "buffer/static_threshold.hpp"

namespace rdmasim {

BufferPolicySpec static_threshold_policy() {
  BufferPolicySpec s;
  s.name = "static-threshold";
  s.description = "every lossy queue holds at most switch.queue_limit bytes (drop-tail)";
  s.params = "switch.queue_limit";
  s.source = "Choudhury & Hahne, IEEE/ACM ToN 1998 (static thresholds)";
  s.make = [](const SwitchParams& p) { return std::make_unique<StaticThreshold>(p.queue_limit.count()); };
  return s;
}

}  // namespace rdmasim
