#include "host/kernel_stack.hpp"

namespace rdmasim {
namespace {
std::string pre(int side) { return side == 0 ? "A." : "B."; }
Cost fixed(Time t) {
  Cost c;
  c.fixed = t;
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

void KernelStack::append_tx_per_packet(PathSpec& path, int side) const {
  path.serve(side, ResourceKind::core, Category::kernel, pre(side) + "kernel.tx_segment", fixed(p_.tx_per_packet));
}

void KernelStack::append_rx_per_packet(PathSpec& path, int side, bool busy_poll, bool coalescing,
                                       const NicParams& nic) const {
  Cost c = fixed(p_.rx_per_packet);
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
