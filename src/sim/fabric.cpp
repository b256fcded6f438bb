#include "sim/fabric.hpp"

#include <algorithm>
#include <stdexcept>

#include "path/link.hpp"
#include "net/routing.hpp"
#include "net/wire_format.hpp"
#include "sim/fabric_port.hpp"

namespace rdmasim {

using namespace fabric_detail;

namespace {

/// Bytes a rate moves in time t (rounded up).
std::int64_t bytes_in(Time t, Rate r) {
  const i128 num = static_cast<i128>(t.count_ps()) * r.bits_per_sec();
  const i128 den = static_cast<i128>(8) * 1'000'000'000'000LL;
  return static_cast<std::int64_t>((num + den - 1) / den);
}

}  // namespace

Fabric::Fabric(Scheduler& s, std::shared_ptr<const Topology> t, const FabricOptions& o, std::uint64_t seed)
    : sched_(s), topo_(std::move(t)), hops_(*topo_), opt_(o), notice_delay_(longest_propagation(*topo_, o.velocity_mps)), lp_sched_{&s} {
  const Topology& topo = *topo_;
  const auto& cables = topo.cables();
  switches_.resize(topo.nodes().size());
  ports_.reserve(cables.size() * 2);  // never reallocated: the scheduler holds the ports
  const unsigned carried = opt_.classes | 1u << opt_.sw.data_tc;
  std::uint8_t classes = 0;
  for (unsigned tc = 0; tc < kClasses; ++tc) class_slot_[tc] = carried >> tc & 1 ? classes++ : kNoClass;
  port_classes_ = classes;
  class_store_.resize(cables.size() * 2 * classes);
  for (std::size_t ci = 0; ci < cables.size(); ++ci) {
    const Cable& c = cables[ci];
    const Time prop = cable_propagation(c, opt_.velocity_mps);
    for (int dir = 0; dir < 2; ++dir) {
      Port* port = &ports_.emplace_back(*this, static_cast<int>(ci) * 2 + dir);
      port->cls = {&class_store_[static_cast<std::size_t>(port->id) * classes], class_slot_};
      port->node = dir == 0 ? c.a : c.b;
      port->peer = dir == 0 ? c.b : c.a;
      port->peer_switch = is_switch(port->peer);
      port->node_switch = is_switch(port->node);
      port->rate = c.rate;
      port->prop = prop;
      port->ct_release = serialization_time(opt_.sw.cut_through_bytes, c.rate);
      const auto& drops = dir == 0 ? c.drops_from_a : c.drops_from_b;
      const auto& windows = dir == 0 ? c.windows_from_a : c.windows_from_b;
      if (!drops.empty() || !windows.empty() || c.loss > 0)
        port->losses = std::make_unique<Port::Losses>(Port::Losses{c.loss, drops, windows});
      port->refresh_faulty();
      if (opt_.layer == LinkLayer::ib && port->peer_switch) port->fill_credits(opt_.sw.ib_vl_buffer.count());
    }
  }
  const bool red = opt_.layer == LinkLayer::roce && opt_.sw.ecn && opt_.sw.ecn_pmax > 0;
  const bool lossy = std::any_of(cables.begin(), cables.end(), [](const Cable& c) { return c.loss > 0; });
  for (std::size_t i = 0; red && i < ports_.size(); ++i) ecn_rng_.emplace_back(seed, "fabric.ecn", i);
  for (std::size_t i = 0; lossy && i < ports_.size(); ++i) loss_rng_.emplace_back(seed, "fabric.loss", i);
  if (opt_.sw.cut_through) {  // which ports may hand frames on early (start_next)
    std::vector<std::int64_t> fastest(topo.nodes().size(), 0);  // per node: its fastest cable
    for (const Cable& c : cables)
      for (int n : {c.a, c.b}) {
        std::int64_t& f = fastest[static_cast<std::size_t>(n)];
        f = std::max(f, c.rate.bits_per_sec());
      }
    for (Port& p : ports_) {
      if (!p.peer_switch) continue;
      const bool none_faster = fastest[static_cast<std::size_t>(p.peer)] <= p.rate.bits_per_sec();
      p.cut_through = none_faster ? Port::CutThrough::always : Port::CutThrough::per_frame;
    }
  }
  const LoadBalancerSpec& lb = load_balancer(opt_.routing);
  hash_only_ = lb.hash_only;
  if (!hash_only_) lb_ = lb.make(opt_.sw, {static_cast<int>(topo.nodes().size()), seed});
  static_routes_ = !lb.dynamic;
  pipeline_ = opt_.sw.forwarding(opt_.layer == LinkLayer::ib);
  buffer_policy_ = buffer_policy(opt_.sw.buffer_policy).make(opt_.sw);
  const QueueSchedulerSpec& scheduler = queue_scheduler(opt_.sw.scheduler);
  schedulers_.resize(ports_.size());
  for (Port& p : ports_)
    if (is_switch(p.node)) p.scheduled = (schedulers_[static_cast<std::size_t>(p.id)] = scheduler.make(opt_.sw)) != nullptr;
  for (std::size_t ci = 0; ci < cables.size(); ++ci) {  // link faults, in time order by the scheduler
    const auto arg = static_cast<std::uint64_t>(ci * 2) << 32;
    if (cables[ci].down_at != Time::max() || cables[ci].up_at != Time::max()) static_routes_ = false, faults_ = true;
    if (cables[ci].down_at != Time::max()) sched_.schedule_at(cables[ci].down_at, control_, arg | kLinkDown << 28);
    if (cables[ci].up_at != Time::max()) sched_.schedule_at(cables[ci].up_at, control_, arg | kLinkUp << 28);
  }
  // PFC headroom: what still arrives after XOFF — the frame the upstream is sending, the frame
  // delaying our pause frame, one more in the pipeline, a round trip of the cable, and what is
  // inside this switch's forwarding pipeline (a frame is admitted when it leaves it: at 400 Gb/s
  // a 300 ns pipeline holds 15 KB, more than the frames above).
  const bool pfc = opt_.layer == LinkLayer::roce && opt_.sw.lossless;
  for (auto& p : ports_) {
    if (!pfc || !is_switch(p.node)) continue;
    const std::int64_t need = 2 * bytes_in(p.prop, p.rate) + bytes_in(pipeline_, p.rate) + 3 * opt_.max_frame.count() +
                              kPauseFrameWire;
    p.headroom = opt_.sw.pfc_headroom.count() > 0 ? opt_.sw.pfc_headroom.count() : need;
    if (p.headroom < need)
      throw std::invalid_argument("switch.pfc_headroom: " + std::to_string(p.headroom) + "B is less than the " +
                                  std::to_string(need) + "B port " + port_name(p.id) +
                                  " needs to stay lossless ((2 x propagation + pipeline) x rate + 3 frames); raise it or use 0");
  }
  for (const Port& p : ports_)
    if (is_switch(p.node)) switches_[static_cast<std::size_t>(p.node)].ports.push_back(p.id);
  for (std::size_t n = 0; n < topo.nodes().size(); ++n) {
    if (!is_switch(static_cast<int>(n))) continue;
    std::int64_t reserved = 0;
    for (int c : topo.nodes()[n].cables) reserved += ports_[static_cast<std::size_t>(c * 2 + (cables[static_cast<std::size_t>(c)].a == static_cast<int>(n) ? 0 : 1))].headroom;
    switches_[n].shared_size = opt_.sw.buffer.count() - reserved;
    if (switches_[n].shared_size < 4 * opt_.max_frame.count())
      throw std::invalid_argument("switch.buffer: " + std::to_string(opt_.sw.buffer.count()) + "B leaves no shared buffer at " +
                                  topo.nodes()[n].name + " after " + std::to_string(reserved) + "B of PFC headroom");
  }
}

Fabric::~Fabric() {
  // A power-of-two stride would put the same field of every port in the same few cache sets.
  static_assert(sizeof(Port) % 128 == 64, "Fabric::Port: keep its size an odd number of cache lines");
}

void Fabric::attach(Tracer* tracer, WireTap* tap) {
  if ((tracer || tap) && run_) throw std::invalid_argument("a partitioned fabric is neither traced nor captured");
  tracer_ = tracer;
  tap_ = tap;
  observed_ = tracer_ || tap_ || telemetry_;
  if (tracer_) {
    tracer_->attach(*this);
    site_base_ = tracer_->port_site(0, Tracer::port_transmit);
    node_site_base_ = tracer_->pipeline_site(0);
  }
}

void Fabric::reach(const Port& from, const Port& to, Time at, EventHandler& h, std::uint64_t arg, const Crossing& crossing) {
  Scheduler& s = sched(from);
  const Scheduler::Tie tie = s.tie(static_cast<std::uint32_t>(from.node) + 1);
  if (from.lp == to.lp) [[likely]]
    return s.schedule_at(at, h, arg, tie);
  if (crossing.control != kControlCrossing && !run_->runs_here(to.lp)) return send_away(from, to, at, tie, crossing);
  run_->send(from.lp, inboxes_[to.lp]->id, at, tie, std::as_bytes(std::span(&crossing, 1)));
}

void Fabric::note_queue(Port& e) {
  const Time now = now_at(e);
  e.c.queue_byte_ps += static_cast<double>(e.queued) * static_cast<double>((now - e.queue_since).count_ps());
  e.queue_since = now;
}

void Fabric::traced_depth(const Port& e) { tracer_->queue_depth(e.id, now_at(e), e.queued); }

bool Fabric::is_switch(int node) const { return topo_->nodes()[static_cast<std::size_t>(node)].kind == NodeKind::switch_; }

int Fabric::port_count() const { return static_cast<int>(ports_.size()); }

std::size_t Fabric::port_bytes() const {
  return sizeof(Port) + port_classes_ * sizeof(PortClass);
}

const PortCounters& Fabric::counters(int port) const { return ports_.at(static_cast<std::size_t>(port)).c; }

std::int64_t Fabric::headroom(int port) const { return ports_.at(static_cast<std::size_t>(port)).headroom; }

std::string Fabric::port_name(int port) const {
  const Port& p = ports_.at(static_cast<std::size_t>(port));
  return topo_->egress_name(p.node, p.peer);
}

FabricFlow::RouteMemo Fabric::route_memo(FabricFlow& f, int node, int hint) const {
  if (!routing_.empty())  // partitioned with link faults: the node's LP's table, no memo (its switches run at once)
    return next_hops(f, node, routing_[lp_routing_[static_cast<std::size_t>(node_lp_[static_cast<std::size_t>(node)])]]);
  if (f.memo_epoch != static_cast<std::uint32_t>(tally_[0].reroutes)) {  // the next-hop table was rebuilt since: forget
    f.memo_used = 0;
    f.memo_epoch = static_cast<std::uint32_t>(tally_[0].reroutes);
  }
  if (hint < f.memo_used && f.memo[static_cast<std::size_t>(hint)].node == node) return f.memo[static_cast<std::size_t>(hint)];
  for (int i = 0; i < f.memo_used; ++i)
    if (f.memo[static_cast<std::size_t>(i)].node == node) return f.memo[static_cast<std::size_t>(i)];
  const FabricFlow::RouteMemo m = next_hops(f, node, hops_);
  if (memo_ && f.memo_used < FabricFlow::kMemoSlots) f.memo[static_cast<std::size_t>(f.memo_used++)] = m;
  return m;
}

FabricFlow::RouteMemo Fabric::next_hops(const FabricFlow& f, int node, const NextHopTable& table) const {
  const NextHopTable::Hops nh = table.towards(node, f.dst);
  FabricFlow::RouteMemo m;
  m.ports = nh.ports.data();
  m.count = static_cast<std::uint32_t>(nh.ports.size());
  m.hash = m.count > 1 ? ecmp_hash(f.key, node) : 0;
  m.node = node;
  m.max_rate_bps = nh.max_rate_bps;
  return m;
}

bool Fabric::rerouted(int node) const {
  if (routing_.empty()) return tally_[0].reroutes > 0;
  return lp_routing_[static_cast<std::size_t>(node_lp_[static_cast<std::size_t>(node)])] > 0;
}

int Fabric::route(Packet& p, int node, Time now) const {
  const FabricFlow::RouteMemo m = route_memo(*p.flow, node, p.hops++);
  const std::uint32_t count = m.count;
  if (count == 0 && rerouted(node)) return -1;  // links down: no route left
  if (count == 0) throw std::logic_error("fabric: no route from " + topo_->nodes()[static_cast<std::size_t>(node)].name);
  const std::int32_t* hops = m.ports;
  if (count == 1) return hops[0];
  if (hash_only_) return hops[m.hash % count];
  return hops[balance(p, node, m, now)];
}

std::uint32_t Fabric::balance(Packet& p, int node, const FabricFlow::RouteMemo& m, Time now) const {
  struct CandidateLoad final : PortLoad {  // the candidates of this choice, as the balancer sees them
    const std::vector<Port>& ports;
    const std::int32_t* hops;
    CandidateLoad(const std::vector<Port>& p, const std::int32_t* h) : ports(p), hops(h) {}
    std::int64_t queued_bytes(std::uint32_t i) const override { return ports[static_cast<std::size_t>(hops[i])].queued; }
  };
  const FlowKey& k = p.flow->key;
  const CandidateLoad load(ports_, m.ports);
  HopChoice c;
  c.now = now;
  c.node = node;
  c.count = m.count;
  c.hash = m.hash;
  c.flow = std::uint64_t{k.src_addr} << 40 | std::uint64_t{k.dst_addr} << 16 | k.src_port;
  c.packet = p.entropy;
  c.carried = &p.lb_carried;
  c.load = &load;
  return lb_->choose(c);
}

void Fabric::inject(Packet& p, FabricFlow& f, int tc) {
  p.flow = &f;
  p.tc = static_cast<std::uint8_t>(tc >= 0 ? tc : f.tc >= 0 ? f.tc : opt_.sw.data_tc);
  if (p.tc >= kClasses || class_slot_[p.tc] == kNoClass) [[unlikely]]
    throw std::logic_error("fabric: a frame of traffic class " + std::to_string(p.tc) + ", which FabricOptions::classes leaves out");
  p.ce = false;
  p.control = !p.route;
  p.fab_port = -1;
  p.entropy = static_cast<std::uint32_t>(f.injected);
  p.lb_carried = 1;
  p.hops = 0;
  ++f.injected;
  Port& e = ports_[static_cast<std::size_t>(hops_.host_port(f.src))];
  ++tally(e).injected;
  p.next_in_queue = nullptr;
  if (f.tail) {
    f.tail->next_in_queue = &p;
  } else {
    f.head = &p;
    if (!e.ring) {  // the ring's first flow
      f.next_active = &f;
      e.ring = &f;
    } else {        // joins the ring right after the flow served last: its turn is next
      f.next_active = e.ring->next_active;
      e.ring->next_active = &f;
    }
  }
  f.tail = &p;
  e.cls[p.tc].qbytes += p.wire.count();
  note_queue(e);
  e.queued += p.wire.count();
  ++e.queued_packets;
  e.c.max_queue_bytes = std::max(e.c.max_queue_bytes, e.queued);
  if (tracer_) [[unlikely]] traced_depth(e);
  try_start(e);
}

bool Fabric::sendable(const Port& e, const Packet& p) const {
  if (e.paused >> p.tc & 1) return false;
  return opt_.layer != LinkLayer::ib || !e.peer_switch || e.cls[p.tc].credits >= p.wire.count();
}

Packet* Fabric::pick(Port& e) {
  if (e.ring) {  // a host port: round robin over the flows with packets, starting after `ring`
    FabricFlow* prev = e.ring;
    do {
      FabricFlow* f = prev->next_active;
      if (sendable(e, *f->head)) {
        Packet* p = f->head;
        f->head = p->next_in_queue;
        if (f->head) {
          e.ring = f;
        } else {  // leaves the ring
          f->tail = nullptr;
          if (f == prev) e.ring = nullptr;
          else prev->next_active = f->next_active, e.ring = prev;
          f->next_active = nullptr;
        }
        return p;
      }
      prev = f;
    } while (prev != e.ring);
    return nullptr;
  }
  if (e.scheduled) [[unlikely]]
    return pick_scheduled(e);
  // A switch port: the highest class with frames that is neither paused nor (IB) out of
  // credits; only the classes with frames are looked at, and a frame only for its credits.
  for (unsigned ready = e.backlog & ~e.paused; ready;) {
    const unsigned tc = 31u - static_cast<unsigned>(__builtin_clz(ready));
    ready &= ~(1u << tc);
    if (opt_.layer == LinkLayer::ib && e.peer_switch && e.cls[tc].credits < e.cls[tc].head->wire.count()) continue;
    return pop_head(e, tc);
  }
  return nullptr;
}

Packet* Fabric::pop_head(Port& e, unsigned tc) {
  Packet* p = e.cls[tc].head;
  e.cls[tc].head = p->next_in_queue;
  if (!e.cls[tc].head) {
    e.cls[tc].tail = nullptr;
    e.backlog = static_cast<std::uint8_t>(e.backlog & ~(1u << tc));
  }
  return p;
}

Packet* Fabric::pick_scheduled(Port& e) {
  std::int64_t heads[fabric_detail::kClasses];
  unsigned eligible = 0;
  for (unsigned ready = e.backlog & ~e.paused; ready; ready &= ready - 1) {
    const auto tc = static_cast<unsigned>(__builtin_ctz(ready));
    heads[tc] = e.cls[tc].head->wire.count();
    if (opt_.layer == LinkLayer::ib && e.peer_switch && e.cls[tc].credits < heads[tc]) continue;
    eligible |= 1u << tc;
  }
  if (!eligible) return nullptr;
  return pop_head(e, schedulers_[static_cast<std::size_t>(e.id)]->pick({e.backlog, eligible, heads}));
}

void Fabric::try_start(Port& e) {
  if (e.busy) return;
  if (observed_) [[unlikely]]
    start_next<true>(e);
  else
    start_next<false>(e);
}

template <bool Observed>
void Fabric::start_next(Port& e) {
  Packet* next = pick(e);
  const Time now = now_at(e);
  if (!next) {
    if (e.queued_packets > 0 && !e.blocked) {
      e.blocked = true;
      e.blocked_since = now;
    }
    return;
  }
  if (e.blocked) {
    e.c.paused += now - e.blocked_since;
    e.blocked = false;
  }
  Packet& p = *next;
  if (p.control) [[unlikely]] {  // an RC control frame (sim/rc_connection.hpp): a NAK or a CNP
    if (p.msg && p.msg->frame == static_cast<std::uint8_t>(FrameKind::roce_cnp)) ++e.c.cnp_tx;
    else if (p.msg && p.msg->frame == static_cast<std::uint8_t>(FrameKind::roce_ack)) ++e.c.nak_tx;
  }
  const auto q = static_cast<std::size_t>(p.tc);
  const std::int64_t w = p.wire.count();
  e.cls[q].qbytes -= w;
  note_queue(e);
  e.queued -= w;
  --e.queued_packets;
  if (Observed && tracer_) traced_depth(e);
  if (opt_.layer == LinkLayer::ib && e.peer_switch) e.cls[q].credits -= w;
  e.path.start<Observed>(p, now, tx_site(e.id));
  if (Observed && telemetry_ && e.node_switch && p.flow->telemetry)
    stamp_hop(e, p, {now, static_cast<std::int64_t>(e.c.tx_bytes) + w, e.queued, e.rate.bits_per_sec()});
  e.cur_in = e.node_switch ? p.fab_port ^ 1 : -1;
  e.cur_tc = p.tc;
  e.cur_bytes = w;
  p.fab_port = e.id;
  if (w != e.ser_wire) [[unlikely]] {  // a frame size unlike the last one here
    e.ser_wire = w;
    e.ser_time = serialization_time(p.wire, e.rate);
  }
  const Time service = e.ser_time;
  Time release = service;
  if (e.cut_through == Port::CutThrough::always ||
      (e.cut_through == Port::CutThrough::per_frame && route_memo(*p.flow, e.peer, p.hops).max_rate_bps <= e.rate.bits_per_sec()))
    release = std::min(service, e.ct_release);
  e.busy = true;
  e.busy_until = now + service;
  // The frame's whole hop is fixed from here: transmission up to hand-on (cut-through: the
  // first bytes), propagation and, into a switch, the pipeline — one arrival event. The port
  // stays busy for the whole frame (its own event); the critical path past this port includes
  // the full transmission.
  if (p.control) [[unlikely]] e.path.interposed(now, service);
  else e.path.departed<Observed>(p, Category::transmit, service, now, tx_site(e.id));
  if (Observed && tap_) tap_->port_start(e.id, p, now);
  p.release = release;
  ++tally(e).in_transit;
  const Time at = now + release + (e.peer_switch ? e.prop + pipeline_ : e.prop);
  if (e.peer_switch && static_routes_) {
    Port& to = ports_[static_cast<std::size_t>(route(p, e.peer, now))];
    reach(e, to, at, to, packet_arg(p), {packet_arg(p), to.id, kFrameCrossing});
  } else {
    reach(e, ports_[static_cast<std::size_t>(e.id ^ 1)], at, arrive_, packet_arg(p), {packet_arg(p), -1, kFrameCrossing});
  }
  sched(e).schedule_in(service, e, free_arg(e));
  if (!e.node_switch) p.notify_pacer();  // last: the NIC may fetch its next packet now
}

std::uint64_t Fabric::free_arg(const Port& e) {
  const Packet* next = nullptr;
  if (e.ring)  // a host port: the flow after the one served last (the ring is circular)
    next = e.ring->next_active->head;
  else if (const unsigned ready = e.backlog & ~e.paused)
    next = e.cls[31u - static_cast<unsigned>(__builtin_clz(ready))].head;
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(next)) | 1;
}

