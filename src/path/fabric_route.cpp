#include "path/fabric_route.hpp"

#include "path/link.hpp"

namespace rdmasim {

std::vector<FabricRoute::Hop> FabricRoute::hops(int from) const {
  std::vector<int> nodes = route_.nodes, cables = route_.cables;
  if (from == 1) {
    nodes.assign(route_.nodes.rbegin(), route_.nodes.rend());
    cables.assign(route_.cables.rbegin(), route_.cables.rend());
  }
  std::vector<Hop> r;
  for (std::size_t i = 0; i < cables.size(); ++i) {
    const Cable& c = t_.cables()[static_cast<std::size_t>(cables[i])];
    const Node& u = t_.nodes()[static_cast<std::size_t>(nodes[i])];
    const Node& v = t_.nodes()[static_cast<std::size_t>(nodes[i + 1])];
    Hop h;
    h.from = u.name;
    h.to = v.name;
    h.into_switch = v.kind == NodeKind::switch_;
    const bool next_not_faster =
        i + 1 < cables.size() && t_.cables()[static_cast<std::size_t>(cables[i + 1])].rate <= c.rate;
    h.serialize.rate = c.rate;
    h.serialize.basis = Basis::wire;
    if (h.into_switch && p_.sw.cut_through && next_not_faster) h.serialize.release_bytes = p_.sw.cut_through_bytes;
    h.propagate = cable_propagation(c, p_.link.velocity_mps);
    r.push_back(std::move(h));
  }
  return r;
}

void FabricRoute::append(PathSpec& path, int from) const {
  std::vector<int> cables = route_.cables, nodes = route_.nodes;
  if (from == 1) {
    cables.assign(route_.cables.rbegin(), route_.cables.rend());
    nodes.assign(route_.nodes.rbegin(), route_.nodes.rend());
  }
  const std::vector<Hop> hs = hops(from);
  for (std::size_t i = 0; i < hs.size(); ++i) {
    const Hop& h = hs[i];
    path.serve(from, ResourceKind::wire, Category::transmit, h.from + "->" + h.to + ".serialize", h.serialize);
    path.stages.back().instance =
        wire_instance(t_.cables()[static_cast<std::size_t>(cables[i])], cables[i], nodes[i]);
    Cost prop;
    prop.fixed = h.propagate;
    path.delay(from, Category::propagate, h.from + "->" + h.to + ".propagate", prop);
    if (h.into_switch) {
      Cost pipe;
      pipe.fixed = pipeline_;
      path.delay(from, Category::switch_, h.to + ".pipeline", pipe);
    }
  }
}

Time FabricRoute::unloaded(Bytes wire, int from) const {
  Time t{};
  for (const Hop& h : hops(from)) {
    t += release_time(h.serialize, serialization_time(wire, h.serialize.rate), wire) + h.propagate;
    if (h.into_switch) t += pipeline_;
  }
  return t;
}

}  // namespace rdmasim
