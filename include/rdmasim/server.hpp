// GPU servers: what `--server NAME` (scenario key network.server) builds each server of a
// rail-optimized or multi-plane fabric from — its GPUs, its NICs (one rail each), the NIC
// profile they start from and the parameters that make the server what it is (NIC link rate,
// NVLink bandwidth, PCIe), applied before the scenario's own `params`. Built-ins: dgx-a100,
// dgx-h100, pcie-8gpu (src/model/server_profiles.cpp, each value with its source). GPU g sends
// through NIC g mod N, over the PCIe path its placement says. A program that links the library
// may register its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rdmasim/profile.hpp"

namespace rdmasim {

struct ServerSpec {
  std::string name;
  std::string description;
  std::string source;
  int gpus = 8;
  int nics = 8;
  std::string profile = "default";  // the NIC profile the server's parameters start from
  std::vector<std::string> sets;    // "key=value" profile parameters (`rdmasim list`)
  /// Per GPU, its PCIe path to the NIC it sends through (GPU g: NIC g mod N) — under one PCIe
  /// switch, through the root complex, or across the sockets; empty: pcie.topology for every GPU.
  std::vector<PcieTopology> placement = {};
  /// GPU g's PCIe path to its NIC where the server places it (nullopt: pcie.topology's).
  std::optional<PcieTopology> gpu_path(int g) const {
    if (placement.empty()) return std::nullopt;
    return placement.at(static_cast<std::size_t>(g));
  }
};

/// The registered servers, in registration order.
std::vector<const ServerSpec*> servers();
/// Throws std::invalid_argument listing the registered servers for an unknown name.
const ServerSpec& server(std::string_view name);
/// Adds a server; std::invalid_argument for an empty or taken name.
void register_server(ServerSpec spec);

}  // namespace rdmasim