void Fabric::on_port(Port& e, std::uint64_t arg) {
  if (!(arg & 1)) return arrive(arg_packet(arg), &e);
  e.prefetch_path();  // the next frame's start reads it, after the buffer is released
  e.path.freed(now_at(e));
  e.busy = false;
  ++e.c.tx_packets;
  e.c.tx_bytes += static_cast<std::uint64_t>(e.cur_bytes);
  if (e.cur_in >= 0) release_buffer(e.node, e.cur_in, e.cur_tc, e.cur_bytes);
  try_start(e);
}

void Fabric::on_arrive(std::uint64_t arg) { arrive(arg_packet(arg), nullptr); }

void Fabric::arrive(Packet& p, Port* routed) {
  const int in = p.fab_port ^ 1;
  Port& ip = ports_[static_cast<std::size_t>(in)];
  --tally(ip).in_transit;
  Port& tp = ports_[static_cast<std::size_t>(p.fab_port)];
  if (routed) {  // all the lines this hop reads, requested together rather than one by one
    ip.prefetch_ingress(class_line(ip, p.tc));
    routed->prefetch_egress(class_line(*routed, p.tc));
  }
  if (tp.faulty || ip.down) [[unlikely]]  // (the cable's two ends go down and up at the same instants)
    if (arrival_lost(tp, ip, p)) return;
  ++ip.c.rx_packets;
  ip.c.rx_bytes += static_cast<std::uint64_t>(p.wire.count());
  if (p.trail >= 0) [[unlikely]] p.trail = trace_step(p, p.trail, tx_site(p.fab_port), Category::transmit, p.stamp, p.release);
  p.ledger.add(Category::transmit, p.release);
  p.stamp += p.release;
  if (ip.node_switch) {
    const Time prop = ports_[static_cast<std::size_t>(p.fab_port)].prop;
    if (p.trail >= 0) [[unlikely]] p.trail = trace_step(p, p.trail, cable_site(p.fab_port), Category::propagate, p.stamp, prop);
    p.ledger.add(Category::propagate, prop);
    p.stamp += prop;
    p.charge(Category::switch_, now_at(ip), node_site_base_ + static_cast<TraceSite>(ip.node));
    admit(p, ip.node, in, routed);
    return;
  }
  p.charge(Category::propagate, now_at(ip), cable_site(p.fab_port));
  FabricFlow& f = *p.flow;
  if (ip.node != topo_->host_node(f.dst)) throw std::logic_error("fabric: packet delivered to the wrong host");
  ++tally(ip).delivered;
  ++f.delivered;
  if (p.ce) ++f.ce_marked;
  p.fab_port = -1;
  f.client->arrived(p);
}

