#include "lb/flowlet.hpp"

#include <bit>
#include <memory>
#include <stdexcept>

namespace rdmasim {
namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

Flowlet::Flowlet(Time timeout, int table, const LoadBalancerContext& ctx)
    : timeout_(timeout),
      mask_(static_cast<std::uint32_t>(std::bit_ceil(static_cast<unsigned>(table))) - 1),
      seed_(ctx.seed),
      tables_(static_cast<std::size_t>(ctx.nodes)) {}

std::uint32_t Flowlet::choose(const HopChoice& c) {
  std::vector<Slot>& t = tables_.at(static_cast<std::size_t>(c.node));
  if (t.empty()) t.resize(mask_ + 1);
  const auto tag = static_cast<std::uint32_t>(mix(c.flow) >> 32);
  Slot& s = t[c.hash & mask_];
  if (!s.used || s.flow != tag) {  // the flow's first packet here: ECMP's next hop
    s = {c.now, tag, static_cast<std::uint16_t>(c.hash % c.count), true};
  } else if (c.now - s.last > timeout_) {  // a gap: a new flowlet on a random next hop
    const std::uint64_t draw = mix(seed_ ^ mix(c.flow ^ mix(static_cast<std::uint64_t>(c.node) << 32 ^
                                                             static_cast<std::uint64_t>(c.now.count_ps()))));
    s.choice = static_cast<std::uint16_t>(draw % c.count);
    ++new_flowlets_;
  }
  s.last = c.now;
  return s.choice < c.count ? s.choice : s.choice % c.count;  // the fan-out shrank (a link went down)
}

LoadBalancerSpec flowlet_load_balancer() {
  LoadBalancerSpec s;
  s.name = "flowlet";
  s.description = "LetFlow: a flow moves to a random equal-cost next hop after a gap of switch.flowlet_timeout";
  s.params = "switch.flowlet_";
  s.source = "Vanini et al., Let It Flow, NSDI 2017";
  s.dynamic = true;
  s.route_note = "flowlets (a new random path after an idle gap); unloaded: ";
  s.make = [](const SwitchParams& p, const LoadBalancerContext& ctx) {
    return std::make_unique<Flowlet>(p.flowlet_timeout, p.flowlet_table, ctx);
  };
  return s;
}

}  // namespace rdmasim
