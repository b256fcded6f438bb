// LoadBalancer: how a switch picks among a flow's equal-cost next hops (`--routing NAME`,
// scenario `network.routing`), and the registry of them.
//
// The fabric asks only where there is a choice (two or more equal-cost next hops). A balancer
// sees the switch, the time, the flow (a stable 64-bit id of its 5-tuple, its ECMP hash at this
// switch, its packet number), the queued bytes of each candidate port, and one word of state
// that travels with the packet from switch to switch (1 at injection). It returns an index.
//
// Traits tell the rest of rdmasim what it cannot see inside: `hash_only` (the choice is always
// the ECMP hash's: routes are fixed and computed ahead), `dynamic` (it reads time or queues:
// the choice is made as the packet reaches the switch), `per_packet_paths` (a flow's packets
// take different paths even on an idle network: no single route, no closed-form budget).
// A component is its class plus a LoadBalancerSpec registered under its name; a program that
// embeds rdmasim can register its own before it runs anything.
// Invariant asked of every implementation: choose() < count, and it is a deterministic function
// of the calls made so far (draw randomness from `seed`).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rdmasim/profile.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

/// The candidates' load, for balancers that look at queues.
class PortLoad {
 public:
  /// Bytes queued at candidate `i` (0 <= i < count), all traffic classes.
  virtual std::int64_t queued_bytes(std::uint32_t i) const = 0;

 protected:
  ~PortLoad() = default;
};

struct HopChoice {
  Time now{};
  int node = 0;                 // the switch (topology node index)
  std::uint32_t count = 0;      // equal-cost next hops, >= 2
  std::uint32_t hash = 0;       // the flow's ECMP hash at this switch (ECMP takes hash % count)
  std::uint64_t flow = 0;       // the flow: its 5-tuple packed (stable for the run)
  std::uint32_t packet = 0;     // the flow's packet number (0, 1, ...; a resend is a new number)
  std::uint32_t* carried = nullptr;  // state carried by the packet across switches (1 at injection)
  const PortLoad* load = nullptr;
};

class LoadBalancer {
 public:
  virtual ~LoadBalancer() = default;
  /// The next hop: an index in [0, c.count).
  virtual std::uint32_t choose(const HopChoice& c) = 0;
};

struct LoadBalancerContext {
  int nodes = 0;           // topology nodes (switch indices are below this)
  std::uint64_t seed = 0;  // the run's seed
};

struct LoadBalancerSpec {
  std::string name, description;
  std::string params;   // the profile parameters it reads (a key prefix, or one key) or ""
  std::string source;   // where it is published
  bool hash_only = false;         // always the ECMP hash's choice
  bool dynamic = false;           // reads time or queues: chosen on arrival
  bool per_packet_paths = false;  // a flow's packets spread over paths even when idle
  std::string route_note;         // printed before a flow's unloaded route ("adaptive per packet; unloaded: ")
  /// One fabric's balancer (a fabric owns it; its switches share it).
  std::function<std::unique_ptr<LoadBalancer>(const SwitchParams&, const LoadBalancerContext&)> make;
};

/// Every registered balancer, built-ins first.
std::vector<const LoadBalancerSpec*> load_balancers();
/// Throws std::invalid_argument("unknown routing \"x\" (valid: ecmp, spray, ...)").
const LoadBalancerSpec& load_balancer(std::string_view name);
/// Registers a balancer; throws std::invalid_argument for a taken or empty name.
void register_load_balancer(LoadBalancerSpec spec);

}  // namespace rdmasim
