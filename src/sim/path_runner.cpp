#include "sim/path_runner.hpp"

#include <stdexcept>

#include "sim/stages.hpp"

namespace rdmasim {
namespace {

FifoServer& server_for(HostResources& h, const StageSpec& s) {
  if (s.instance >= 0) throw std::logic_error("fabric cable stage outside a network stage: " + s.label);
  const ResourceKind r = s.res;
  switch (r) {
    case ResourceKind::core: return h.core;
    case ResourceKind::pcie_up: return h.pcie_up;
    case ResourceKind::pcie_down: return h.pcie_down;
    case ResourceKind::wire: return h.wire;
    default: throw std::logic_error("serve stage without a server resource");
  }
}

}  // namespace

PathInstance::PathInstance(SimContext& ctx, std::array<HostResources*, 2> hosts, const PathSpec& spec,
                           MessageSink& sink, FabricProvider* fabrics)
    : ctx_(ctx) {
  if (spec.stages.empty()) throw std::logic_error("empty path");
  for (const StageSpec& s : spec.stages) {
    HostResources& h = *hosts.at(static_cast<std::size_t>(s.side));
    switch (s.kind) {
      case StageKind::delay: stages_.push_back(std::make_unique<DelayStage>(ctx_, s)); break;
      case StageKind::serve: stages_.push_back(std::make_unique<ServeStage>(ctx_, s, server_for(h, s))); break;
      case StageKind::split: stages_.push_back(std::make_unique<SplitStage>(ctx_, s)); break;
      case StageKind::merge: stages_.push_back(std::make_unique<MergeStage>(ctx_)); break;
      case StageKind::moderate: stages_.push_back(std::make_unique<ModerateStage>(ctx_, s, h.moderator)); break;
      case StageKind::network: {
        if (!fabrics || !s.network) throw std::logic_error("network stage without a fabric: " + s.label);
        auto n = std::make_unique<NetworkStage>(ctx_, fabrics->fabric_for(*s.network), *s.network);
        network_.push_back(n.get());
        stages_.push_back(std::move(n));
        break;
      }
    }
    if (ctx_.tracer && s.kind != StageKind::network) stages_.back()->set_site(ctx_.tracer->stage_site(h, s));
    route_.hops.push_back(stages_.back().get());
  }
  route_.sink = &sink;
}

void PathInstance::post(Message& m) {
  Packet& t = *ctx_.packets.acquire();
  t.msg = &m;
  t.route = &route_;
  t.hop = 0;
  t.payload = m.size;
  t.stamp = ctx_.sched.now();
  m.posted = t.stamp;
  if (ctx_.tracer) ctx_.tracer->posted(m, t);
  route_.hops[0]->receive(t);
}

}  // namespace rdmasim
