// run_flows: an open-loop workload (rdmasim/flows.hpp). One event is pending for arrivals at
// any time: the next flow's start. A flow's QP (its path instance, RC connection included) is
// built when it arrives, its one WRITE posted, and its completion recorded as its FCT. Once
// the flow is complete and nothing of its QP is left in flight (PathInstance::idle: checked at
// completion, then every kRecheck), its counters go into its record and the totals and the QP
// is freed: a run holds QPs only for flows in progress.
//
// Partitioned (FlowsConfig::threads, the fabric's cut: sim/fabric_partition.hpp), a flow's QP
// is built between windows, before the window its start falls in (every LP stopped: building
// it touches both hosts and the fabric), and its post runs in its source's LP; a done flow's
// QP is looked at, and freed once idle, between windows too. Each LP keeps its flows' ledger
// checks and last completion.
//
// Over MPI ranks (a RankExchange) every process builds every flow's QP at the same window and
// runs its LPs' share. Between windows the processes swap the flows their LPs completed, which
// every process files in the completing LP's list of done flows, then, if any is listed, each
// one's quiet as this process holds it (PathInstance::quiet_here): a flow idle over every rank
// is freed by all at once, its RC report joined from every rank's copy. So flows are freed at
// the windows and in the order threads free them, and the report is the threads' one.
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "model/budget.hpp"
#include "model/path.hpp"
#include "rdmasim/flows.hpp"
#include "sim/rc_connection.hpp"
#include "workload/export_scope.hpp"
#include "workload/rc_stats_bytes.hpp"
#include "workload/sim_world.hpp"

namespace rdmasim {
namespace {

// A flow's UDP source port: its own ECMP entropy, cycling through the dynamic port range.
std::uint16_t sport_of(std::uint16_t base, std::size_t flow) {
  const std::size_t span = 65536 - base;
  return static_cast<std::uint16_t>(base + flow % span);
}

constexpr Time kRecheck = Time::us(10);  // a done flow's QP still busy (a stray CNP, an idle timer): look again

// The fabric's options for these flows: their own traffic classes besides the run's.
FabricOptions flows_fabric_options(const FlowsConfig& c) {
  FabricOptions o = fabric_options(c.base);
  for (const FlowArrival& f : c.flows)
    if (f.tc >= 0 && f.tc < 8) o.classes |= static_cast<std::uint8_t>(1u << f.tc);
  return o;
}

class OpenLoop final : public MessageSink, public EventHandler {
 public:
  OpenLoop(const FlowsConfig& c, SimWorld& w, std::shared_ptr<const Topology> topo, std::vector<FlowRecord>& records,
           RankExchange* procs)
      : c_(c), w_(w), procs_(procs), topo_(std::move(topo)), opts_(flows_fabric_options(c)), records_(records) {
    for (int h = 0; h < topo_->host_count(); ++h) hosts_.push_back(w_.host(h));
    paths_.resize(c.flows.size());
    parts_.resize(w_.partitioned() ? static_cast<std::size_t>(w_.cut.lps) : 1);
  }

  void run() {
    if (!w_.partitioned()) {
      if (!c_.flows.empty()) w_.sched.schedule_at(c_.flows.front().start, *this, 0);
    } else {
      admit(Time::max());
      w_.parallel->add_between_windows([this](Time) { return between_windows(); });
    }
    w_.run(std::max(1, c_.threads), procs_);
  }

  // Unpartitioned: flow i arrives (and the next arrival is scheduled). Partitioned: flow i,
  // admitted between windows, posts in its source's LP.
  void on_event(std::uint64_t i) override {
    if (w_.partitioned()) return post(static_cast<std::size_t>(i));
    arrive(static_cast<std::size_t>(i));
    post(static_cast<std::size_t>(i));
    if (i + 1 < c_.flows.size()) w_.sched.schedule_at(c_.flows[i + 1].start, *this, i + 1);
  }

  // At the flow's source (its LP, partitioned).
  void delivered(Packet& token) override {
    Message& m = *token.msg;
    const std::uint64_t flow = m.tag;  // m goes back to its pool below
    SimContext& ctx = w_.ctx_of(c_.flows[flow].src);
    Part& part = parts_[static_cast<std::size_t>(w_.lp_of(c_.flows[flow].src))];
    const Time now = ctx.sched.now();
    if (token.ledger.total() != now - m.posted) ++part.violations;
    FlowRecord& r = records_[flow];
    r.completed = true;
    r.fct = now - m.posted;
    r.slowdown = static_cast<double>(r.fct.count_ps()) / static_cast<double>(r.ideal.count_ps());
    part.last_completion = std::max(part.last_completion, now);
    ctx.packets.release(&token);
    ctx.release_message(m);
    if (w_.partitioned()) (procs_ ? part.fresh : part.done).push_back(flow);  // freed between windows, when its QP is idle
    else w_.sched.schedule_at(now, reaper_, flow);
  }

