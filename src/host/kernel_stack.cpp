#include "host/kernel_stack.hpp"

#include <algorithm>

namespace rdmasim {
namespace {
std::string pre(int side) { return side == 0 ? "A." : "B."; }
Cost fixed(Time t) {
  Cost c;
  c.fixed = t;
  return c;
}
Cost per_batch(Time t, std::int32_t segments, Bytes mss, bool at_end) {
  Cost c = fixed(t);
  c.chunk_packets = segments;
  c.chunk_segment = mss;
  c.chunk_at_end = at_end;
  return c;
}
void append_moderation(PathSpec& path, int side, const NicParams& nic, const std::string& label) {
  ModerationSpec m;
  m.usecs = nic.rx_usecs;
  m.frames = nic.rx_frames;
  m.adaptive = nic.adaptive_rx;
  path.moderate(side, m, label);
}
}  // namespace

void KernelStack::append_syscall(PathSpec& path, int side, const std::string& label) const {
  path.serve(side, ResourceKind::core, Category::syscall, pre(side) + label, fixed(p_.syscall));
}

void KernelStack::append_tx_stack(PathSpec& path, int side) const {
  path.serve(side, ResourceKind::core, Category::kernel, pre(side) + "kernel.tx_stack", fixed(p_.tx_stack));
}

void KernelStack::append_tx_per_packet(PathSpec& path, int side, std::int32_t tso_segments, Bytes mss) const {
  // TSO: the stack's per-segment work once per super-packet, paid by its first segment.
  path.serve(side, ResourceKind::core, Category::kernel, pre(side) + "kernel.tx_segment",
             tso_segments > 1 ? per_batch(p_.tx_per_packet, tso_segments, mss, false) : fixed(p_.tx_per_packet));
}

void KernelStack::append_rx_per_packet(PathSpec& path, int side, bool busy_poll, bool coalescing, const NicParams& nic,
                                       std::int32_t gro_segments, Bytes mss) const {
  // GRO: every frame costs the driver kernel.rx_per_frame, and the super-packet's receive
  // processing (kernel.rx_per_packet in all) is paid by its last frame; NAPI: one interrupt per
  // super-packet (interrupts stay masked while the poll finds frames), or per moderation batch.
  Cost c = fixed(p_.rx_per_packet);
  if (gro_segments > 1) {
    const Time frame = std::min(p_.rx_per_frame, p_.rx_per_packet);
    c = per_batch(p_.rx_per_packet - frame, gro_segments, mss, true);
    c.per_packet = frame;
  }
  if (!busy_poll) {
    if (coalescing) append_moderation(path, side, nic, pre(side) + "nic.irq_moderation");
    c.head_extra = p_.irq;
    c.head_cat = Category::interrupt;
    c.batch_head_only = coalescing;
  }
  path.serve(side, ResourceKind::core, Category::kernel, pre(side) + "kernel.rx_segment", c);
}

void KernelStack::append_rx_stack(PathSpec& path, int side) const {
  if (p_.backlog > Time::zero()) path.delay(side, Category::queue, pre(side) + "kernel.backlog", fixed(p_.backlog));
  path.serve(side, ResourceKind::core, Category::kernel, pre(side) + "kernel.rx_stack", fixed(p_.rx_stack));
}

void KernelStack::append_notify(PathSpec& path, int side, bool busy_poll) const {
  if (busy_poll)
    path.serve(side, ResourceKind::core, Category::kernel, pre(side) + "kernel.busy_poll", fixed(p_.busy_poll_detect));
  else
    path.serve(side, ResourceKind::core, Category::syscall, pre(side) + "kernel.wakeup", fixed(p_.wakeup));
}

void KernelStack::append_tx_batch(PathSpec& path, int side, std::int32_t segments, Bytes mss) const {
  path.serve(side, ResourceKind::core, Category::kernel, pre(side) + "kernel.tso_batch",
             per_batch(p_.tx_stack + p_.tx_per_packet, segments, mss, false));
}

void KernelStack::append_rx_batch(PathSpec& path, int side, bool busy_poll, bool coalescing, const NicParams& nic,
                                  std::int32_t segments, Bytes mss) const {
  // One core stage (the closed-form budget needs distinct servers between split and merge):
  // the driver's per-frame work, and the batch's receive processing + stack, the reader's
  // notification and its recv() return paid by the batch's last frame, with the irq beside them.
  Cost c = per_batch(p_.rx_per_packet + p_.rx_stack + (busy_poll ? p_.busy_poll_detect : p_.wakeup) + p_.syscall,
                     segments, mss, true);
  c.per_packet = p_.rx_per_frame;
  if (!busy_poll) {
    if (coalescing) append_moderation(path, side, nic, pre(side) + "nic.irq_moderation");
    c.head_extra = p_.irq;
    c.head_cat = Category::interrupt;
  }
  path.serve(side, ResourceKind::core, Category::kernel, pre(side) + "kernel.gro_batch", c);
}

void KernelStack::append_completion_irq(PathSpec& path, int side, bool coalescing, const NicParams& nic) const {
  if (coalescing) {
    // One interrupt per moderation batch: its first completion takes it.
    append_moderation(path, side, nic, pre(side) + "nic.cq_moderation");
    Cost c;
    c.head_extra = p_.irq;
    c.head_cat = Category::interrupt;
    c.batch_head_only = true;
    path.serve(side, ResourceKind::core, Category::interrupt, pre(side) + "kernel.irq", c);
  } else {
    path.serve(side, ResourceKind::core, Category::interrupt, pre(side) + "kernel.irq", fixed(p_.irq));
  }
  path.serve(side, ResourceKind::core, Category::syscall, pre(side) + "kernel.wakeup", fixed(p_.wakeup));
  append_syscall(path, side, "kernel.get_cq_event");
}

}  // namespace rdmasim
