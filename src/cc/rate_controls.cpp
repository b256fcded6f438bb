// The registry of RDMA rate controls (rdmasim/rate_control.hpp): one registration line per
// built-in component, in the order `rdmasim list` shows them.
#include <memory>

#include "core/registry.hpp"
#include "cc/ecn_fraction.hpp"
#include "cc/hpcc.hpp"
#include "cc/swift.hpp"
#include "cc/timely.hpp"
#include "rdmasim/rate_control.hpp"
#include "cc/dcqcn.hpp"

namespace rdmasim {
namespace {

RateControlSpec no_rate_control() {
  return {"none", "QPs send at line rate within their window; ECN marks are only counted", "", "", false, nullptr};
}

Registry<RateControlSpec>& registry() {
  static Registry<RateControlSpec> r = [] {
    Registry<RateControlSpec> x("congestion control");
    x.add(no_rate_control());
    x.add(dcqcn_rate_control());
    x.add(ecn_fraction_rate_control());
    x.add(timely_rate_control());
    x.add(hpcc_rate_control());
    x.add(swift_rate_control());
    return x;
  }();
  return r;
}

}  // namespace

std::vector<const RateControlSpec*> rate_controls() { return registry().pointers(); }

const RateControlSpec& rate_control(std::string_view name) { return registry().get(name); }

void register_rate_control(RateControlSpec spec) { registry().add(std::move(spec)); }

}  // namespace rdmasim
