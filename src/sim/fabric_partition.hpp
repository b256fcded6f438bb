// FabricPartition: how a fabric run is cut into logical processes (core/parallel_run.hpp) —
// which LP each node runs in, and the lookahead the cut allows.
//
// The decomposition is part of the model (what runs between windows — a PFC deadlock check,
// freeing a done flow's QP — falls at a window's end), so it depends on the
// topology alone, never on the number of workers: a fat-tree pod (its edge and aggregation
// switches) is one LP; an edge or leaf switch outside any pod is an LP of its own; a host runs in
// its attachment switch's LP; the switches above (core, spine) are dealt to those LPs in node
// order, the j-th to LP j mod LPs. The lookahead is the shortest propagation of a cable between two
// LPs (switch-to-switch cables: switch.fabric_length); a cut with no cable across is one LP, with a
// lookahead of the longest cable's propagation (1 us if none propagates).
// Invariants: every LP holds at least one node; hosts never sit on a cut cable.
#pragma once

#include <cstdint>
#include <vector>

#include "net/topology.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

struct FabricPartition {
  std::vector<int> lp_of_node;  // by node
  int lps = 1;
  Time lookahead{};
};

/// The decomposition above; `velocity_mps`: the cables' signal speed (FabricOptions).
FabricPartition partition_fabric(const Topology& t, std::int64_t velocity_mps);

}  // namespace rdmasim
