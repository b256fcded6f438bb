#include "net/next_hops.hpp"

#include <algorithm>

#include "net/routing.hpp"

namespace rdmasim {

NextHopTable::NextHopTable(const Topology& t) {
  const auto& nodes = t.nodes();
  const auto& cables = t.cables();
  auto is_switch = [&](int n) { return nodes[static_cast<std::size_t>(n)].kind == NodeKind::switch_; };
  attach_slot_.assign(nodes.size(), -1);
  clos_ = t.distance_cache().clos;
  for (int h = 0; h < t.host_count(); ++h) {
    ++build_steps_;
    const int hn = t.host_node(h);
    const int c = nodes[static_cast<std::size_t>(hn)].cables.at(0);
    host_port_.push_back(port_of(t, c, hn));
    host_rate_.push_back(cables[static_cast<std::size_t>(c)].rate.bits_per_sec());
    const int a = cables[static_cast<std::size_t>(c)].other(hn);
    attach_.push_back(a);
    if (attach_slot_[static_cast<std::size_t>(a)] < 0) attach_slot_[static_cast<std::size_t>(a)] = slots_++;
  }
  int switches = 0;
  switch_index_.assign(nodes.size(), -1);
  for (std::size_t n = 0; n < nodes.size(); ++n, ++build_steps_)
    if (is_switch(static_cast<int>(n))) switch_index_[n] = switches++;
  port_rate_.resize(cables.size() * 2);
  for (std::size_t c = 0; c < cables.size(); ++c, ++build_steps_) port_rate_[c * 2] = port_rate_[c * 2 + 1] = cables[c].rate.bits_per_sec();
  // Self-loops for attachment switches: the host's cable, seen from the switch (the last
  // host_count() ports).
  const auto self_loops = [&] {
    for (std::int32_t& p : host_port_) ports_.push_back(p ^ 1);
    ports_.shrink_to_fit();
  };
  if (clos_) {
    self_loops();
    return;
  }
  entries_.resize(static_cast<std::size_t>(switches) * static_cast<std::size_t>(slots_));
  std::vector<Entry> last(static_cast<std::size_t>(switches));  // per switch: its entry built last
  for (std::size_t e = 0; e < nodes.size(); ++e) {
    const int slot = attach_slot_[e];
    if (slot < 0 || !is_switch(static_cast<int>(e))) continue;
    const std::vector<int>& d = cached_distances_to(t, static_cast<int>(e));
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      if (!is_switch(static_cast<int>(n)) || n == e || d[n] < 0) continue;
      Entry& en = entries_[static_cast<std::size_t>(switch_index_[n]) * static_cast<std::size_t>(slots_) + static_cast<std::size_t>(slot)];
      en.offset = static_cast<std::uint32_t>(ports_.size());
      for (int c : nodes[n].cables) {  // cable order, as ecmp_route
        ++build_steps_;
        const Cable& cab = cables[static_cast<std::size_t>(c)];
        const int m = cab.other(static_cast<int>(n));
        if (!is_switch(m) || d[static_cast<std::size_t>(m)] != d[n] - 1 || !cab.can_cross(static_cast<int>(n))) continue;
        ports_.push_back(port_of(t, c, static_cast<int>(n)));
        ++en.count;
      }
      // The same next hops as this switch's previous entry (its uplinks towards every other
      // pod, a core's port towards each edge of a pod): share that entry's list.
      Entry& prev = last[static_cast<std::size_t>(switch_index_[n])];
      if (prev.count == en.count && en.count > 0 &&
          std::equal(ports_.begin() + en.offset, ports_.end(), ports_.begin() + prev.offset)) {
        ports_.resize(en.offset);
        en.offset = prev.offset;
      }
      prev = en;
    }
  }
  self_loops();
}

NextHopTable::Hops NextHopTable::towards(int node, int dst_host) const {
  const auto host = static_cast<std::size_t>(dst_host);
  if (node == attach_[host]) {
    const std::size_t at = ports_.size() - host_port_.size() + host;
    return {std::span<const std::int32_t>(ports_.data() + at, 1), host_rate_[host]};
  }
  const int sw = switch_index_[static_cast<std::size_t>(node)];
  if (sw < 0) return {};  // a host forwards nothing
  Hops h;
  if (clos_) {
    h.ports = clos_->next_ports(node, attach_[host]);
  } else {
    const auto slot = static_cast<std::size_t>(attach_slot_[static_cast<std::size_t>(attach_[host])]);
    const Entry& en = entries_[static_cast<std::size_t>(sw) * static_cast<std::size_t>(slots_) + slot];
    h.ports = std::span<const std::int32_t>(ports_.data() + en.offset, en.count);
  }
  for (std::int32_t p : h.ports) h.max_rate_bps = std::max(h.max_rate_bps, port_rate_[static_cast<std::size_t>(p)]);
  return h;
}

}  // namespace rdmasim