bool Fabric::arrival_lost(Port& tp, Port& ip, Packet& p) {
  if (ip.down) {  // the link went down under it: counted where it arrives (its LP, whatever the cut)
    link_drop(ip, p);
    return true;
  }
  const bool scheduled = tp.losses && tp.losses->lose(now_at(ip));
  const double loss = ip.losses ? ip.losses->loss : 0;
  if (!scheduled && !(loss > 0 && loss_rng_[static_cast<std::size_t>(ip.id)].uniform01() < loss)) return false;
  ++ip.c.rx_errors;  // an FCS error
  discarded(ip, p);
  hand_back(ip, p);
  return true;
}

void Fabric::discarded(const Port& ip, const Packet& p) {
  if (opt_.layer == LinkLayer::ib && ip.node_switch) send_flow_control(ip.id, kCredit, p.tc, p.wire.count());
}

void Fabric::admit(Packet& p, int node, int in, Port* routed) {
  if (!routed) {
    const int out = route(p, node, now_at(ports_[static_cast<std::size_t>(in)]));
    if (out < 0) [[unlikely]] {
      discarded(ports_[static_cast<std::size_t>(in)], p);
      return link_drop(ports_[static_cast<std::size_t>(in)], p, true);
    }
    routed = &ports_[static_cast<std::size_t>(out)];
  }
  Port& e = *routed;
  e.prefetch_path();  // while the buffer accounting runs
  if (e.down) [[unlikely]] {
    discarded(ports_[static_cast<std::size_t>(in)], p);
    return link_drop(e, p);
  }
  if (e.wd_dropping) [[unlikely]]
    if (watchdog_drop(e, p)) return;
  Port& ip = ports_[static_cast<std::size_t>(in)];
  SwitchState& s = switches_[static_cast<std::size_t>(node)];
  const std::int64_t w = p.wire.count();
  const auto q = static_cast<std::size_t>(p.tc);
  bool ok = true;
  if (opt_.layer == LinkLayer::ib) {
    ip.cls[q].in_bytes += w;  // the upstream held credits for it: there is room by construction
  } else if (lossless(p.tc)) {
    const std::int64_t shared_part = ip.cls[q].in_bytes - ip.cls[q].in_headroom;
    if (shared_part + w <= opt_.sw.pfc_xoff.count() && s.shared_used + w <= s.shared_size) {
      s.shared_used += w;
    } else if (ip.cls[q].in_headroom + w <= ip.headroom) {
      ip.cls[q].in_headroom += w;
    } else {
      ok = false;
      ++tally(ip).lossless_drops;
    }
    if (ok) ip.cls[q].in_bytes += w;
    const bool over = ip.cls[q].in_headroom > 0 || ip.cls[q].in_bytes >= opt_.sw.pfc_xoff.count() ||
                      s.shared_used + opt_.max_frame.count() > s.shared_size;
    if (over && !(ip.xoff_sent >> q & 1)) {
      ip.xoff_sent = static_cast<std::uint8_t>(ip.xoff_sent | (1u << q));
      send_flow_control(in, kPause, p.tc, 0);
    }
  } else {
    ok = s.shared_used + w <= s.shared_size && buffer_policy_->admit({e.cls[q].qbytes, w, s.shared_used, s.shared_size});
    if (ok) {
      s.shared_used += w;
      ip.cls[q].in_bytes += w;
    }
  }
  if (!ok) {
    ++e.c.drops;
    hand_back(e, p);
    return;
  }
  if (opt_.layer == LinkLayer::roce && opt_.sw.ecn) {
    const std::int64_t depth = e.cls[q].qbytes;
    const std::int64_t kmin = opt_.sw.ecn_kmin.count(), kmax = opt_.sw.ecn_kmax.count();
    bool mark = depth >= kmax;
    if (!mark && depth > kmin && opt_.sw.ecn_pmax > 0)
      mark = ecn_rng_[static_cast<std::size_t>(e.id)].uniform01() < opt_.sw.ecn_pmax * static_cast<double>(depth - kmin) / static_cast<double>(kmax - kmin);
    if (mark) {
      p.ce = true;
      ++e.c.ecn_marked;
    }
  }
  p.next_in_queue = nullptr;
  if (e.cls[q].tail) {
    e.cls[q].tail->next_in_queue = &p;
  } else {
    e.cls[q].head = &p;
    e.backlog = static_cast<std::uint8_t>(e.backlog | (1u << q));
  }
  e.cls[q].tail = &p;
  e.cls[q].qbytes += w;
  note_queue(e);
  e.queued += w;
  ++e.queued_packets;
  e.c.max_queue_bytes = std::max(e.c.max_queue_bytes, e.queued);
  if (tracer_) [[unlikely]] traced_depth(e);
  try_start(e);
}

