#include "sim/path_runner.hpp"

#include <algorithm>
#include <stdexcept>

#include "net/wire_format.hpp"
#include "rdmasim/rate_control.hpp"
#include "rdmasim/tcp_cc.hpp"
#include "sim/stages.hpp"
#include "sim/wire_tap.hpp"

namespace rdmasim {
namespace {

FifoServer& server_for(HostResources& h, const StageSpec& s, int core) {
  if (s.instance >= 0) throw std::logic_error("fabric cable stage outside a network stage: " + s.label);
  const ResourceKind r = s.res;
  switch (r) {
    case ResourceKind::core: return h.core_at(core);
    case ResourceKind::pcie_up: return h.pcie_up;
    case ResourceKind::pcie_down: return h.pcie_down;
    case ResourceKind::wire: return h.wire;
    case ResourceKind::gpu_copy:
    case ResourceKind::gpu_copy_h2d:
    case ResourceKind::socket_up:
    case ResourceKind::socket_down: return h.staging(r);
    case ResourceKind::nic_engine: return h.nic_engine;
    default: throw std::logic_error("serve stage without a server resource");
  }
}

// A stage that unsignaled messages pass without effect (the requester's CQE write and poll
// of a WQE posted without IBV_SEND_SIGNALED); signaled ones go through `inner`, which
// forwards them itself (it sees the same hop index).
class SignaledOnlyStage final : public Stage {
 public:
  SignaledOnlyStage(SimContext& ctx, std::unique_ptr<Stage> inner) : Stage(ctx), inner_(std::move(inner)) {}
  void receive(Packet& p) override {
    if (p.msg->unsignaled) return forward(p);
    inner_->receive(p);
  }
  void on_event(std::uint64_t) override {}
  Stage& inner() { return *inner_; }
  void link(Stage* next) override {
    Stage::link(next);
    inner_->link(next);
  }

 private:
  std::unique_ptr<Stage> inner_;
};

// Tells an observer about each packet, then hands it to the stage it wraps.
class ObservedStage final : public Stage {
 public:
  ObservedStage(SimContext& ctx, std::unique_ptr<Stage> inner, StageObserver& o)
      : Stage(ctx), inner_(std::move(inner)), observer_(o) {}
  void receive(Packet& p) override {
    observer_.passed(p);
    inner_->receive(p);
  }
  void on_event(std::uint64_t) override {}
  void link(Stage* next) override {
    Stage::link(next);
    inner_->link(next);
  }

