// run_traffic: the flows of a pattern as acknowledged WRITE windows (or, with --transport tcp,
// kernel TCP sockets run by packet-level TCP) over shared fabric wires.
#include "rdmasim/traffic.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <map>
#include <memory>
#include <stdexcept>

#include "core/byte_io.hpp"
#include "model/path.hpp"
#include "workload/max_min.hpp"
#include "workload/rc_stats_bytes.hpp"
#include "rdmasim/traffic_pattern.hpp"
#include "path/fabric_route.hpp"
#include "net/wire_format.hpp"
#include "sim/rc_connection.hpp"
#include "sim/stages.hpp"
#include "workload/export_scope.hpp"
#include "workload/sim_world.hpp"

namespace rdmasim {

std::string traffic_failure(const TrafficResult& r) {
  std::string why;
  std::int64_t failed = 0;
  std::string status;
  for (const FlowResult& f : r.flows)
    if (f.rc.status != "ok") ++failed, status = f.rc.status;
  if (failed > 0) why = std::to_string(failed) + " QP" + (failed > 1 ? "s" : "") + " in " + status;
  if (r.fabric.deadlocks > 0) why += std::string(why.empty() ? "" : "; ") + "a PFC deadlock";
  if (r.fabric.lossless_drops > 0)
    why += std::string(why.empty() ? "" : "; ") + std::to_string(r.fabric.lossless_drops) + " drops in a lossless class";
  return why;
}

int bottleneck_sharing(const TrafficConfig& c) {
  if (!c.flows.empty()) return 1;
  const TrafficPatternSpec& p = traffic_pattern(c.pattern);
  return p.sharing ? std::max(1, p.sharing(c)) : 1;
}

std::uint64_t pattern_flow_count(const TrafficConfig& c, int hosts) {
  if (!c.flows.empty()) return c.flows.size();
  return traffic_pattern(c.pattern).count(c, hosts);
}

namespace {

constexpr std::uint64_t kMaxFlows = 20'000;

std::vector<std::pair<int, int>> pattern_flows(const TrafficConfig& c, int hosts) {
  if (!c.flows.empty()) return c.flows;
  return traffic_pattern(c.pattern).flows(c, hosts);
}



class Traffic final : public MessageSink {
 public:
  Traffic(const TrafficConfig& c, SimWorld& w) : c_(c), w_(w) {}

  void add_flow(const PathSpec& spec, int s, int d, HostResources& src, HostResources& dst) {
    flows_.push_back(std::make_unique<Flow>());
    flows_.back()->ctx = &w_.ctx_of(s);
    flows_.back()->path = std::make_unique<PathInstance>(std::array<SimContext*, 2>{&w_.ctx_of(s), &w_.ctx_of(d)},
                                                         std::array<HostResources*, 2>{&src, &dst}, spec, *this, &w_);
    flows_.back()->path->set_connection(static_cast<std::uint32_t>(flows_.size() - 1));
    flows_.back()->src = s;
  }

  void run(RankExchange* ranks) {
    for (auto& f : flows_) f->completions.reserve(static_cast<std::size_t>(c_.base.iters));
    for (std::size_t f = 0; f < flows_.size(); ++f)
      if (requester_here(*flows_[f], ranks))  // over ranks, each posts its own requesters' messages
        while (flows_[f]->posted < c_.base.iters && flows_[f]->posted < c_.tx_depth) post(f);
    w_.run(std::max(1, c_.threads), ranks);
  }

  // At the flow's requester (its LP when partitioned): what a flow records is its own.
  void delivered(Packet& token) override {
    Message& m = *token.msg;
    Flow& f = *flows_[m.tag];
    SimContext& ctx = *f.ctx;
    const Time now = ctx.sched.now();
    if (token.ledger.total() != now - m.posted) ++f.violations;
    f.last_completion = now;
    f.completions.push_back(now);
    ++f.completed;
    const std::size_t id = m.tag;
    ctx.packets.release(&token);
    ctx.release_message(m);
    if (f.posted < c_.base.iters) post(id);
  }