  /// Counters of the QPs not freed during the run (a flow not complete, or its QP still busy).
  /// Over ranks, then, what every process's LPs kept, joined on every process: the QPs' reports,
  /// the flows' completions (their sources'), the ledger checks, the last completion, `events`
  /// and the fabric's counts.
  void finish(std::uint64_t& events) {
    if (!procs_) {
      for (std::size_t i = 0; i < paths_.size(); ++i)
        if (paths_[i]) account(i, paths_[i]->rc()->stats());
      return;
    }
    std::vector<std::size_t> left;
    for (std::size_t i = 0; i < paths_.size(); ++i)
      if (paths_[i]) left.push_back(i);
    settle(left);
    if (w_.fabric) {  // (none without flows)
      w_.fabric->merge_ranks(*procs_);
      w_.fabric->check_invariants();
    }
    std::vector<std::byte> mine;
    ByteWriter out(mine);
    out.put(events);
    out.put(violations());
    out.put(last_completion());
    for (std::size_t i = 0; i < records_.size(); ++i)
      if (source_here(i) && records_[i].completed) out.put(i), out.put(records_[i].fct), out.put(records_[i].slowdown);
    events = 0;
    joined_violations_ = 0;
    joined_last_ = Time{};
    for (const std::vector<std::byte>& part : procs_->all_gather(mine)) {
      ByteReader in(part);
      events += in.get<std::uint64_t>();
      joined_violations_ += in.get<std::int64_t>();
      joined_last_ = std::max(joined_last_, in.get<Time>());
      while (!in.done()) {
        FlowRecord& r = records_.at(in.get<std::size_t>());
        r.completed = true;
        r.fct = in.get<Time>();
        r.slowdown = in.get<double>();
      }
    }
    joined_ = true;
  }

  HostResources& host(int h) { return *hosts_[static_cast<std::size_t>(h)]; }
  std::int64_t violations() const {
    if (joined_) return joined_violations_;
    std::int64_t n = 0;
    for (const Part& p : parts_) n += p.violations;
    return n;
  }
  Time last_completion() const {
    if (joined_) return joined_last_;
    Time t{};
    for (const Part& p : parts_) t = std::max(t, p.last_completion);
    return t;
  }
  RcStats rc;
  std::int64_t failed_qps = 0;
  std::size_t live_qps = 0, peak_live_qps = 0;

 private:
  // What the flows of one LP's sources write while it runs (the whole run's, unpartitioned).
  struct alignas(64) Part {
    std::int64_t violations = 0;  // ledger totals that differ from the latency
    Time last_completion{};
    std::vector<std::size_t> done;  // partitioned: completed flows whose QP is not freed yet
    std::vector<std::size_t> fresh;  // over ranks: flows it completed since the last exchange
  };
  bool runs(int lp) const { return !procs_ || ParallelRun::rank_of(lp, procs_->ranks()) == procs_->rank(); }
  bool source_here(std::size_t i) const { return runs(w_.lp_of(c_.flows[i].src)); }

  void reap(std::size_t i) {
    if (!free_if_idle(i)) w_.sched.schedule_in(kRecheck, reaper_, i);
  }
  bool free_if_idle(std::size_t i) {
    PathInstance& p = *paths_[i];
    if (!p.idle()) return false;
    account(i, p.rc()->stats());
    p.release_fabric_flows();
    paths_[i].reset();
    return true;
  }

  // Partitioned, between windows (no worker running): done flows' idle QPs are freed (a busy
  // one is looked at again after the next window), and the flows that start before the next
  // window ends are admitted. The next window starts no later than the next flow to admit.
  ParallelRun::Between between_windows() {
    if (procs_) return between_processes();
    for (Part& p : parts_) std::erase_if(p.done, [&](std::size_t i) { return free_if_idle(i); });
    const Time next = admit(w_.parallel->next_event());
    return ParallelRun::Between{.wake = next};
  }

