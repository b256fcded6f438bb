// PcieLink: the PCIe link between a device (NIC) and the host's root complex and memory.
//
// Each direction is a FIFO server at the link's raw rate (GT/s x lanes x line code); a transfer
// of B bytes occupies it for the serialization of B plus one TLP overhead per max-payload
// chunk. A traversal adds `latency`. Posted writes (doorbell MMIO, DMA writes, CQE writes) are
// one traversal; a DMA read is a round trip: the request goes up (latency), the completion data
// comes down (serialized, then latency). "down" is host -> device, "up" is device -> host.
//
// DMA targets: host DRAM sits behind the root complex (one `latency` traversal). A GPU's HBM is
// reached peer-to-peer through the host's PCIe tree (pcie.topology): under the NIC's PCIe
// switch (switch_latency per traversal), under the root complex (two link traversals), or on
// the other socket (two link traversals plus the inter-socket link: socket_latency and a FIFO
// server per direction at socket_bw). Reads pay the target's traversal twice (request up,
// completion down); posted writes once.
#pragma once

#include <string>

#include "path/path_spec.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

/// Where a DMA lands: its one-way traversal latency and whether it crosses the sockets.
struct DmaTarget {
  Time latency{};
  bool cross_socket = false;
};

class PcieLink {
 public:
  explicit PcieLink(const PcieParams& p) : p_(p) {}
  /// Raw data rate of one direction after line coding (8b/10b for Gen1/2, 128b/130b after).
  Rate raw_rate() const;
  Time latency() const { return p_.latency; }
  /// Time one direction is busy moving `b` bytes of payload in TLPs.
  Time transfer_time(Bytes b) const;
  /// Effective payload bandwidth for large transfers (MPS-sized TLPs), for reports.
  double effective_gbytes_per_sec() const;

  void append_mmio_write(PathSpec& path, int side, const std::string& label, Basis basis, Bytes extra) const;
  void append_dma_read(PathSpec& path, int side, const std::string& label, Basis basis, Bytes extra) const;
  void append_dma_write(PathSpec& path, int side, const std::string& label, Basis basis, Bytes extra) const;
  /// Host DRAM, or a GPU's memory through pcie.topology.
  DmaTarget host_target() const { return {p_.latency, false}; }
  DmaTarget gpu_target() const { return gpu_target(p_.topology); }
  /// A GPU placed as `t` from the NIC (a server's per-GPU placement).
  DmaTarget gpu_target(PcieTopology t) const;
  void append_dma_read(PathSpec& path, int side, const std::string& label, Basis basis, Bytes extra,
                       const DmaTarget& t) const;
  void append_dma_write(PathSpec& path, int side, const std::string& label, Basis basis, Bytes extra,
                        const DmaTarget& t) const;
  /// Bytes of DMA reads the NIC keeps outstanding: nic.read_buffer in whole read requests
  /// (0: not modelled).
  static Bytes read_window(const PcieParams& p, Bytes read_buffer);

 private:
  Cost transfer_cost(Basis basis, Bytes extra) const;
  Cost socket_cost(Basis basis, Bytes extra) const;
  PcieParams p_;
};

}  // namespace rdmasim
