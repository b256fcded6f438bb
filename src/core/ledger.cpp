#include "rdmasim/ledger.hpp"

namespace rdmasim {

std::string_view category_name(Category c) {
  switch (c) {
    case Category::queue: return "queue";
    case Category::transmit: return "transmit";
    case Category::propagate: return "propagate";
    case Category::kernel: return "kernel";
    case Category::syscall: return "syscall";
    case Category::copy: return "copy";
    case Category::interrupt: return "interrupt";
    case Category::pcie_dma: return "pcie_dma";
    case Category::nic: return "nic";
    case Category::switch_: return "switch";
    case Category::gpu: return "gpu";
    case Category::setup: return "setup";
    case Category::driver: return "driver";
    case Category::recovery: return "recovery";
  }
  return "?";
}

}  // namespace rdmasim
