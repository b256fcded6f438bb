// Topology files: any fabric as text (`--topology file --topology-file PATH`), in rdmasim's own
// format or the ns-3 HPCC simulator's topology.txt, told apart by their first line.
//
// rdmasim-topology, version 1 (docs/topology-file.md): one directive per line, `#` starts a
// comment, nodes in the order they get their numbers (hosts are numbered among hosts):
//   rdmasim-topology 1
//   name NAME / description TEXT...
//   switch NAME [tier=1..3] [pod=N] [rail=N] [plane=N]
//   host NAME [pod=N]
//   server NAME nics=N [ports=P] [pod=N]     hosts NAME.nic0 .. (NAME.nicR.pK with P > 1 ports,
//                                             port K in plane K)
//   link A B rate=RATE (length=LENGTH | delay=TIME) [loss=P] [transit=both|a-to-b|none]
// HPCC topology.txt: "nodes switches links", the switch ids, then `src dst rate delay
// error_rate` per link (whitespace-separated; only the declared counts are read, as the HPCC
// simulator does). Its nodes keep their ids as names (hosts "h<id>", switches "sw<id>"), and
// Topology::node_ids maps an id to its host, so its flow.txt runs unchanged.
// A delay becomes cable length at `velocity_mps` (rounded to the millimetre: 5 ps at 2e8 m/s).
// Invariants checked on reading, each error `SOURCE:LINE:COLUMN: message`: unique names, every
// host exactly one cable, every plane connected, no cable between planes, no second cable
// between two nodes. write_topology_file(t) read back gives the same graph.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "net/topology.hpp"

namespace rdmasim {

/// Reads either format; std::invalid_argument with the source, line and column on any error.
Topology read_topology_file(std::string_view text, const std::string& source, std::int64_t velocity_mps);
/// The topology in rdmasim's format (version 1).
std::string write_topology_file(const Topology& t);

}  // namespace rdmasim
