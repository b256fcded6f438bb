// The built-in GPU servers (rdmasim/server.hpp) and their registry: one registration per
// server, every value with its public source or marked an estimate.
#include <stdexcept>
#include <string>

#include "core/registry.hpp"
#include "rdmasim/server.hpp"

namespace rdmasim {
namespace {

Registry<ServerSpec>& registry() {
  static Registry<ServerSpec> r = [] {
    Registry<ServerSpec> x("server");
    x.add({"dgx-a100",
           "8 x A100 SXM4, 8 x ConnectX-6 200 Gb/s (GPU g on NIC g, under one PCIe switch), 6 NVSwitch gen 2: "
           "NVLink 3, 300 GB/s per GPU and direction",
           "HGX A100 blog (12 NVLink ports, 600 GB/s per GPU); DGX-A100 nvidia-smi topo -m in rapidsai/ucx-py#749 "
           "(GPU and NIC pairs on PCIe switches); NIC: the cx6-200g profile",
           8, 8, "cx6-200g", {"gpu.nvlink_bw=300GB/s", "pcie.topology=switch"}});
    x.add({"dgx-h100",
           "8 x H100 SXM5, 8 x ConnectX-7 400 Gb/s on PCIe Gen5 (GPU g on NIC g), 4 NVSwitch gen 3: NVLink 4, "
           "450 GB/s per GPU and direction",
           "HGX H100 blog (900 GB/s per GPU); DGX H100 user guide table 6 (one ConnectX-7 per GPU); NIC window and "
           "read buffer: estimates scaled from cx6-200g to 400 Gb/s; copy engine: estimate for Gen5 x16",
           8, 8, "default",
           {"link.rate=400Gbps", "pcie.gen=5", "nic.tx_window=512KiB", "nic.read_buffer=64KiB", "gpu.copy_bw=50GB/s",
            "gpu.nvlink_bw=450GB/s", "gpu.nvls_efficiency=0.64", "pcie.topology=switch"}});
    // Two sockets, each with two PCIe switches of two GPUs and one NIC (switch k: GPUs 2k, 2k+1,
    // NIC k); GPU g sends through NIC g mod 4, so GPUs 0 and 7 share its switch, 1 and 6 its
    // socket, and 2 to 5 cross the sockets.
    using P = PcieTopology;
    x.add({"pcie-8gpu",
           "8 PCIe GPUs without NVLink (peers copy through PCIe with the copy engine), 4 x ConnectX-6 200 Gb/s on two "
           "sockets: GPUs g and g+4 on NIC g mod 4, GPUs 2-5 across the sockets from it",
           "estimate: a common dual-socket 8-GPU PCIe server (four switches of two GPUs and a NIC); NIC: the cx6-200g "
           "profile",
           8, 4, "cx6-200g", {"gpu.nvlink_bw=0bps", "pcie.topology=switch"},
           {P::pcie_switch, P::root, P::cross_socket, P::cross_socket, P::cross_socket, P::cross_socket, P::root,
            P::pcie_switch}});
    return x;
  }();
  return r;
}

}  // namespace

std::vector<const ServerSpec*> servers() { return registry().pointers(); }

const ServerSpec& server(std::string_view name) { return registry().get(name); }

void register_server(ServerSpec spec) {
  if (!spec.placement.empty() && static_cast<int>(spec.placement.size()) != spec.gpus)
    throw std::invalid_argument("server " + spec.name + ": placement names " + std::to_string(spec.placement.size()) +
                                " GPUs, the server has " + std::to_string(spec.gpus));
  registry().add(std::move(spec));
}

}  // namespace rdmasim