  struct Flow {
    SimContext* ctx = nullptr;  // its requester's
    int src = 0;                // its requester's host
    std::unique_ptr<PathInstance> path;
    std::int64_t posted = 0, completed = 0, violations = 0;
    Time first_post{}, last_completion{};
    std::vector<Time> completions;  // reserved for every message before the run
  };
  std::vector<std::unique_ptr<Flow>> flows_;
  /// Whether this process runs the flow's requester (over `ranks`; always without).
  bool requester_here(const Flow& f, const RankExchange* ranks) const {
    return !ranks || ParallelRun::rank_of(w_.lp_of(f.src), ranks->ranks()) == ranks->rank();
  }

  /// After a run over ranks: what every rank's LPs did, joined on every rank — the flows'
  /// records (their requesters'), their QPs' counts (`rc`: each side's rank counted its own;
  /// the state, time of failure and rate are the requester's), the fabric's counts, the
  /// events and reorderings.
  void join_ranks(RankExchange& ranks, std::vector<RcStats>& rc, std::uint64_t& events, std::uint64_t& out_of_order) {
    w_.fabric->merge_ranks(ranks);
    w_.fabric->check_invariants();
    std::vector<std::byte> mine;
    ByteWriter out(mine);
    out.put(events);
    out.put(out_of_order);
    for (std::size_t i = 0; i < flows_.size(); ++i) {
      const Flow& f = *flows_[i];
      const bool requester = requester_here(f, &ranks);
      out.put(requester);
      if (requester) {
        out.put(std::array{f.posted, f.completed, f.violations});
        out.put(std::array{f.first_post, f.last_completion});
        out.put_all(std::span<const Time>(f.completions));
      }
      put_rc(out, rc[i], requester);
    }
    const std::vector<std::vector<std::byte>> all = ranks.all_gather(mine);
    std::vector<std::vector<RcStats>> by_rank(rc.size());  // per flow
    std::vector<int> requester_rank(rc.size(), -1);
    events = out_of_order = 0;
    for (std::size_t rank = 0; rank < all.size(); ++rank) {
      ByteReader in(all[rank]);
      events += in.get<std::uint64_t>();
      out_of_order += in.get<std::uint64_t>();
      for (std::size_t i = 0; i < flows_.size(); ++i) {
        Flow& f = *flows_[i];
        const bool requester = in.get<bool>();
        if (requester) {
          const auto n = in.get<std::array<std::int64_t, 3>>();
          f.posted = n[0], f.completed = n[1], f.violations = n[2];
          const auto t = in.get<std::array<Time, 2>>();
          f.first_post = t[0], f.last_completion = t[1];
          f.completions = in.get_all<Time>();
        }
        if (requester) requester_rank[i] = static_cast<int>(rank);
        by_rank[i].push_back(get_rc(in));
      }
      if (!in.done()) throw std::logic_error("traffic: a rank's flows do not match this rank's");
    }
    for (std::size_t i = 0; i < rc.size(); ++i) rc[i] = join_rc(by_rank[i], requester_rank[i]);
  }
  std::int64_t violations() const {
    std::int64_t n = 0;
    for (const auto& f : flows_) n += f->violations;
    return n;
  }

 private:
  void post(std::size_t f) {
    Flow& fl = *flows_[f];
    if (fl.posted == 0) fl.first_post = fl.ctx->sched.now();
    Message& m = *fl.ctx->messages.acquire();
    // Partitioned, flows post at once on several workers: each numbers its own messages.
    m.id = w_.partitioned() ? (static_cast<std::uint64_t>(f) << 32 | static_cast<std::uint64_t>(fl.posted)) + 1 : ++next_id_;
    m.size = c_.base.size;
    m.tag = f;
    ++fl.posted;
    fl.path->post(m);
  }

