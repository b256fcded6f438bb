// The latency ledger: where every picosecond of a message's end-to-end time went.
//
// The four top-level categories are the classic L_e2e = L_queue + L_transmit + L_propagate +
// L_process; process is subdivided by what does the work. Invariant (checked for every
// completed message): the entries sum exactly, in integer picoseconds, to the end-to-end time.
//
// Attribution rule (see docs/model.md): a message's ledger is the ledger along the critical
// path of its last byte. It is the ledger of the packet whose arrival completes the message;
// when a packet waits at a FIFO resource behind an earlier packet of the SAME message, its
// path continues from that packet (it takes over that packet's ledger at departure); a wait
// behind OTHER messages is charged to `queue`. For a link-bound multi-packet message that
// gives the pipeline fill plus every frame's serialization: L_transmit = S/B.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "rdmasim/units.hpp"

namespace rdmasim {

enum class Category : std::uint8_t {
  queue,       // waiting behind other traffic (and modelled random scheduling jitter)
  transmit,    // serialization onto a wire, S/B
  propagate,   // signal propagation, D/v
  kernel,      // kernel network stack (TCP/IP, RDMA through the kernel)
  syscall,     // system calls and context switches / thread wake-ups
  copy,        // CPU memory copies
  interrupt,   // interrupt handling and interrupt-moderation waits
  pcie_dma,    // PCIe: doorbells (MMIO), DMA reads/writes, WQE/CQE transfers
  nic,         // NIC pipelines (WQE processing, packet build/parse)
  switch_,     // switch forwarding pipelines
  gpu,         // GPU copy engines / staging
  setup,       // connection setup, memory registration
  driver,      // user-space verbs provider: build WQE, ring doorbell, poll CQ
  recovery,    // loss recovery: waiting for a NAK or retransmission timeout, then resending
};

inline constexpr std::size_t kCategoryCount = 14;

std::string_view category_name(Category c);
/// True for the categories that make up L_process (everything but queue/transmit/propagate).
constexpr bool is_process(Category c) { return static_cast<int>(c) >= static_cast<int>(Category::kernel); }

class Ledger {
 public:
  constexpr Time operator[](Category c) const { return Time::ps(v_[static_cast<std::size_t>(c)]); }
  constexpr void add(Category c, Time t) { v_[static_cast<std::size_t>(c)] += t.count_ps(); }
  constexpr void add(const Ledger& o) {
    for (std::size_t i = 0; i < kCategoryCount; ++i) v_[i] += o.v_[i];
  }
  constexpr void subtract(const Ledger& o) {
    for (std::size_t i = 0; i < kCategoryCount; ++i) v_[i] -= o.v_[i];
  }
  constexpr Time total() const {
    std::int64_t s = 0;
    for (auto x : v_) s += x;
    return Time::ps(s);
  }
  constexpr Time process() const {
    std::int64_t s = 0;
    for (std::size_t i = static_cast<std::size_t>(Category::kernel); i < kCategoryCount; ++i) s += v_[i];
    return Time::ps(s);
  }
  constexpr bool operator==(const Ledger&) const = default;
  const std::array<std::int64_t, kCategoryCount>& raw() const { return v_; }

 private:
  std::array<std::int64_t, kCategoryCount> v_{};
};

inline constexpr std::array<Category, kCategoryCount> kAllCategories{
    Category::queue,  Category::transmit,  Category::propagate, Category::kernel, Category::syscall,
    Category::copy,   Category::interrupt, Category::pcie_dma,  Category::nic,    Category::switch_,
    Category::gpu,    Category::setup,     Category::driver,    Category::recovery};

}  // namespace rdmasim
