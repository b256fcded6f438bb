// Flowlet: flowlet load balancing as LetFlow does it (Vanini et al., "Let It Flow: Resilient
// Asymmetric Load Balancing with Flowlet Switching", NSDI 2017). A switch keeps, per flow, the
// next hop of the flow's current flowlet and when its last packet passed; a packet that comes
// more than `timeout` after the flow's previous one starts a new flowlet, which takes a next
// hop drawn uniformly at random. Inside a flowlet packets keep one path, so they stay in order
// as long as the gap exceeds the paths' delay difference.
//
// Modelling choices: a flow's first flowlet at a switch takes the ECMP hash's next hop (so an
// idle network routes every flow as ECMP does, and the closed-form budget holds); each switch's
// table has `table` slots indexed by the flow's ECMP hash and tagged with the flow, so a flow
// that lands on a slot held by another starts afresh there (a hardware table without tags would
// let them share a path); a switch's table is allocated at the first packet it balances. Draws
// are a hash of (seed, flow, switch, time): deterministic for a seed.
// Invariant: choose() < count; per (flow, switch) the choice changes only after a gap > timeout.
#pragma once

#include <cstdint>
#include <vector>

#include "rdmasim/load_balancer.hpp"

namespace rdmasim {

class Flowlet final : public LoadBalancer {
 public:
  Flowlet(Time timeout, int table, const LoadBalancerContext& ctx);
  std::uint32_t choose(const HopChoice& c) override;

  /// Flowlets started after a gap (not counting each flow's first at a switch).
  std::uint64_t new_flowlets() const { return new_flowlets_; }

 private:
  struct Slot {
    Time last{};
    std::uint32_t flow = 0;    // tag: the flow's 32-bit digest
    std::uint16_t choice = 0;  // next-hop index of the current flowlet
    bool used = false;
  };
  Time timeout_;
  std::uint32_t mask_;
  std::uint64_t seed_;
  std::vector<std::vector<Slot>> tables_;  // per switch node
  std::uint64_t new_flowlets_ = 0;
};

LoadBalancerSpec flowlet_load_balancer();

}  // namespace rdmasim
