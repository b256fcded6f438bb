// The registry of switch buffer policies (rdmasim/buffer_policy.hpp): one registration line per
// built-in component, in the order `rdmasim list` shows them.
#include "buffer/complete_sharing.hpp"
#include "buffer/dynamic_threshold.hpp"
#include "buffer/static_threshold.hpp"
#include "core/registry.hpp"
#include "rdmasim/buffer_policy.hpp"

namespace rdmasim {
namespace {

Registry<BufferPolicySpec>& registry() {
  static Registry<BufferPolicySpec> r = [] {
    Registry<BufferPolicySpec> x("buffer policy");
    x.add(dynamic_threshold_policy());
    x.add(static_threshold_policy());
    x.add(complete_sharing_policy());
    return x;
  }();
  return r;
}

}  // namespace

std::vector<const BufferPolicySpec*> buffer_policies() { return registry().pointers(); }

const BufferPolicySpec& buffer_policy(std::string_view name) { return registry().get(name); }

void register_buffer_policy(BufferPolicySpec spec) { registry().add(std::move(spec)); }

}  // namespace rdmasim
