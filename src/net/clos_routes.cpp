#include "net/clos_routes.hpp"

#include <stdexcept>

namespace rdmasim {

ClosRoutes::ClosRoutes(const Topology& t) {
  const auto& nodes = t.nodes();
  const auto& cables = t.cables();
  const std::size_t n = nodes.size();
  tier_.resize(n);
  pod_.resize(n);
  key_.assign(n, -1);
  std::vector<std::int32_t> next_position;  // per pod + 1: the next tier-1 switch's position
  for (std::size_t i = 0; i < n; ++i) {
    tier_[i] = static_cast<std::int8_t>(nodes[i].tier);
    pod_[i] = nodes[i].pod;
    if (nodes[i].tier < 0 || nodes[i].tier > 3) throw std::logic_error("ClosRoutes: a node's tier is not 0..3");
    if (nodes[i].tier != 1) continue;
    const auto slot = static_cast<std::size_t>(nodes[i].pod + 1);
    if (slot >= next_position.size()) next_position.resize(slot + 1, 0);
    key_[i] = next_position[slot]++;
  }
  up_at_.assign(n + 1, 0);
  down_at_.assign(n, 0);
  down_len_.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {  // uplinks in cable order
    up_at_[i] = static_cast<std::int32_t>(ports_.size());
    for (int c : nodes[i].cables) {
      ++build_steps_;
      const Cable& cab = cables[static_cast<std::size_t>(c)];
      const auto m = static_cast<std::size_t>(cab.other(static_cast<int>(i)));
      if (nodes[i].tier == 0) key_[i] = static_cast<std::int32_t>(m);  // a host's switch
      else if (tier_[m] == tier_[i] + 1) ports_.push_back(cab.port_at(c, static_cast<int>(i)));
    }
  }
  up_at_[n] = static_cast<std::int32_t>(ports_.size());
  for (std::size_t i = 0; i < n; ++i) {  // down tables: by the lower neighbour's position (tier 2) or pod (tier 3)
    if (tier_[i] < 2) continue;
    down_at_[i] = static_cast<std::int32_t>(ports_.size());
    for (int c : nodes[i].cables) {
      ++build_steps_;
      const Cable& cab = cables[static_cast<std::size_t>(c)];
      const auto m = static_cast<std::size_t>(cab.other(static_cast<int>(i)));
      if (tier_[m] != tier_[i] - 1) continue;
      const int key = tier_[i] == 2 ? key_[m] : pod_[m];
      if (key < 0 || (tier_[i] == 2 && pod_[m] != pod_[i])) throw std::logic_error("ClosRoutes: " + nodes[i].name + " is not a Clos switch");
      const std::size_t at = static_cast<std::size_t>(down_at_[i]) + static_cast<std::size_t>(key);
      if (at >= ports_.size()) ports_.resize(at + 1, -1);
      if (ports_[at] >= 0) throw std::logic_error("ClosRoutes: " + nodes[i].name + " has two ways down to one place");
      ports_[at] = cab.port_at(c, static_cast<int>(i));
    }
    down_len_[i] = static_cast<std::int32_t>(ports_.size()) - down_at_[i];
  }
}

int ClosRoutes::hops(int node, int to) const {
  if (node == to) return 0;
  const auto i = static_cast<std::size_t>(node);
  const bool same_pod = pod_[i] == pod_[static_cast<std::size_t>(to)];
  switch (tier_[i]) {
    case 0: return key_[i] == to ? 1 : same_pod ? 3 : 5;
    case 1: return same_pod ? 2 : 4;
    case 2: return same_pod ? 1 : 3;
    default: return 2;
  }
}

std::span<const std::int32_t> ClosRoutes::next_ports(int at, int to) const {
  const auto i = static_cast<std::size_t>(at);
  const auto t = static_cast<std::size_t>(to);
  const bool down = tier_[i] == 3 || (tier_[i] == 2 && pod_[i] == pod_[t]);
  if (!down) return {ports_.data() + up_at_[i], static_cast<std::size_t>(up_at_[i + 1] - up_at_[i])};
  const int key = tier_[i] == 2 ? key_[t] : pod_[t];
  if (key < 0 || key >= down_len_[i]) return {};
  const std::size_t at_key = static_cast<std::size_t>(down_at_[i]) + static_cast<std::size_t>(key);
  if (ports_[at_key] < 0) return {};
  return {ports_.data() + at_key, 1};
}

}  // namespace rdmasim
