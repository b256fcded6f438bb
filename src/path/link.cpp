#include "path/link.hpp"

#include <algorithm>

namespace rdmasim {

Time Link::propagation() const {
  // t = L / v; L in mm: ps = mm * 1e-3 m / v * 1e12 = mm * 1e9 / v
  const i128 num = static_cast<i128>(p_.length_mm) * 1'000'000'000;
  const i128 v = p_.velocity_mps;
  return Time::ps(static_cast<std::int64_t>((num + v - 1) / v));
}

Time cable_propagation(const Cable& c, std::int64_t velocity_mps) {
  LinkParams lp;
  lp.rate = c.rate;
  lp.length_mm = c.length_mm;
  lp.velocity_mps = velocity_mps;
  return Link(lp).propagation();
}

Time longest_propagation(const Topology& t, std::int64_t velocity_mps) {
  Time longest{};
  for (const Cable& c : t.cables()) longest = std::max(longest, cable_propagation(c, velocity_mps));
  return longest;
}

void Link::append(PathSpec& path, int from) const {
  const std::string side = from == 0 ? "A" : "B";
  Cost ser;
  ser.rate = p_.rate;
  ser.basis = Basis::wire;
  path.serve(from, ResourceKind::wire, Category::transmit, side + ".link.serialize", ser);
  Cost prop;
  prop.fixed = propagation();
  path.delay(from, Category::propagate, side + ".link.propagate", prop);
}

}  // namespace rdmasim
