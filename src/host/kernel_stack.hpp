// KernelStack: the Linux software path a message takes when the kernel is involved — the
// kernel TCP baseline, and RDMA with kernel bypass turned off. All of it is CPU work on the
// host's core (FIFO server), except the softirq backlog wait, which is a pure delay charged to
// `queue`. Costs per message (syscall, stacks, wake-up) and per packet (segment processing,
// interrupts) are separate parameters; with interrupt moderation the irq is paid once per
// batch, by the batch's first packet.
#pragma once

#include <string>

#include "model/path.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

class KernelStack {
 public:
  explicit KernelStack(const KernelParams& p) : p_(p) {}
  const KernelParams& params() const { return p_; }

  void append_syscall(PathSpec& path, int side, const std::string& label) const;
  void append_tx_stack(PathSpec& path, int side) const;
  void append_tx_per_packet(PathSpec& path, int side) const;
  /// Per received packet: optional moderation wait, then (irq if it starts a batch or every
  /// packet when not moderated, unless busy polling) + per-packet receive processing.
  void append_rx_per_packet(PathSpec& path, int side, bool busy_poll, bool coalescing, const NicParams& nic) const;
  void append_rx_stack(PathSpec& path, int side) const;
  /// How the receiving thread learns of the data: busy-poll detection or a wake-up.
  void append_notify(PathSpec& path, int side, bool busy_poll) const;
  /// Interrupt for a completion event (RDMA without busy polling), with optional moderation.
  void append_completion_irq(PathSpec& path, int side, bool coalescing, const NicParams& nic) const;

 private:
  KernelParams p_;
};

}  // namespace rdmasim
