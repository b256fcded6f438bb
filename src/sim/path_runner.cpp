#include "sim/path_runner.hpp"

#include <stdexcept>

#include "sim/stages.hpp"

namespace rdmasim {
namespace {

FifoServer& server_for(HostResources& h, ResourceKind r) {
  switch (r) {
    case ResourceKind::core: return h.core;
    case ResourceKind::pcie_up: return h.pcie_up;
    case ResourceKind::pcie_down: return h.pcie_down;
    case ResourceKind::wire: return h.wire;
    default: throw std::logic_error("serve stage without a server resource");
  }
}

}  // namespace

FifoServer& FabricWires::at(int instance) {
  auto& w = wires_[instance];
  if (!w) w = std::make_unique<FifoServer>(sched_);
  return *w;
}

PathInstance::PathInstance(SimContext& ctx, std::array<HostResources*, 2> hosts, const PathSpec& spec,
                           MessageSink& sink, FabricWires* wires)
    : ctx_(ctx) {
  if (spec.stages.empty()) throw std::logic_error("empty path");
  build(spec, route_, hosts, wires);
  route_.sink = &sink;
}

void PathInstance::build(const PathSpec& spec, Route& route, std::array<HostResources*, 2> hosts, FabricWires* wires) {
  for (const StageSpec& s : spec.stages) {
    HostResources& h = *hosts.at(static_cast<std::size_t>(s.side));
    switch (s.kind) {
      case StageKind::delay: stages_.push_back(std::make_unique<DelayStage>(ctx_, s)); break;
      case StageKind::serve: {
        if (s.instance >= 0 && !wires) throw std::logic_error("fabric stage without fabric wires: " + s.label);
        FifoServer& server = s.instance >= 0 ? wires->at(s.instance) : server_for(h, s.res);
        stages_.push_back(std::make_unique<ServeStage>(ctx_, s, server));
        break;
      }
      case StageKind::split: stages_.push_back(std::make_unique<SplitStage>(ctx_, s)); break;
      case StageKind::merge: stages_.push_back(std::make_unique<MergeStage>(ctx_)); break;
      case StageKind::moderate: stages_.push_back(std::make_unique<ModerateStage>(ctx_, s, h.moderator)); break;
      case StageKind::spray: {
        if (s.alternatives.empty()) throw std::logic_error("spray stage without routes");
        const auto hop = static_cast<std::uint32_t>(route.hops.size());
        std::vector<const Route*> alts;
        for (const PathSpec& a : s.alternatives) {
          alternatives_.push_back(std::make_unique<Route>());
          Route& r = *alternatives_.back();
          build(a, r, hosts, wires);
          stages_.push_back(std::make_unique<RejoinStage>(ctx_, route, hop));
          r.hops.push_back(stages_.back().get());
          alts.push_back(&r);
        }
        stages_.push_back(std::make_unique<SprayStage>(ctx_, std::move(alts)));
        break;
      }
    }
    route.hops.push_back(stages_.back().get());
  }
}

void PathInstance::post(Message& m) {
  Packet& t = *ctx_.packets.acquire();
  t.msg = &m;
  t.route = &route_;
  t.hop = 0;
  t.payload = m.size;
  t.stamp = ctx_.sched.now();
  m.posted = t.stamp;
  route_.hops[0]->receive(t);
}

}  // namespace rdmasim