void Fabric::release_buffer(int node, int in, std::uint8_t tc, std::int64_t w) {
  Port& ip = ports_[static_cast<std::size_t>(in)];
  SwitchState& s = switches_[static_cast<std::size_t>(node)];
  const auto q = static_cast<std::size_t>(tc);
  ip.cls[q].in_bytes -= w;
  if (opt_.layer == LinkLayer::ib) {
    send_flow_control(in, kCredit, tc, w);
    return;
  }
  const std::int64_t from_headroom = std::min(w, ip.cls[q].in_headroom);
  const bool was_full = s.shared_used + opt_.max_frame.count() > s.shared_size;
  ip.cls[q].in_headroom -= from_headroom;
  s.shared_used -= w - from_headroom;
  if (s.shared_used + opt_.max_frame.count() > s.shared_size) return;
  if (was_full) return resume_paused(s, q);
  if ((ip.xoff_sent >> q & 1) && ip.cls[q].in_headroom == 0 &&
      ip.cls[q].in_bytes < opt_.sw.pfc_xoff.count() - opt_.sw.pfc_xon_delta.count()) {
    ip.xoff_sent = static_cast<std::uint8_t>(ip.xoff_sent & ~(1u << q));
    send_flow_control(in, kResume, tc, 0);
  }
}