  const TrafficConfig& c_;
  SimWorld& w_;
  std::uint64_t next_id_ = 0;
};

}  // namespace

TrafficResult run_traffic(const TrafficConfig& c, Exports* exports, RankExchange* ranks) {
  LatConfig base = c.base;
  base.topology = LatTopology::fabric;
  const bool tcp = base.transport == Transport::tcp;  // kernel TCP sockets (sim/tcp_connection.hpp)
  if (!tcp && base.test != TestKind::write)
    throw std::invalid_argument("--pattern runs RDMA WRITE flows (or kernel TCP with --transport tcp): --test " +
                                std::string(to_string(base.test)) + " with a pattern is not modelled");
  base.test = tcp ? TestKind::send : TestKind::write;
  validate(base);
  if (c.tx_depth < 1 || c.tx_depth > 8192) throw std::invalid_argument("tx depth must be 1..8192");
  const auto topo = FabricNetwork::make_topology(base);
  const int hosts = topo->host_count();
  if (hosts < 2) throw std::invalid_argument("traffic patterns need at least 2 hosts");
  if (const std::uint64_t n = pattern_flow_count(c, hosts); n > kMaxFlows)
    throw std::invalid_argument("the pattern has " + std::to_string(n) + " flows (limit " + std::to_string(kMaxFlows) + ")");
  TrafficResult r;
  r.config = c;
  const ResolvedToggles tog = resolve(base);
  const FabricOptions opts = fabric_options(base);
  SimWorld w(base.seed);
  const bool over_ranks = ranks && ranks->ranks() > 1;  // MPI: this process runs its share of the LPs
  if (over_ranks && c.threads > 1) throw std::invalid_argument("--threads: over MPI ranks, one thread per rank");
  if (c.threads > 0 || over_ranks) {
    const std::string how = over_ranks ? "over MPI ranks" : "--threads";
    if (tcp) throw std::invalid_argument(how + ": kernel TCP flows (--transport tcp) do not run partitioned");
    if (exports && (exports->trace() || exports->pcap() || exports->probe()))
      throw std::invalid_argument(how + ": a partitioned run is neither traced, captured nor sampled (--trace, --pcap, the dashboard)");
    w.partition(*topo, opts.velocity_mps);
  }
  std::vector<std::unique_ptr<HostResources>> host_res;
  for (int h = 0; h < hosts; ++h) host_res.push_back(w.host(h));
  Traffic traffic(c, w);
  ExportScope scope(exports, w, base);
  for (int h = 0; h < hosts; ++h) scope.add_host(*host_res[static_cast<std::size_t>(h)], h);
  std::vector<int> sharing(topo->cables().size() * 2);  // cable direction (FabricRoute::wire_instance) -> flows
  std::vector<std::vector<int>> flow_links;
  const auto pairs = pattern_flows(c, hosts);
  if (pairs.empty()) throw std::invalid_argument("the pattern has no flows");
  if (base.fabric.udp_sport + pairs.size() - 1 > 65535)
    throw std::invalid_argument("--sport: flows use ports sport..sport+" + std::to_string(pairs.size() - 1) +
                                ", which must stay below 65536");
  r.flows.reserve(pairs.size());
  flow_links.reserve(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto [s, d] = pairs[i];
    if (s < 0 || s >= hosts || d < 0 || d >= hosts || s == d) throw std::invalid_argument("bad flow host pair");
    const auto sport = static_cast<std::uint16_t>(base.fabric.udp_sport + i);
    const FabricNetwork net(topo, base.profile, opts, s, d, sport);
    traffic.add_flow(tcp ? build_tcp_stream_path(base, tog, net.appender()) : build_acked_path(base, tog, net.appender()), s, d,
                     *host_res[static_cast<std::size_t>(s)],
                     *host_res[static_cast<std::size_t>(d)]);
    std::vector<int> links;
    for (std::size_t k = 0; k < net.forward_path.cables.size(); ++k) {
      const int cab = net.forward_path.cables[k];
      links.push_back(FabricRoute::wire_instance(topo->cables()[static_cast<std::size_t>(cab)], cab,
                                                 net.forward_path.nodes[k]));
    }
    for (int l : links) ++sharing[static_cast<std::size_t>(l)];
    flow_links.push_back(links);
    FlowResult fr;
    fr.src = s;
    fr.dst = d;
    fr.sport = sport;
    fr.route = net.routes[0];
    r.flows.push_back(fr);
  }
  scope.start(base.fabric.from);
  traffic.run(over_ranks ? ranks : nullptr);
  scope.finish();
  r.events = w.executed();
  r.out_of_order = w.out_of_order();
  std::vector<RcStats> rc(r.flows.size());
  for (std::size_t i = 0; i < rc.size(); ++i)
    if (const RcConnection* q = traffic.flows_[i]->path->rc()) rc[i] = q->stats();
  if (over_ranks) traffic.join_ranks(*ranks, rc, r.events, r.out_of_order);
  r.invariant_violations = traffic.violations();
  const double bits_per_message = static_cast<double>(base.size.count()) * 8.0;
  std::int64_t completed = 0;
  const double goodput_ideal = static_cast<double>(base.profile.link.rate.bits_per_sec()) *
                               static_cast<double>(base.size.count()) /
                               static_cast<double>((tcp ? message_wire_bytes(FrameKind::tcp_segment, base.size,
                                                                             base.profile.tcp.mss, LinkLayer::roce)
                                                        : message_wire_bytes(FrameKind::roce_write, base.size, base.mtu,
                                                                             base.link_layer))
                                                       .count());
  const std::vector<double> fair = max_min_rates(flow_links, goodput_ideal);
  Time first = Time::max(), last{};
  std::vector<double> g;
  for (std::size_t i = 0; i < r.flows.size(); ++i) {
    const auto& f = *traffic.flows_[i];
    first = std::min(first, f.first_post);
    last = std::max(last, f.last_completion);
    FlowResult& fr = r.flows[i];
    fr.completed = f.completed;
    completed += f.completed;
    for (const NetworkStage* n : f.path->network_stages()) fr.dropped += n->flow().dropped;
    fr.ce_marked = f.path->network_stages().front()->flow().ce_marked;
    fr.flushed = f.posted - f.completed;
    if (f.path->rc()) {
      fr.rc = rc[i];
      r.retransmitted += fr.rc.retransmitted;
      r.timeouts += fr.rc.timeouts;
      r.naks += fr.rc.naks;
      r.cnps += fr.rc.cnps;
      if (fr.rc.status != "ok") ++r.failed_qps;
    }
    if (const TcpConnection* t = f.path->tcp()) {
      fr.tcp = t->stats();
      r.retransmitted += fr.tcp->retransmitted;
      r.timeouts += fr.tcp->timeouts;
      r.fast_retransmits += fr.tcp->fast_retransmits;
      r.ece += fr.tcp->ece;
      r.cwr += fr.tcp->cwr;
    }
    fr.goodput_bps = f.completed == 0 ? 0.0
                                      : bits_per_message * static_cast<double>(f.completed) /
                                            ((f.last_completion - f.first_post).to_us() / 1e6);
    int worst = 1;
    for (int l : flow_links[i]) worst = std::max(worst, sharing[static_cast<std::size_t>(l)]);
    fr.bottleneck_sharing = worst;
    fr.predicted_bps = fair[i];
    g.push_back(fr.goodput_bps);
  }
  // Steady state: each flow's goodput over the second half of the makespan (after DCQCN or
  // the queues have settled), and Jain's fairness index of those rates.
  const Time mid = first + (last - first) / 2;
  double sum = 0, sum_sq = 0;
  for (std::size_t i = 0; i < r.flows.size(); ++i) {
    const auto& comp = traffic.flows_[i]->completions;
    const auto late = std::count_if(comp.begin(), comp.end(), [&](Time t) { return t > mid; });
    const double span_s = (last - mid).to_us() / 1e6;
    r.flows[i].steady_goodput_bps = span_s > 0 ? bits_per_message * static_cast<double>(late) / span_s : 0.0;
    sum += r.flows[i].steady_goodput_bps;
    sum_sq += r.flows[i].steady_goodput_bps * r.flows[i].steady_goodput_bps;
  }
  r.jain_steady = sum_sq > 0 ? sum * sum / (static_cast<double>(r.flows.size()) * sum_sq) : 0.0;
  std::sort(g.begin(), g.end());
  r.min_bps = g.front();
  r.max_bps = g.back();
  r.median_bps = g.size() % 2 ? g[g.size() / 2] : (g[g.size() / 2 - 1] + g[g.size() / 2]) / 2;
  r.seconds = last > first ? (last - first).to_us() / 1e6 : 0.0;
  r.aggregate_bps = r.seconds > 0 ? bits_per_message * static_cast<double>(completed) / r.seconds : 0.0;
  w.trim_packets();  // every packet back (a run to completion): room for the report
  r.fabric = w.fabric->stats(last > first ? last - first : Time::zero());
  // Sum of B_i: each flow's fair share of its host links alone (a non-blocking fabric).
  std::map<int, int> from, to;
  for (const auto& [s, d] : pairs) ++from[s], ++to[d];
  r.ideal_aggregate_bps = 0;
  for (const auto& [s, d] : pairs) r.ideal_aggregate_bps += goodput_ideal / std::max(from[s], to[d]);
  return r;
}

}  // namespace rdmasim
