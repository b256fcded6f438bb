#include "net/fabric_route.hpp"

#include "net/link.hpp"

namespace rdmasim {

void FabricRoute::append(PathSpec& path, int from) const {
  std::vector<int> nodes = route_.nodes, cables = route_.cables;
  if (from == 1) {
    nodes.assign(route_.nodes.rbegin(), route_.nodes.rend());
    cables.assign(route_.cables.rbegin(), route_.cables.rend());
  }
  for (std::size_t i = 0; i < cables.size(); ++i) {
    const Cable& c = t_.cables()[static_cast<std::size_t>(cables[i])];
    const Node& u = t_.nodes()[static_cast<std::size_t>(nodes[i])];
    const Node& v = t_.nodes()[static_cast<std::size_t>(nodes[i + 1])];
    const bool into_switch = v.kind == NodeKind::switch_;
    const bool next_not_faster =
        i + 1 < cables.size() && t_.cables()[static_cast<std::size_t>(cables[i + 1])].rate <= c.rate;
    Cost ser;
    ser.rate = c.rate;
    ser.basis = Basis::wire;
    if (into_switch && p_.sw.cut_through && next_not_faster) ser.release_bytes = p_.sw.cut_through_bytes;
    path.serve(from, ResourceKind::wire, Category::transmit, u.name + "->" + v.name + ".serialize", ser);
    path.stages.back().instance = wire_instance(c, cables[i], nodes[i]);
    LinkParams lp = p_.link;
    lp.rate = c.rate;
    lp.length_mm = c.length_mm;
    Cost prop;
    prop.fixed = Link(lp).propagation();
    path.delay(from, Category::propagate, u.name + "->" + v.name + ".propagate", prop);
    if (into_switch) {
      Cost pipe;
      pipe.fixed = p_.sw.pipeline;
      path.delay(from, Category::switch_, v.name + ".pipeline", pipe);
    }
  }
}

}  // namespace rdmasim