void Fabric::resume_paused(SwitchState& s, std::size_t q) {
  for (int id : s.ports) {
    Port& ip = ports_[static_cast<std::size_t>(id)];
    if ((ip.xoff_sent >> q & 1) && ip.cls[q].in_headroom == 0 &&
        ip.cls[q].in_bytes < opt_.sw.pfc_xoff.count() - opt_.sw.pfc_xon_delta.count()) {
      ip.xoff_sent = static_cast<std::uint8_t>(ip.xoff_sent & ~(1u << q));
      send_flow_control(id, kResume, static_cast<std::uint8_t>(q), 0);
    }
  }
}

void Fabric::send_flow_control(int from_port, int kind, std::uint8_t tc, std::int64_t value) {
  Port& fp = ports_[static_cast<std::size_t>(from_port)];
  const Time now = now_at(fp);
  Time delay = fp.prop;  // credit updates: tiny flow-control packets, propagation only
  if (kind != kCredit) {
    ++fp.c.pause_tx;
    // A PFC frame goes out after the frame being transmitted on this port.
    const Time wait = fp.busy && fp.busy_until > now ? fp.busy_until - now : Time::zero();
    delay += wait + serialization_time(Bytes(kPauseFrameWire), fp.rate);
    if (tap_) [[unlikely]] tap_->pfc_start(from_port, tc, kind == kPause, now + wait);
  }
  const std::uint64_t arg = (static_cast<std::uint64_t>(from_port ^ 1) << 32) | (static_cast<std::uint64_t>(kind) << 28) |
                            (static_cast<std::uint64_t>(tc) << 24) | static_cast<std::uint64_t>(value);
  reach(fp, ports_[static_cast<std::size_t>(from_port ^ 1)], now + delay, control_, arg, {arg, -1, kControlCrossing});
}

