// KernelStack: the Linux software path a message takes when the kernel is involved — the
// kernel TCP baseline, and RDMA with kernel bypass turned off. All of it is CPU work on the
// host's core (FIFO server), except the softirq backlog wait, which is a pure delay charged to
// `queue`. Costs per message (syscall, stacks, wake-up) and per packet (segment processing,
// interrupts) are separate parameters; with interrupt moderation the irq is paid once per
// batch, by the batch's first packet.
// Bulk TCP (GRO/TSO): the stack's per-packet work — transmit stack and segment work, receive
// processing, irq, receive stack, wake-up and recv() return — is paid once per super-packet of
// `segments` segments of a message (the first segment of a TSO batch pays on transmit, the last
// of a GRO batch on receive: the PSH of a message's last segment flushes GRO), only the driver's
// kernel.rx_per_frame per received frame.
#pragma once

#include <cstdint>
#include <string>

#include "path/path_spec.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

class KernelStack {
 public:
  explicit KernelStack(const KernelParams& p) : p_(p) {}
  const KernelParams& params() const { return p_; }

  void append_syscall(PathSpec& path, int side, const std::string& label) const;
  void append_tx_stack(PathSpec& path, int side) const;
  /// Per sent segment: kernel.tx_per_packet, or with TSO (`tso_segments` > 1 segments of `mss`
  /// per super-packet) once per super-packet, paid by its first segment.
  void append_tx_per_packet(PathSpec& path, int side, std::int32_t tso_segments = 1, Bytes mss = {}) const;
  /// Per received packet: optional moderation wait, then (irq if it starts a batch or every
  /// packet when not moderated, unless busy polling) + per-packet receive processing. With GRO
  /// (`gro_segments` > 1 frames of `mss` per super-packet): kernel.rx_per_frame per frame, the
  /// rest of kernel.rx_per_packet and, unmoderated, the irq (NAPI) once per super-packet.
  void append_rx_per_packet(PathSpec& path, int side, bool busy_poll, bool coalescing, const NicParams& nic,
                            std::int32_t gro_segments = 1, Bytes mss = {}) const;
  void append_rx_stack(PathSpec& path, int side) const;
  /// How the receiving thread learns of the data: busy-poll detection or a wake-up.
  void append_notify(PathSpec& path, int side, bool busy_poll) const;
  /// Bulk TCP transmit: tx_stack + tx_per_packet once per TSO batch of `segments` segments.
  void append_tx_batch(PathSpec& path, int side, std::int32_t segments, Bytes mss) const;
  /// Bulk TCP receive: driver per frame, then per GRO batch (optional moderation wait) irq unless
  /// busy polling, receive processing + stack, the reader's notification and recv() return.
  void append_rx_batch(PathSpec& path, int side, bool busy_poll, bool coalescing, const NicParams& nic,
                       std::int32_t segments, Bytes mss) const;
  /// Interrupt for a completion event (RDMA without busy polling), with optional moderation.
  void append_completion_irq(PathSpec& path, int side, bool coalescing, const NicParams& nic) const;

 private:
  KernelParams p_;
};

}  // namespace rdmasim
