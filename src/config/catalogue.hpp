// The catalogue `rdmasim list` prints: every selectable component by kind (topologies,
// routing, link layers and their flow control, queue disciplines, traffic patterns, workloads,
// exports, profiles), with what it models and the option or scenario key that selects it.
// Every registry's entries come from the registry (with the profile parameters each reads: topologies,
// routing, congestion controls, TCP congestion controls, buffer policies, traffic patterns,
// collectives, profiles); the rest mirror the option checks.
#pragma once

#include <string>
#include <vector>

namespace rdmasim::config {

struct Component {
  std::string kind, name, description, selected_by;
  std::vector<std::string> params;  // the profile parameters it reads (`rdmasim list` keys)
};

/// Built on each call, so components registered since the last call are in it.
std::vector<Component> components();

}  // namespace rdmasim::config
