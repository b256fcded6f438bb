#include "sim/fabric_partition.hpp"

#include <algorithm>

#include "path/link.hpp"

namespace rdmasim {

FabricPartition partition_fabric(const Topology& t, std::int64_t velocity_mps) {
  const auto& nodes = t.nodes();
  FabricPartition p;
  p.lp_of_node.assign(nodes.size(), -1);
  int pods = 0;
  for (const Node& n : nodes)
    if (n.kind == NodeKind::switch_ && n.pod >= 0) pods = std::max(pods, n.pod + 1);
  int lps = pods;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    if (n.kind != NodeKind::switch_) continue;
    if (n.pod >= 0) p.lp_of_node[i] = n.pod;
    else if (n.tier <= 1) p.lp_of_node[i] = lps++;  // an edge or leaf switch outside any pod
  }
  lps = std::max(lps, 1);
  int dealt = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i)  // the switches above, in node order
    if (nodes[i].kind == NodeKind::switch_ && p.lp_of_node[i] < 0) p.lp_of_node[i] = dealt++ % lps;
  for (int h = 0; h < t.host_count(); ++h) {  // a host with its attachment switch
    const auto node = static_cast<std::size_t>(t.host_node(h));
    const Cable& c = t.cables()[static_cast<std::size_t>(nodes[node].cables.at(0))];
    p.lp_of_node[node] = p.lp_of_node[static_cast<std::size_t>(c.a == static_cast<int>(node) ? c.b : c.a)];
  }
  for (int& lp : p.lp_of_node) lp = std::max(lp, 0);  // a node with no cable at all
  p.lps = lps;
  p.lookahead = Time::max();
  for (const Cable& c : t.cables()) {
    if (p.lp_of_node[static_cast<std::size_t>(c.a)] != p.lp_of_node[static_cast<std::size_t>(c.b)])
      p.lookahead = std::min(p.lookahead, cable_propagation(c, velocity_mps));
  }
  if (p.lookahead == Time::max()) {
    const Time longest = longest_propagation(t, velocity_mps);
    p.lookahead = longest > Time::zero() ? longest : Time::us(1);
  }
  return p;
}

}  // namespace rdmasim