  // Over ranks, between windows: the flows each process's LPs completed and its next event; if
  // any flow is listed done, every process's quiet of each; the ones idle over every rank are
  // freed (settle). Flows start as every process's earliest next event admits them.
  ParallelRun::Between between_processes() {
    std::vector<std::byte> mine;
    ByteWriter out(mine);
    out.put(w_.parallel->next_event());
    for (std::size_t lp = 0; lp < parts_.size(); ++lp)
      if (runs(static_cast<int>(lp)) && !parts_[lp].fresh.empty()) {
        out.put(lp);
        out.put_all(std::span<const std::size_t>(parts_[lp].fresh));
        parts_[lp].fresh.clear();
      }
    Time next = Time::max();
    bool listed = false;
    for (const std::vector<std::byte>& part : procs_->all_gather(mine)) {
      ByteReader in(part);
      next = std::min(next, in.get<Time>());
      while (!in.done()) {
        std::vector<std::size_t>& done = parts_.at(in.get<std::size_t>()).done;
        const std::vector<std::size_t> more = in.get_all<std::size_t>();
        done.insert(done.end(), more.begin(), more.end());
      }
    }
    for (const Part& p : parts_) listed = listed || !p.done.empty();
    if (listed) {
      mine.clear();
      for (const Part& p : parts_)
        for (std::size_t i : p.done) out.put(paths_[i]->quiet_here());
      const std::vector<std::vector<std::byte>> all = procs_->all_gather(mine);
      std::vector<ByteReader> in(all.begin(), all.end());
      std::vector<std::size_t> idle;
      for (Part& p : parts_)
        std::erase_if(p.done, [&](std::size_t i) {
          PathInstance::Quiet whole;
          for (ByteReader& r : in) {
            const auto q = r.get<PathInstance::Quiet>();
            whole.rc_quiescent = whole.rc_quiescent && q.rc_quiescent;
            whole.queued = whole.queued || q.queued;
            whole.in_flight += q.in_flight;
          }
          if (!whole.idle()) return false;
          idle.push_back(i);
          return true;
        });
      settle(idle);
    }
    return ParallelRun::Between{.wake = admit(next)};
  }

  // Over ranks: flows `flows` (the same on every process, in the same order) are accounted with
  // their QPs' reports joined from every process's copy, and their QPs freed, on every process.
  void settle(const std::vector<std::size_t>& flows) {
    if (flows.empty()) return;
    std::vector<std::byte> mine;
    ByteWriter out(mine);
    for (std::size_t i : flows) put_rc(out, paths_[i]->rc()->stats(), source_here(i));
    const std::vector<std::vector<std::byte>> all = procs_->all_gather(mine);
    std::vector<ByteReader> in(all.begin(), all.end());
    std::vector<RcStats> by_rank(all.size());
    for (std::size_t i : flows) {
      for (std::size_t r = 0; r < in.size(); ++r) by_rank[r] = get_rc(in[r]);
      account(i, join_rc(by_rank, ParallelRun::rank_of(w_.lp_of(c_.flows[i].src), procs_->ranks())));
      paths_[i]->release_fabric_flows(true);
      paths_[i].reset();
    }
  }

  // Builds the QPs of the flows starting before the window that starts at `pending` (or at the
  // next flow's start, if sooner) ends, and schedules their posts. Returns the start of the first
  // flow admitted now, or else of the next to admit: the next window must start no later (the
  // LPs' next events were taken before the posts were scheduled).
  Time admit(Time pending) {
    if (next_ == c_.flows.size()) return Time::max();
    const Time first = c_.flows[next_].start;
    const Time until = std::min(pending, first) + w_.parallel->lookahead();
    for (; next_ < c_.flows.size() && c_.flows[next_].start < until; ++next_) {
      arrive(next_);
      if (source_here(next_)) w_.ctx_of(c_.flows[next_].src).sched.schedule_at(c_.flows[next_].start, *this, next_);
    }
    return first;
  }

  // Flow i's QP, whose report is `s`, leaves the run.
  void account(std::size_t i, const RcStats& s) {
    records_[i].retransmitted = s.retransmitted;
    accumulate(rc, s);
    if (s.status != "ok") ++failed_qps;
    --live_qps;
  }

  // Flow i's QP: its path between its hosts (each side in its host's LP).
  void arrive(std::size_t i) {
    const FlowArrival& f = c_.flows[i];
    FlowRecord& r = records_[i];
    r.sport = sport_of(c_.base.fabric.udp_sport, i);
    const FabricNetwork net(topo_, c_.base.profile, opts_, f.src, f.dst, r.sport);
    LatConfig sized = c_.base;  // the flow's own size: inline data only where it fits
    sized.size = f.size;
    const PathSpec spec = build_acked_path(sized, resolve(sized), net.appender());
    r.ideal = evaluate_path(spec, f.size, true).total();
    paths_[i] = std::make_unique<PathInstance>(
        std::array<SimContext*, 2>{&w_.ctx_of(f.src), &w_.ctx_of(f.dst)},
        std::array<HostResources*, 2>{hosts_[static_cast<std::size_t>(f.src)].get(), hosts_[static_cast<std::size_t>(f.dst)].get()},
        spec, *this, &w_);
    paths_[i]->set_connection(static_cast<std::uint32_t>(i));
    if (f.tc >= 0) paths_[i]->set_traffic_class(f.tc);
    peak_live_qps = std::max(peak_live_qps, ++live_qps);
  }