 private:
  std::unique_ptr<Stage> inner_;
  StageObserver& observer_;
};
// A core stage that takes an interrupt: an irq stage (also inside connection setup, where it is
// charged to `setup`), or a stage whose (batch) head pays an irq.
bool takes_interrupt(const StageSpec& s) {
  if (s.res != ResourceKind::core) return false;
  if (s.cost.head_extra > Time::zero()) return s.cost.head_cat == Category::interrupt || s.label.ends_with("kernel.irq");
  return (s.cat == Category::interrupt && s.cost.fixed > Time::zero()) || s.label.ends_with("kernel.irq");
}

}  // namespace

FifoServer& HostResources::core_at(int i) {
  if (i < 0 || i > 4096) throw std::logic_error("core index out of range");
  if (i == 0) return core;
  while (static_cast<int>(more_cores_.size()) < i) more_cores_.push_back(std::make_unique<FifoServer>(*sched_));
  return *more_cores_[static_cast<std::size_t>(i - 1)];
}

FifoServer& HostResources::staging(ResourceKind r) {
  static_assert(static_cast<int>(ResourceKind::gpu_copy_h2d) == static_cast<int>(ResourceKind::gpu_copy) + 1 &&
                    static_cast<int>(ResourceKind::socket_down) == static_cast<int>(ResourceKind::gpu_copy) + 3,
                "the staging resources are consecutive, in staging_'s order");
  const auto i = static_cast<std::size_t>(r) - static_cast<std::size_t>(ResourceKind::gpu_copy);
  if (i >= staging_.size()) throw std::logic_error("not a staging resource");
  if (!staging_[i]) staging_[i] = std::make_unique<FifoServer>(*sched_);
  return *staging_[i];
}

Time HostResources::gpu_copy_busy() const {
  Time t{};
  for (std::size_t i = 0; i < 2; ++i)  // the two copy engines
    if (staging_[i]) t += staging_[i]->busy_time();
  return t;
}

HostCounters HostResources::counters() const {
  HostCounters c;
  c.cpu_busy = core.busy_time();
  for (const auto& k : more_cores_) c.cpu_busy += k->busy_time();
  c.cores = cores();
  c.interrupts = interrupts;
  c.moderated_packets = moderator.packets();
  c.moderation_wait = moderator.total_wait();
  c.max_moderation_wait = moderator.max_wait();
  c.gpu_copy_busy = gpu_copy_busy();
  return c;
}

RcOptions rc_options(const NetworkSpec& n) {
  RcOptions o;
  o.rc = n.rc;
  o.cc = &rate_control(n.options.cc);
  o.profile = n.profile.get();
  const Topology& t = *n.topology;
  o.line = t.cables()[static_cast<std::size_t>(t.nodes()[static_cast<std::size_t>(t.host_node(n.src))].cables.at(0))].rate;
  o.ack_wire = frame_wire_bytes(FrameKind::roce_ack, FramePos::only, Bytes(0), n.options.layer);
  o.cnp_wire = frame_wire_bytes(FrameKind::roce_cnp, FramePos::only, Bytes(0), n.options.layer);
  o.requester_qp = kFirstQpn;
  return o;
}

PathInstance::PathInstance(std::array<SimContext*, 2> ctx, std::array<HostResources*, 2> hosts, const PathSpec& spec,
                           MessageSink& sink, FabricProvider* fabrics, RcConnection* shared_rc, std::array<int, 2> core)
    : ctx_(*ctx[0]) {
  if (spec.stages.empty()) throw std::logic_error("empty path");
  std::pair<NetworkStage*, const NetworkSpec*> rc_data{nullptr, nullptr};
  NetworkStage* rc_ack = nullptr;
  int rc_side = 0;  // the requester's
  for (const StageSpec& s : spec.stages) {
    HostResources& h = *hosts.at(static_cast<std::size_t>(s.side));
    SimContext& sc = *ctx.at(static_cast<std::size_t>(s.side));
    switch (s.kind) {
      case StageKind::delay: stages_.push_back(std::make_unique<DelayStage>(sc, s, h.jitter)); break;
      case StageKind::serve: {
        FifoServer* server = nullptr;
        if (s.res == ResourceKind::qp_engine) {  // this path's QP's send engine on that side
          std::unique_ptr<FifoServer>& e = engines_.at(static_cast<std::size_t>(s.side));
          if (!e) e = std::make_unique<FifoServer>(sc.sched);
          server = e.get();
        } else {
          server = &server_for(h, s, core.at(static_cast<std::size_t>(s.side)));
        }
        stages_.push_back(std::make_unique<ServeStage>(sc, s, *server, takes_interrupt(s) ? &h.interrupts : nullptr));
        break;
      }
      case StageKind::split: stages_.push_back(std::make_unique<SplitStage>(sc, s)); break;
      case StageKind::merge: stages_.push_back(std::make_unique<MergeStage>(sc)); break;
      case StageKind::moderate: stages_.push_back(std::make_unique<ModerateStage>(sc, s, h.moderator)); break;
      case StageKind::network: {
        if (!fabrics || !s.network) throw std::logic_error("network stage without a fabric: " + s.label);
        auto n = std::make_unique<NetworkStage>(sc, fabrics->fabric_for(*s.network), *s.network);
        n->set_route(route_);
        network_.push_back(n.get());
        if (s.role == NetRole::rc_data) rc_data = {n.get(), s.network.get()}, rc_side = s.side;
        if (s.role == NetRole::rc_ack) rc_ack = n.get();
        if (s.role == NetRole::tcp_data) {
          if (!s.ack_network) throw std::logic_error("TCP network stage without its reverse flow: " + s.label);
          tcp_ack_ = std::make_unique<NetworkStage>(ctx_, fabrics->fabric_for(*s.ack_network), *s.ack_network);
          TcpOptions o;
          o.tcp = s.network->tcp;
          o.cc = &tcp_congestion_control(s.network->options.tcp_cc);
          o.ack_wire = frame_wire_bytes(FrameKind::tcp_segment, FramePos::only, Bytes(0), LinkLayer::roce);
          tcp_ = std::make_unique<TcpConnection>(ctx_, o);
          tcp_->bind(*n, *tcp_ack_);
          n->bind(*tcp_, NetRole::tcp_data);
          tcp_ack_->bind(*tcp_, NetRole::rc_ack);
        }
        stages_.push_back(std::move(n));
        break;
      }
    }
    if (ctx_.tracer && s.kind != StageKind::network) stages_.back()->set_site(ctx_.tracer->stage_site(h, s));
    if (s.signaled_only && s.kind != StageKind::network)
      stages_.back() = std::make_unique<SignaledOnlyStage>(sc, std::move(stages_.back()));
    route_.hops.push_back(stages_.back().get());
    labels_.push_back(&ctx_.labels.intern(s.label));
  }
  route_.sink = &sink;
  link_route();
  if (rc_data.first && (rc_ack || shared_rc)) {
    if (shared_rc) {
      rc_ = shared_rc;
    } else {
      own_rc_ = std::make_unique<RcConnection>(*ctx.at(static_cast<std::size_t>(rc_side)),
                                               *ctx.at(static_cast<std::size_t>(1 - rc_side)), rc_options(*rc_data.second));
      rc_ = own_rc_.get();
    }
    route_.rc_data = rc_data.first;
    route_.rc_ack = rc_ack;
    rc_data.first->bind(*rc_, NetRole::rc_data);
    if (rc_->wants_telemetry()) rc_data.first->stamp_telemetry(*rc_);
    if (rc_ack) {
      rc_->bind_ack(*rc_ack);
      rc_ack->bind(*rc_, NetRole::rc_ack);
    }
  }
}

PathInstance::~PathInstance() = default;

PathInstance::Quiet PathInstance::quiet_here() const {
  Quiet q;
  q.rc_quiescent = !own_rc_ || own_rc_->quiescent();
  const auto add = [&](const NetworkStage& n) {  // every flow's count is >= 0 in the sum over ranks
    q.queued = q.queued || n.flow_queued();
    q.in_flight += n.in_flight();
  };
  if (tcp_ack_) add(*tcp_ack_);
  for (const NetworkStage* n : network_) add(*n);
  return q;
}

void PathInstance::set_traffic_class(int tc) {
  for (const std::unique_ptr<Stage>& s : stages_)
    if (auto* n = dynamic_cast<NetworkStage*>(s.get())) n->set_traffic_class(tc);
  if (tcp_ack_) tcp_ack_->set_traffic_class(tc);
}

void PathInstance::release_fabric_flows(bool counted_over_ranks) {
  if (!counted_over_ranks && !idle()) throw std::logic_error("path: its fabric flows released while it is busy");
  for (const std::unique_ptr<Stage>& s : stages_)
    if (auto* n = dynamic_cast<NetworkStage*>(s.get())) n->release_flow(counted_over_ranks);
  if (tcp_ack_) tcp_ack_->release_flow(counted_over_ranks);
}

void PathInstance::link_route() {
  for (std::size_t i = 0; i < route_.hops.size(); ++i) route_.hops[i]->link(i + 1 < route_.hops.size() ? route_.hops[i + 1] : nullptr);
}

void PathInstance::observe_after(const std::string& label, StageObserver& o) {
  for (std::size_t i = 0; i + 1 < labels_.size(); ++i) {
    if (*labels_[i] != label) continue;
    if (dynamic_cast<NetworkStage*>(stages_[i + 1].get())) throw std::logic_error("cannot observe before a network stage");
    stages_[i + 1] = std::make_unique<ObservedStage>(ctx_, std::move(stages_[i + 1]), o);
    route_.hops[i + 1] = stages_[i + 1].get();
    link_route();
    return;
  }
  throw std::logic_error("no stage \"" + label + "\" followed by another on this path");
}

void PathInstance::set_connection(std::uint32_t c) {
  route_.connection = c;
  if (rc_) rc_->set_requester_qp(kFirstQpn + 2 * c);
}

void PathInstance::post(Message& m) { post(m, Ledger{}, ctx_.sched.now()); }

void PathInstance::post(Message& m, const Ledger& ledger, Time posted) {
  if (ledger.total() != ctx_.sched.now() - posted) throw std::logic_error("carried ledger != time since the post");
  Packet& t = *ctx_.packets.acquire();
  t.msg = &m;
  t.route = &route_;
  t.payload = m.size;
  t.stamp = ctx_.sched.now();
  t.ledger = ledger;
  m.posted = posted;
  if (ctx_.tracer) ctx_.tracer->posted(m, t);
  route_.hops[0]->receive(t);
}

}  // namespace rdmasim