void Fabric::on_control(std::uint64_t arg) {
  Port& e = ports_[static_cast<std::size_t>(arg >> 32)];
  const auto kind = (arg >> 28) & 0xf;
  const auto tc = static_cast<unsigned>((arg >> 24) & 0xf);
  const auto value = static_cast<std::int64_t>(arg & 0xffffff);
  switch (kind) {
    case kPause:
      if (e.down) break;  // lost with the link
      ++e.c.pause_rx;
      if (pfc_log_) note_pfc(e, tc, true);
      e.paused = static_cast<std::uint8_t>(e.paused | (1u << tc));
      if (is_switch(e.node)) pause_started(e, tc);
      break;
    case kResume:
      if (e.down) break;
      ++e.c.pause_rx;
      if (pfc_log_) note_pfc(e, tc, false);
      e.paused = static_cast<std::uint8_t>(e.paused & ~(1u << tc));
      ++e.cls[tc].wd_epoch;
      try_start(e);
      break;
    case kWatchdog: on_watchdog(e, tc, static_cast<std::uint32_t>(value)); break;
    case kRestore: on_watchdog_restore(e, tc); break;
    case kDeadlockCheck: check_deadlock(); break;
    case kLinkDown:
    case kLinkUp:
      if (!run_) link_change(e.id / 2, kind == kLinkUp);
      else if (arg & kPlanned) link_side(e, kind == kLinkUp);
      break;
    case kReroute:
      if (!run_) {
        reroute();
      } else {  // partitioned: e's LP switches to the value-th table
        lp_routing_[e.lp] = static_cast<std::uint32_t>(value);
        if (e.lp == 0) ++tally_[0].reroutes;
      }
      break;
    case kCredit:
      e.cls[tc].credits += value;
      try_start(e);
      break;
    default: throw std::logic_error("fabric: bad control event");
  }
}

}  // namespace rdmasim