  // Flow i's one WRITE, now (at its start), from its source.
  void post(std::size_t i) {
    Message& m = *w_.ctx_of(c_.flows[i].src).messages.acquire();
    m.id = i + 1;
    m.size = c_.flows[i].size;
    m.tag = i;
    paths_[i]->post(m);
  }

  const FlowsConfig& c_;
  SimWorld& w_;
  RankExchange* procs_;  // the processes of a run over MPI ranks (null: this one runs every LP)
  bool joined_ = false;  // over ranks, after finish(): every process's counts
  std::int64_t joined_violations_ = 0;
  Time joined_last_{};
  std::shared_ptr<const Topology> topo_;
  FabricOptions opts_;
  std::vector<FlowRecord>& records_;
  std::vector<std::unique_ptr<HostResources>> hosts_;
  std::vector<std::unique_ptr<PathInstance>> paths_;  // null before a flow arrives and once its QP is freed
  std::vector<Part> parts_;  // one per LP (one unpartitioned)
  std::size_t next_ = 0;     // partitioned: the next flow to admit
  struct Reaper final : EventHandler {
    OpenLoop& loop;
    explicit Reaper(OpenLoop& l) : loop(l) {}
    void on_event(std::uint64_t i) override { loop.reap(static_cast<std::size_t>(i)); }
  } reaper_{*this};
};

// Nearest-rank percentile p of sorted values: the smallest with at least p of them at or below it.
double percentile(const std::vector<double>& sorted, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

SlowdownRow bucket(const std::vector<FlowRecord>& flows, std::string name, std::int64_t lo, std::int64_t hi) {
  SlowdownRow row{std::move(name), lo, hi, 0, 0, 0, 0, 0};
  std::vector<double> s;
  for (const FlowRecord& f : flows)
    if (f.completed && f.flow.size.count() >= lo && f.flow.size.count() < hi) s.push_back(f.slowdown);
  row.flows = static_cast<std::int64_t>(s.size());
  if (s.empty()) return row;
  std::sort(s.begin(), s.end());
  row.p50 = percentile(s, 0.5);
  row.p95 = percentile(s, 0.95);
  row.p99 = percentile(s, 0.99);
  double sum = 0;
  for (double x : s) sum += x;
  row.mean = sum / static_cast<double>(s.size());
  return row;
}

// The most flows in progress at once: each from its start to its completion (an incomplete
// one to the end); a flow that completes at an instant another starts is not counted with it.
std::int64_t most_in_progress(const std::vector<FlowRecord>& flows) {
  std::vector<std::pair<Time, int>> edges;  // (time, -1 for a completion, +1 for a start)
  edges.reserve(flows.size() * 2);
  for (const FlowRecord& f : flows) {
    edges.emplace_back(f.flow.start, 1);
    if (f.completed) edges.emplace_back(f.flow.start + f.fct, -1);
  }
  std::sort(edges.begin(), edges.end());
  std::int64_t now = 0, most = 0;
  for (const auto& [at, delta] : edges) most = std::max(most, now += delta);
  return most;
}

}  // namespace

std::vector<SlowdownRow> slowdown_buckets(const std::vector<FlowRecord>& flows) {
  constexpr std::int64_t kK = 1000, kM = 1000 * 1000, kInf = INT64_MAX;
  return {bucket(flows, "< 10KB", 0, 10 * kK),          bucket(flows, "10KB - 100KB", 10 * kK, 100 * kK),
          bucket(flows, "100KB - 1MB", 100 * kK, kM),   bucket(flows, "1MB - 10MB", kM, 10 * kM),
          bucket(flows, ">= 10MB", 10 * kM, kInf),      bucket(flows, "short (< 100KB)", 0, 100 * kK),
          bucket(flows, "long (>= 1MB)", kM, kInf),     bucket(flows, "all", 0, kInf)};
}

FlowsResult run_flows(const FlowsConfig& c, Exports* exports, RankExchange* ranks) {
  if (exports && (exports->trace() || exports->pcap() || exports->options().hop_ledger))
    throw std::invalid_argument("flows: --trace/--pcap/--hop-ledger of an open-loop run are not modelled yet");
  LatConfig base = c.base;
  if (base.topology != LatTopology::fabric) throw std::invalid_argument("open-loop flows run on a switched --topology");
  if (base.transport != Transport::rdma || base.test != TestKind::write)
    throw std::invalid_argument("open-loop flows are RDMA WRITEs (--transport rdma, --test write)");
  base.size = Bytes(1);
  validate(base);
  FlowsResult r;
  r.config = c;
  r.config.base = base;
  if (c.flows.size() > kMaxOpenLoopFlows)
    throw std::invalid_argument("the workload has " + std::to_string(c.flows.size()) + " flows (limit " +
                                std::to_string(kMaxOpenLoopFlows) + ")");
  const auto topo = FabricNetwork::make_topology(base);
  const int hosts = topo->host_count();
  double bits = 0;
  for (std::size_t i = 0; i < c.flows.size(); ++i) {
    const FlowArrival& f = c.flows[i];
    if (f.src < 0 || f.src >= hosts || f.dst < 0 || f.dst >= hosts)
      throw std::invalid_argument("flow " + std::to_string(i + 1) + ": hosts are 0.." + std::to_string(hosts - 1));
    if (f.src == f.dst) throw std::invalid_argument("flow " + std::to_string(i + 1) + ": a flow to its own host");
    if (f.tc < -1 || f.tc > 7) throw std::invalid_argument("flow " + std::to_string(i + 1) + ": traffic classes are 0..7");
    if (f.size.count() < 1 || f.size.count() > (std::int64_t{1} << 40))
      throw std::invalid_argument("flow " + std::to_string(i + 1) + ": sizes are 1 B .. 1 TiB");
    if (f.start < Time::zero() || (i > 0 && f.start < c.flows[i - 1].start))
      throw std::invalid_argument("flow " + std::to_string(i + 1) + ": start times must be 0 or more, in order");
    bits += static_cast<double>(f.size.count()) * 8;
  }
  r.flows.resize(c.flows.size());
  for (std::size_t i = 0; i < c.flows.size(); ++i) r.flows[i].flow = c.flows[i];
  SimWorld w(base.seed);
  RankExchange* procs = ranks && ranks->ranks() > 1 ? ranks : nullptr;  // MPI: this process runs its share of the LPs
  if (procs && c.threads > 1) throw std::invalid_argument("--threads: over MPI ranks, one thread per rank");
  if (c.threads > 0 || procs) {
    const std::string how = procs ? "over MPI ranks" : "--threads";
    if (exports && exports->probe()) throw std::invalid_argument(how + ": a partitioned run is not sampled (the dashboard)");
    if (c.log_pfc) throw std::invalid_argument(how + ": a partitioned run keeps no PFC log (--pfc-out)");
    w.partition(*topo, fabric_options(base).velocity_mps);
  }
  OpenLoop loop(r.config, w, topo, r.flows, procs);
  if (!c.flows.empty()) {  // the fabric before the first arrival, so a probe sees its ports
    const FabricNetwork first(topo, base.profile, flows_fabric_options(c), c.flows[0].src, c.flows[0].dst,
                              base.fabric.udp_sport);
    Fabric& fabric = w.fabric_for(*first.forward_flow);
    if (c.log_pfc) fabric.log_pfc(&r.pfc);
  }
  ExportScope scope(exports, w, base);
  for (int h = 0; h < hosts; ++h) scope.add_host(loop.host(h), h);
  scope.start(c.flows.empty() ? 0 : c.flows[0].src);
  loop.run();
  r.events = w.executed();
  loop.finish(r.events);
  scope.finish();
  r.invariant_violations = loop.violations();
  r.simulated = loop.last_completion();
  for (const FlowRecord& f : r.flows)
    if (f.completed) ++r.completed;
  r.rc = loop.rc;
  r.failed_qps = loop.failed_qps;
  r.peak_qps_held = static_cast<std::int64_t>(loop.peak_live_qps);
  r.peak_qps = most_in_progress(r.flows);
  if (!c.flows.empty() && c.flows.back().start > Time::zero())
    r.offered_load = bits / (static_cast<double>(hosts) * static_cast<double>(base.profile.link.rate.bits_per_sec()) *
                             (c.flows.back().start.to_us() / 1e6));
  w.trim_packets();
  if (w.fabric) r.fabric = w.fabric->stats(r.simulated);
  r.buckets = slowdown_buckets(r.flows);
  return r;
}

}  // namespace rdmasim
