// Nic: an RDMA-capable NIC (ConnectX-class) and its host interface.
//
// Send side: the user-space provider builds a WQE and rings the doorbell (MMIO over PCIe);
// with BlueFlame the WQE travels with the doorbell, otherwise the NIC fetches it (PCIe read).
// Inline data rides in the WQE; otherwise each packet's payload is DMA-read. The NIC's send
// pipeline then builds packets (`nic`), after an optional random arbitration delay (`queue`).
// Receive side: the receive pipeline parses each packet and DMA-writes its payload; a CQE is
// DMA-written where the operation produces one; the application learns of completion by
// polling (the CPU sees the written line) or through an interrupt (see KernelStack).
#pragma once

#include <string>

#include "host/pcie.hpp"
#include "path/path_spec.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

class Nic {
 public:
  Nic(const NicParams& nic, const VerbsParams& verbs, const PcieLink& pcie) : p_(nic), v_(verbs), pcie_(pcie) {}

  /// post_send on the CPU, doorbell, WQE fetch unless BlueFlame; with `inline_data` the
  /// message bytes travel inside the WQE.
  void append_post(PathSpec& path, int side, bool inline_data) const;
  /// A list of `n` WQEs posted with one ibv_post_send: the CPU builds n WQEs (verbs.post each
  /// minus the doorbell) and rings one doorbell (verbs.doorbell); the NIC fetches all n WQEs in
  /// one DMA read (mlx5 uses BlueFlame for single WQEs only). The token's message size is the
  /// list's payload bytes (inline data rides in the WQEs). n == 1 is append_post.
  void append_post_list(PathSpec& path, int side, int n, bool inline_data) const;
  /// Send arbitration jitter (queue) and the send pipeline (nic) for one message.
  void append_tx_pipeline(PathSpec& path, int side) const;
  /// The send pipeline of a WQE (a WRITE, SEND or READ request the QP posted): its QP's send
  /// engine busy nic.wqe_process (one QP sends at most one WQE per wqe_process), then the
  /// adapter's engines, shared by every QP of the host, nic.adapter_wqe (the whole adapter's
  /// message rate), then the rest of nic.tx_pipeline; unloaded, exactly append_tx_pipeline's
  /// latency.
  void append_wqe_pipeline(PathSpec& path, int side) const;
  /// Per packet: payload DMA read (not for inline data or header-only packets).
  void append_payload_read(PathSpec& path, int side) const;
  void append_rx_pipeline(PathSpec& path, int side) const;
  void append_payload_write(PathSpec& path, int side) const;
  /// The same, to a buffer at `target` (a GPU's memory for GPUDirect RDMA).
  void append_payload_read(PathSpec& path, int side, const DmaTarget& target) const;
  void append_payload_write(PathSpec& path, int side, const DmaTarget& target) const;
  void append_cqe_write(PathSpec& path, int side) const;
  /// The polling CPU notices the written data or CQE.
  void append_poll(PathSpec& path, int side) const;
  /// TCP NIC: doorbell, descriptor fetch and payload read for one segment.
  void append_eth_tx_packet(PathSpec& path, int side) const;

 private:
  void append_tx_jitter(PathSpec& path, int side) const;  // nic.tx_jitter, when set
  NicParams p_;
  VerbsParams v_;
  const PcieLink& pcie_;
};

}  // namespace rdmasim
