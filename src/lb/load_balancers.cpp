// The registry of load balancers (rdmasim/load_balancer.hpp): one registration line per
// built-in component, in the order `rdmasim list` shows them.
#include "core/registry.hpp"
#include "lb/adaptive.hpp"
#include "lb/ecmp.hpp"
#include "lb/flowlet.hpp"
#include "lb/spray.hpp"
#include "rdmasim/load_balancer.hpp"

namespace rdmasim {
namespace {

Registry<LoadBalancerSpec>& registry() {
  static Registry<LoadBalancerSpec> r = [] {
    Registry<LoadBalancerSpec> x("routing");
    x.add(ecmp_load_balancer());
    x.add(spray_load_balancer());
    x.add(adaptive_load_balancer());
    x.add(flowlet_load_balancer());
    return x;
  }();
  return r;
}

}  // namespace

std::vector<const LoadBalancerSpec*> load_balancers() { return registry().pointers(); }

const LoadBalancerSpec& load_balancer(std::string_view name) { return registry().get(name); }

void register_load_balancer(LoadBalancerSpec spec) { registry().add(std::move(spec)); }

}  // namespace rdmasim
