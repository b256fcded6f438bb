// The built-in GPU servers (rdmasim/server.hpp) and their registry: one registration per
// server, every value with its public source or marked an estimate.
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
    x.add({"pcie-8gpu",
           "8 PCIe GPUs without NVLink (peers copy through PCIe with the copy engine), 4 x ConnectX-6 200 Gb/s: GPUs g "
           "and g+4 on NIC g mod 4",
           "estimate: a common 8-GPU PCIe server; NIC: the cx6-200g profile", 8, 4, "cx6-200g",
           {"gpu.nvlink_bw=0bps", "pcie.topology=switch"}});
    return x;
  }();
  return r;
}

}  // namespace

std::vector<const ServerSpec*> servers() { return registry().pointers(); }

const ServerSpec& server(std::string_view name) { return registry().get(name); }

void register_server(ServerSpec spec) { registry().add(std::move(spec)); }

}  // namespace rdmasim
