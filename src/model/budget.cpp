#include "model/budget.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <stdexcept>
#include <utility>
#include <vector>

#include "host/memory.hpp"
#include "path/link.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/load_balancer.hpp"

namespace rdmasim {
namespace {

struct PacketState {
  Time t{};
  Ledger ledger;
  std::vector<CriticalStep> trail;  // only when steps are requested
  Bytes payload{};
  Bytes wire{};
  std::int32_t index = 0;
  bool head = true;
};

}  // namespace

namespace {

void note(PacketState& p, bool track, int stage, Category cat, Time t) {
  p.ledger.add(cat, t);
  if (!track || t == Time::zero()) return;
  if (!p.trail.empty() && p.trail.back().stage == stage && p.trail.back().cat == cat)
    p.trail.back().time += t;
  else
    p.trail.push_back({stage, cat, t});
}

Ledger evaluate(const PathSpec& path, Bytes size, bool mean_jitter, std::vector<CriticalStep>* steps);

}  // namespace

PathSpec flatten_network(const PathSpec& path) {
  PathSpec flat;
  for (const StageSpec& s : path.stages) {
    if (s.kind != StageKind::network) {
      flat.stages.push_back(s);
      continue;
    }
    if (s.network && load_balancer(s.network->options.routing).per_packet_paths)
      throw std::invalid_argument("per-packet spraying has no closed form here; use the simulator");
    for (const PathSpec& sub : s.expansion)
      for (const StageSpec& x : flatten_network(sub).stages) flat.stages.push_back(x);
  }
  return flat;
}

Ledger evaluate_path(const PathSpec& path, Bytes size, bool mean_jitter) {
  return evaluate(flatten_network(path), size, mean_jitter, nullptr);
}

Ledger evaluate_path(const PathSpec& path, Bytes size, bool mean_jitter, std::vector<CriticalStep>& steps) {
  return evaluate(flatten_network(path), size, mean_jitter, &steps);
}

namespace {

Ledger evaluate(const PathSpec& path, Bytes size, bool mean_jitter, std::vector<CriticalStep>* steps) {
  const bool track = steps != nullptr;
  int idx = -1;
  std::vector<PacketState> pk(1);
  pk[0].payload = size;
  using Key = std::tuple<int, ResourceKind, int>;
  std::map<Key, Time> free_at;
  std::set<Key> used_in_section;
  for (const StageSpec& s : path.stages) {
    ++idx;
    switch (s.kind) {
      case StageKind::delay:
        for (PacketState& p : pk) {
          Time d = s.cost.eval(p.payload, size, p.wire);
          if (mean_jitter) d += s.cost.random_mean();
          note(p, track, idx, s.cat, d);
          p.t += d;
        }
        break;
      case StageKind::serve: {
        const Key key{s.instance >= 0 ? -1 : s.side, s.res, s.instance};
        if (pk.size() > 1 && !used_in_section.insert(key).second)
          throw std::logic_error("budget: resource used twice between split and merge (" + s.label +
                                 "); the tandem formula needs distinct servers");
        Time& free = free_at[key];
        PacketState prev;  // previous packet's path when the server became free
        for (PacketState& p : pk) {
          if (p.t < free) {
            // Waiting for the message's own previous packet: the critical path runs through it.
            p.ledger = prev.ledger;
            p.trail = prev.trail;
            p.t = free;
          }
          const Time extra = s.cost.pays_head(p.index, size, p.head) ? s.cost.head_extra : Time::zero();
          const Time service = s.cost.eval_at(p.index, p.payload, size, p.wire);
          const Time release = release_time(s.cost, service, size);
          note(p, track, idx, s.cost.head_cat, extra);
          note(p, track, idx, s.cat, release);
          prev.ledger = p.ledger;
          prev.trail = p.trail;
          note(prev, track, idx, s.cat, service - release);
          free = p.t + service + extra;
          p.t += release + extra;
        }
        break;
      }
      case StageKind::split: {
        used_in_section.clear();
        const PacketState token = pk.front();
        const std::int32_t n = s.split.header_only ? 1 : packet_count(size, s.split.segment);
        pk.assign(static_cast<std::size_t>(n), token);
        for (std::int32_t i = 0; i < n; ++i) {
          PacketState& p = pk[static_cast<std::size_t>(i)];
          p.payload = s.split.header_only ? Bytes{} : packet_payload(size, s.split.segment, i);
          p.wire = frame_wire_bytes(s.split.frame, frame_pos(i, n), p.payload, s.split.layer);
          p.index = i;
          p.head = true;
        }
        break;
      }
      case StageKind::merge: {
        std::size_t last = 0;
        for (std::size_t i = 0; i < pk.size(); ++i)
          if (pk[i].t >= pk[last].t) last = i;
        PacketState token = pk[last];
        token.payload = size;
        token.index = 0;
        pk.assign(1, token);
        break;
      }
      case StageKind::network:
        throw std::logic_error("budget: network stage not flattened");
      case StageKind::moderate: {
        std::vector<std::size_t> pending;
        bool fired = false;
        Time last_fire{};
        auto fire = [&](Time at) {
          fired = true;
          last_fire = at;
          for (std::size_t i = 0; i < pending.size(); ++i) {
            PacketState& p = pk[pending[i]];
            note(p, track, idx, Category::interrupt, at - p.t);
            p.t = at;
            p.head = i == 0;
          }
          pending.clear();
        };
        for (std::size_t k = 0; k < pk.size(); ++k) {
          if (!pending.empty()) {
            const Time timer = pk[pending.front()].t + s.moderation.usecs;
            if (timer <= pk[k].t) fire(timer);  // timer first on a tie, as the simulator
          }
          const bool at_once = s.moderation.adaptive && pending.empty() && (!fired || pk[k].t - last_fire >= s.moderation.usecs);
          pending.push_back(k);
          if (at_once || static_cast<int>(pending.size()) >= s.moderation.frames) fire(pk[k].t);
        }
        if (!pending.empty()) fire(pk[pending.front()].t + s.moderation.usecs);
        break;
      }
    }
  }
  if (steps) *steps = pk.front().trail;
  return pk.front().ledger;
}

}  // namespace

BudgetResult run_budget(const LatConfig& c) {
  const ExchangePaths e = build_exchange(c);
  BudgetResult r;
  r.config = c;
  r.toggles = e.toggles;
  r.rtt_factor = e.rtt_factor;
  r.routes = e.routes;
  const bool read = !e.reverse.has_value();
  auto run = [&](const PathSpec& spec) {
    const PathSpec p = flatten_network(spec);
    std::vector<CriticalStep> steps;
    r.rtt.add(evaluate_path(p, c.size, true, steps));  // random parts at their mean
    for (const CriticalStep& s : steps)
      r.critical_path.push_back({p.stages[static_cast<std::size_t>(s.stage)].label, s.cat, s.time});
  };
  run(e.forward);
  if (e.reverse) run(*e.reverse);
  r.reported_ps = static_cast<double>(r.rtt.total().count_ps()) / r.rtt_factor;

  const Link link(c.profile.link);
  const bool tcp = c.transport == Transport::tcp;
  const FrameKind fk = tcp ? FrameKind::tcp_segment
                       : read ? FrameKind::roce_read_response
                       : c.test == TestKind::send ? FrameKind::roce_send
                                                  : FrameKind::roce_write;
  r.message_wire_bytes = message_wire_bytes(fk, c.size, tcp ? c.profile.tcp.mss : c.mtu,
                                            tcp ? LinkLayer::roce : c.link_layer);
  r.formula_transmit = link.serialization(r.message_wire_bytes);
  r.formula_propagate = link.propagation();
  r.kernel_tx = c.profile.kernel.tx_stack;
  r.kernel_rx = c.profile.kernel.rx_stack;
  r.copy_one = HostMemory(c.profile.mem).copy_time(c.size);
  r.switch_one = c.profile.kernel.syscall;
  r.copies_n = c.profile.host.tx_copies + c.profile.host.rx_copies;
  r.zero_copy_saving = (r.copy_one + r.switch_one) * std::max(0, r.copies_n - 1);
  return r;
}

}  // namespace rdmasim
