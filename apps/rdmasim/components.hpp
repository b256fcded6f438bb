// The catalogue `rdmasim list` prints: every selectable component by kind (topologies,
// routing, link layers and their flow control, queue disciplines, traffic patterns, workloads,
// exports, profiles), with what it models and the option or scenario key that selects it.
// Topologies come from the topology registry itself; the rest mirror the option checks.
#pragma once

#include <string>
#include <vector>

namespace rdmasim::cli {

struct Component {
  std::string kind, name, description, selected_by;
};

const std::vector<Component>& components();

}  // namespace rdmasim::cli
