// run_bandwidth: each QP keeps a window of `tx_depth` messages in flight (WRITE/SEND acknowledged, READ round trips), one way or both.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "model/budget.hpp"
#include "model/connection.hpp"
#include "model/path.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/exports.hpp"
#include "sim/rc_connection.hpp"
#include "workload/export_scope.hpp"
#include "workload/post_list_bw.hpp"
#include "workload/sim_world.hpp"
#include "rdmasim/load_balancer.hpp"

namespace rdmasim {
namespace {

// The paths of one QP of an (unbatched) bw run: the message until its completion (WRITE/SEND
// acknowledged, READ's round trip), optionally the same preceded by a connection's setup, and
// the receiving application's completion (build_receive_path).
struct BwPaths {
  PathSpec data;
  std::optional<PathSpec> setup;
  std::optional<PathSpec> receive;
  int dir = 0;  // 0: A -> B; 1: B -> A (the path's side 0 is host B)
};

class BwTest final : public MessageSink, public EventHandler {
 public:
  /// One QP per entry of `lanes` (they outlive the test).
  BwTest(const BwConfig& c, const std::vector<const BwPaths*>& lanes, Exports* x)
      : c_(c), w_(c.base.seed), exports_(x, w_, c.base) {
    exports_.add_pair();
    for (const BwPaths* p : lanes) {
      auto lane = std::make_unique<Lane>(*this, static_cast<int>(lanes_.size()), p->dir);
      const bool rev = p->dir == 1;
      const int core = (lane->index % c.qps) % c.cores;  // QP q of either direction on core q mod cores
      lane->path = w_.instance(p->data, *this, rev, core);
      if (p->setup) {
        lane->setup = w_.instance(*p->setup, *this, rev, core);
        lane->setup->observe_after("A.setup.qp_rts", lane->ready_hook);
      }
      if (p->receive) {
        lane->receive = w_.instance(*p->receive, *this, rev, core);
        lane->path->observe_after("B.nic.reassemble", lane->placed_hook);
        if (lane->setup) lane->setup->observe_after("B.nic.reassemble", lane->placed_hook);
      }
      if (c.rx_depth > 0) lane->path->rc_mut()->set_receive_queue(c.rx_depth);
      if (lane->index > 0) lane->path->set_connection(static_cast<std::uint32_t>(lane->index));
      lanes_.push_back(std::move(lane));
    }
    window_ = c.base.test == TestKind::read ? std::min(c.tx_depth, c.outstanding_reads) : c.tx_depth;
    exports_.start(c.base.topology == LatTopology::fabric ? c.base.fabric.from : 0);
  }

  void run() {
    if (c_.duration == Time::zero())
      for (int d = 0; d < (c_.bidirectional ? 2 : 1); ++d) {
        posted_[d].reserve(static_cast<std::size_t>(c_.base.iters * c_.qps));
        done_[d].reserve(static_cast<std::size_t>(c_.base.iters * c_.qps));
      }
    if (std::any_of(lanes_.begin(), lanes_.end(), [](const auto& l) { return l->receive != nullptr; }))
      rx_completed_.reserve(static_cast<std::size_t>(c_.base.iters));
    for (auto& lane : lanes_) pump(*lane);
    w_.run();
    exports_.finish();
  }

  void delivered(Packet& token) override {
    Message& m = *token.msg;
    const Time now = w_.sched.now();
    if (token.ledger.total() != now - m.posted) ++violations_;
    const bool rx = (m.tag & 1) != 0;
    Lane& lane = *lanes_[static_cast<std::size_t>(m.tag >> 1)];
    (rx ? rx_ledger_sum_ : ledger_sum_).add(token.ledger);
    if (rx)
      rx_completed_.push_back(now.count_ps());
    else
      done_[lane.dir].push_back({m.posted.count_ps(), now.count_ps()});
    w_.packets.release(&token);
    w_.ctx.release_message(m);
    if (rx) {  // the application consumed the receive: it posts another after its processing
      if (c_.rx_depth > 0) w_.sched.schedule_in(c_.recv_delay, *this, static_cast<std::uint64_t>(lane.index));
      return;
    }
    --lane.in_flight;
    pump(lane);
  }

  void on_event(std::uint64_t lane) override { lanes_[lane]->path->rc_mut()->post_receive(); }

  /// A message's post and completion (picoseconds).
  struct Done {
    std::int64_t posted, completed;
  };
  std::vector<std::int64_t> posted_[2], rx_completed_;  // per direction, in post order
  std::vector<Done> done_[2];                           // per direction, in completion order
  Ledger ledger_sum_, rx_ledger_sum_;
  std::int64_t violations_ = 0, connections_ = 0;
  int window_ = 1;  // messages in flight per QP
  std::uint64_t events() const { return w_.sched.executed(); }
  const SimWorld& world() const { return w_; }
  std::size_t lanes() const { return lanes_.size(); }
  const PathInstance& path(std::size_t lane) const { return *lanes_[lane]->path; }

 private:
  struct Lane;
  struct Hook final : StageObserver {
    Hook(Lane& l, bool ready) : lane(l), is_ready(ready) {}
    void passed(Packet& token) override { is_ready ? lane.test.connected(lane) : lane.test.placed(lane, token); }
    Lane& lane;
    bool is_ready;
  };
  // One QP: its paths, window and connection cycle.
  struct Lane {
    Lane(BwTest& t, int i, int d) : test(t), index(i), dir(d) {}
    BwTest& test;
    int index, dir;
    std::unique_ptr<PathInstance> path, setup, receive;
    Hook ready_hook{*this, true}, placed_hook{*this, false};
    std::int64_t next = 0, in_flight = 0, conn_left = 0;
    bool established = false;
  };

  bool more(const Lane& l) const {
    return c_.duration > Time::zero() ? w_.sched.now() < c_.duration : l.next < c_.base.iters;
  }

  // Keeps the QP's window full; with connection setup, a connection's messages go once it is
  // established, and the next connection is set up when the previous one's completed.
  void pump(Lane& l) {
    while (more(l) && l.in_flight < window_) {
      if (l.setup) {
        if (l.conn_left == 0) {
          if (l.in_flight > 0) return;
          l.conn_left = c_.base.conn.reuse;
          l.established = false;
          ++connections_;
          post(l, *l.setup);
          continue;
        }
        if (!l.established) return;
      }
      post(l, *l.path);
    }
  }

  void post(Lane& l, PathInstance& on) {
    Message& m = *w_.messages.acquire();
    m.id = ++next_id_;
    m.size = c_.base.size;
    m.tag = static_cast<std::uint64_t>(l.index) << 1;
    posted_[l.dir].push_back(w_.sched.now().count_ps());
    ++l.next;
    ++l.in_flight;
    if (l.setup) --l.conn_left;
    on.post(m);
  }

  void connected(Lane& l) {
    l.established = true;
    pump(l);
  }

  // The payload is in the receiver's memory: its application's completion starts (the ACK
  // goes on without it).
  void placed(Lane& l, Packet& token) {
    Message& q = *w_.messages.acquire();
    q.id = token.msg->id;
    q.size = token.msg->size;
    q.tag = (static_cast<std::uint64_t>(l.index) << 1) | 1;
    l.receive->post(q, token.ledger, token.msg->posted);
  }

  const BwConfig& c_;
  SimWorld w_;
  ExportScope exports_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::uint64_t next_id_ = 0;
};

// perftest's figures from posts (in post order) and completions (in completion order): the
// average over `span_ps`, the peak over windows of `window` messages.
BwDirection rates(const std::vector<std::int64_t>& posted, const std::vector<std::int64_t>& completed, double span_ps,
                  std::int64_t window, Bytes size) {
  BwDirection d;
  const auto n = static_cast<std::int64_t>(completed.size());
  d.completed = n;
  d.seconds = span_ps / 1e12;
  if (n == 0 || span_ps <= 0) return d;
  const double bits = static_cast<double>(size.count()) * 8.0;
  d.bw_avg_bps = bits * static_cast<double>(n) / d.seconds;
  d.msg_rate_mpps = static_cast<double>(n) / d.seconds / 1e6;
  // Peak: message i..j take completed[j] - posted[i]; the best average over windows of
  // `window` messages (those in flight at once).
  double best = static_cast<double>(completed.back() - posted.front()) / static_cast<double>(n);
  window = std::min(n, window);
  for (std::int64_t i = 0; i + window <= n; ++i) {
    const std::int64_t j = i + window - 1;
    best = std::min(best, static_cast<double>(completed[static_cast<std::size_t>(j)] - posted[static_cast<std::size_t>(i)]) /
                              static_cast<double>(window));
  }
  d.bw_peak_bps = best > 0 ? bits / (best / 1e12) : 0;
  return d;
}

// Sums the directions into the result's perftest figures (bidirectional: the two reports added).
void sum_directions(BwResult& r) {
  r.completed = 0;
  r.seconds = r.bw_avg_bps = r.bw_peak_bps = r.msg_rate_mpps = 0;
  for (const BwDirection& d : r.directions) {
    r.completed += d.completed;
    r.seconds = std::max(r.seconds, d.seconds);
    r.bw_avg_bps += d.bw_avg_bps;
    r.bw_peak_bps += d.bw_peak_bps;
    r.msg_rate_mpps += d.msg_rate_mpps;
  }
}

// One direction of an unbatched run: every message until the last completion; or with a
// duration, the n messages completed inside [margin, duration - margin], whose rate is that of
// their completions, (n - 1) messages between the first and the last (a count over the whole
// window would be off by up to one message); perftest keeps no per-message times in duration
// mode, so there is no peak (0).
BwDirection direction_rates(const BwConfig& c, const std::vector<std::int64_t>& posted,
                            const std::vector<BwTest::Done>& done, std::int64_t window) {
  std::vector<std::int64_t> done_at;
  done_at.reserve(done.size());
  if (c.duration == Time::zero()) {
    for (const BwTest::Done& d : done) done_at.push_back(d.completed);
    if (done_at.empty()) return {};
    return rates(posted, done_at, static_cast<double>(done_at.back() - posted.front()), window, c.base.size);
  }
  const std::int64_t from = c.margin.count_ps(), to = (c.duration - c.margin).count_ps();
  for (const BwTest::Done& d : done)
    if (d.completed >= from && d.completed <= to) done_at.push_back(d.completed);
  BwDirection d;
  d.completed = static_cast<std::int64_t>(done_at.size());
  d.seconds = static_cast<double>(to - from) / 1e12;
  if (done_at.size() < 2 || done_at.back() == done_at.front()) return d;
  const double span = static_cast<double>(done_at.back() - done_at.front()) / 1e12;
  const double n = static_cast<double>(done_at.size() - 1);
  d.bw_avg_bps = static_cast<double>(c.base.size.count()) * 8.0 * n / span;
  d.msg_rate_mpps = n / span / 1e6;
  return d;
}

}  // namespace

double ClientCost::bound_mpps() const {
  const double busiest = std::max({cpu_ps, pcie_down_ps, pcie_up_ps, wire_ps, engine_ps});
  return busiest > 0 ? 1e6 / busiest : 0.0;
}

namespace {

void fill_cost(BwResult& r, const SimWorld& w) {
  const double n = static_cast<double>(r.completed);
  // The cores share the messages as the QPs' engines do: busy time per message and core.
  r.cost.cpu_ps = static_cast<double>(w.a.counters().cpu_busy.count_ps()) / n / r.config.cores;
  r.cost.pcie_down_ps = static_cast<double>(w.a.pcie_down.busy_time().count_ps()) / n;
  r.cost.pcie_up_ps = static_cast<double>(w.a.pcie_up.busy_time().count_ps()) / n;
  r.cost.wire_ps = static_cast<double>(w.a.wire.busy_time().count_ps()) / n;
  // Each QP has its own send engine: q of them share the messages; the adapter's engines,
  // shared by every QP, take each one (the slower of the two bounds the NIC).
  const NicParams& nic = r.config.base.profile.nic;
  r.cost.engine_ps = std::max(static_cast<double>(nic.wqe_process.count_ps()) / r.config.qps,
                              static_cast<double>(nic.adapter_wqe.count_ps()));
}

// --post-list / --cq-mod: the batching client (workload/post_list_bw.hpp).
void run_batched(BwResult& r, const BwConfig& c, const ResolvedToggles& t, const std::vector<NetworkAppender>& nets) {
  if (c.post_list > 1 && (!t.kernel_bypass || !t.zero_copy))
    throw std::invalid_argument("--post-list: a list is posted from user space to registered buffers "
                                "(needs --kernel-bypass on and --zero-copy on)");
  std::vector<PostListPaths> paths;
  for (const NetworkAppender& net : nets) paths.push_back(build_post_list_paths(c.base, t, net, c.post_list));
  SimWorld w(c.base.seed);
  PostListBw test(w, paths, {c.base.size, c.base.iters, c.tx_depth, c.post_list, c.cq_mod, c.qps, c.cores});
  test.run();
  r.events = w.sched.executed();
  r.invariant_violations = test.violations;
  r.completed = static_cast<std::int64_t>(test.completed.size());
  r.lists = test.lists;
  r.signaled = test.signaled;
  r.wqe_ledger_sum = test.wqe_ledger_sum;
  for (int q = 0; q < test.qps(); ++q)
    if (const RcConnection* rc = test.send_path(q).rc()) {
      if (!r.rc) r.rc = rc->stats();
      else accumulate(*r.rc, rc->stats());
    }
  r.hosts[0] = w.a.counters();
  r.hosts[1] = w.b.counters();
  // The run ends with its last completion: a timer still armed after it (an RC or TCP
  // retransmission timer with nothing to do) does not stretch the CPU accounting's window.
  r.simulated = test.completed.empty() ? w.sched.now() : Time::ps(test.completed.back());
  if (r.completed == 0) {
    if (w.fabric) r.fabric = w.fabric->stats(w.sched.now());
    return;
  }
  r.directions = {rates(test.posted, test.completed, static_cast<double>(test.completed.back() - test.posted.front()),
                        c.tx_depth * c.qps, c.base.size)};
  sum_directions(r);
  fill_cost(r, w);
  if (w.fabric) r.fabric = w.fabric->stats(Time::ps(test.completed.back() - test.posted.front()));
  if (c.base.record_samples) {
    r.posted_ps = test.posted;
    r.completed_ps = test.completed;
  }
}

// The network of one QP from side `dir` (0: A -> B, 1: B -> A) with UDP source port `sport`;
// empty for the back-to-back cable.
struct LaneNetwork {
  NetworkAppender net;
  std::vector<std::string> routes;
  Rate bottleneck;
};

LaneNetwork lane_network(const BwConfig& c, const std::shared_ptr<const Topology>& topo, int dir, std::uint16_t sport) {
  LaneNetwork n;
  n.bottleneck = c.base.profile.link.rate;
  if (!topo) return n;
  const int from = dir == 0 ? c.base.fabric.from : c.base.fabric.to, to = dir == 0 ? c.base.fabric.to : c.base.fabric.from;
  const FabricNetwork fabric(topo, c.base.profile, fabric_options(c.base), from, to, sport);
  n.routes = fabric.routes;
  for (int cable : fabric.forward_path.cables)
    n.bottleneck = std::min(n.bottleneck, topo->cables()[static_cast<std::size_t>(cable)].rate);
  n.net = fabric.appender();
  return n;
}

// One QP's paths, built with `side` (the run's configuration, its sides swapped for B -> A).
BwPaths lane_paths(const BwConfig& c, const LatConfig& side, const ResolvedToggles& t, const NetworkAppender& net,
                   int dir, Time* setup_cost) {
  const bool tcp = c.base.transport == Transport::tcp;
  BwPaths p;
  p.dir = dir;
  if (tcp)
    p.data = build_tcp_stream_path(side, t, net);
  else if (side.test == TestKind::read)
    p.data = net ? build_path(side, t, 0, net) : build_path(side, t, 0);  // request out, responses back, completion
  else
    p.data = build_acked_path(side, t, net);
  if (c.base.conn.reuse > 0 || c.base.conn.pool) {
    PathSpec setup = build_setup_path(side, net);
    *setup_cost = evaluate_path(setup, side.size, true).total();
    if (c.base.conn.reuse > 0) {
      setup.stages.insert(setup.stages.end(), p.data.stages.begin(), p.data.stages.end());
      p.setup = std::move(setup);
    }
  }
  const bool staged_rx = side.gpu.mem[1] == MemKind::gpu && !t.gpudirect;
  if (!tcp && side.test != TestKind::read && (staged_rx || c.rx_depth > 0)) {  // a TCP path ends at recv()
    PathSpec rx = build_receive_path(side, t, true);
    if (!rx.stages.empty()) p.receive = std::move(rx);
  }
  return p;
}

void check_bw_config(const BwConfig& c, bool tcp) {
  const bool read = c.base.test == TestKind::read && !tcp;
  if (c.base.topology == LatTopology::loopback)
    throw std::invalid_argument("bw runs RDMA write, send and read, or kernel TCP (--transport tcp) across a cable or fabric");
  if (read && (c.post_list > 1 || c.cq_mod > 1 || c.base.conn.reuse > 0 || c.base.conn.pool || c.rx_depth > 0))
    throw std::invalid_argument("bw --test read: --post-list/--cq-mod/--connect-per-msg/--conn-reuse/--qp-pool/--rx-depth "
                                "are modelled for write and send");
  if (c.outstanding_reads < 1 || c.outstanding_reads > 256)
    throw std::invalid_argument("--outs (outstanding reads): must be 1..256");
  if (tcp && (c.post_list > 1 || c.cq_mod > 1)) throw std::invalid_argument("--post-list/--cq-mod: verbs batching; not with --transport tcp");
  if (tcp && (c.base.conn.reuse > 0 || c.base.conn.pool || c.rx_depth > 0))
    throw std::invalid_argument("--connect-per-msg/--conn-reuse/--qp-pool/--rx-depth are RDMA's; not with --transport tcp");
  if (c.tx_depth < 1 || c.tx_depth > 8192) throw std::invalid_argument("tx depth must be 1..8192");
  if (c.qps < 1 || c.qps > 1024) throw std::invalid_argument("-q/--qp (QPs): must be 1..1024");
  if (c.cores < 1 || c.cores > c.qps)
    throw std::invalid_argument("--cores " + std::to_string(c.cores) + ": QPs are placed one process per core, so 1..-q (" +
                                std::to_string(c.qps) + ")");
  if (c.duration < Time::zero()) throw std::invalid_argument("-D/--duration: must not be negative");
  if (c.margin < Time::zero()) throw std::invalid_argument("-f/--margin: must not be negative");
  if (c.duration > Time::zero() && c.margin * 2 >= c.duration)
    throw std::invalid_argument("-f/--margin: twice the margin must be shorter than -D/--duration (nothing would be measured)");
  if (c.duration == Time::zero() && c.margin > Time::zero()) throw std::invalid_argument("-f/--margin: needs -D/--duration");
  if ((c.bidirectional || c.duration > Time::zero()) && (c.post_list > 1 || c.cq_mod > 1))
    throw std::invalid_argument("--post-list/--cq-mod batch one direction's iterations: not with -b/--bidirectional or -D/--duration");
  if (c.post_list < 1) throw std::invalid_argument("--post-list: must be at least 1");
  if (c.post_list > c.tx_depth)
    throw std::invalid_argument("--post-list " + std::to_string(c.post_list) + " is larger than the SQ depth (--tx-depth " +
                                std::to_string(c.tx_depth) + "): the list would never fit in the send queue");
  if (c.cq_mod < 1) throw std::invalid_argument("--cq-mod: must be at least 1");
  if (c.cq_mod > c.tx_depth)
    throw std::invalid_argument("--cq-mod " + std::to_string(c.cq_mod) + " is larger than the SQ depth (--tx-depth " +
                                std::to_string(c.tx_depth) + "): no signaled WQE would ever fit in the send queue");
  if ((c.post_list > 1 || c.cq_mod > 1) && (c.base.conn.reuse > 0 || c.rx_depth > 0))
    throw std::invalid_argument("--post-list/--cq-mod: batching runs pre-connected with receives always ready "
                                "(drop --connect-per-msg/--conn-reuse/--rx-depth)");
  if (c.rx_depth < 0 || c.rx_depth > 8192) throw std::invalid_argument("--rx-depth: must be 1..8192");
  if (c.recv_delay < Time::zero()) throw std::invalid_argument("--recv-delay: must not be negative");
  if (c.rx_depth > 0 && (c.base.test != TestKind::send || c.base.topology != LatTopology::fabric))
    throw std::invalid_argument("--rx-depth: receives are consumed by SENDs and RNR NAKs are the RC transport's "
                                "(needs --test send and a switched --topology)");
  if (c.rx_depth > 0 && c.base.conn.reuse > 0)
    throw std::invalid_argument("--rx-depth with --connect-per-msg/--conn-reuse is not modelled (each connection's "
                                "first SEND runs on its own new QP): drop one of them");
  if (c.rx_depth == 0 && c.recv_delay > Time::zero())
    throw std::invalid_argument("--recv-delay: delays reposting receives; give --rx-depth too");
}

}  // namespace

namespace {

// The configuration as it runs: packet-level TCP back to back runs on the fabric model.
BwConfig as_run(const BwConfig& c0) {
  BwConfig c = c0;
  if (c0.base.transport == Transport::tcp && c0.base.topology == LatTopology::back_to_back) {
    c.base.topology = LatTopology::fabric;
    c.base.fabric.topology = "back-to-back";
    c.base.fabric.from = 0;
    c.base.fabric.to = 1;
  }
  return c;
}

}  // namespace

void validate(const BwConfig& c0) {
  const BwConfig c = as_run(c0);
  validate(c.base);
  check_bw_config(c, c0.base.transport == Transport::tcp);
}

BwResult run_bandwidth(const BwConfig& c0, Exports* exports) {
  const bool tcp = c0.base.transport == Transport::tcp;
  const BwConfig c = as_run(c0);
  validate(c0);
  if ((c.post_list > 1 || c.cq_mod > 1) && exports)
    throw std::invalid_argument("--trace/--pcap follow messages from their own post: drop --post-list/--cq-mod");
  if (c.cores > 1 && exports && exports->trace())
    throw std::invalid_argument("--trace draws one core per host: drop --cores (or --trace)");
  BwResult r;
  r.config = c;
  const ResolvedToggles t = resolve(c.base);
  const int dirs = c.bidirectional ? 2 : 1;
  std::shared_ptr<const Topology> topo;
  if (c.base.topology == LatTopology::fabric) topo = FabricNetwork::make_topology(c.base);
  LatConfig reversed = c.base;  // B -> A: the server's side is side 0
  std::swap(reversed.gpu.mem[0], reversed.gpu.mem[1]);
  // One set of paths per QP over a fabric (each QP its own route); back to back the QPs of a
  // direction share theirs.
  std::vector<BwPaths> paths;
  paths.reserve(static_cast<std::size_t>(dirs * c.qps));  // `lanes` points into it
  std::vector<const BwPaths*> lanes;
  std::vector<NetworkAppender> qp_nets;  // the first direction's, one per QP (a batched run's)
  Rate bottleneck = c.base.profile.link.rate;
  for (int d = 0; d < dirs; ++d)
    for (int q = 0; q < c.qps; ++q) {
      if (!topo && q > 0) {
        lanes.push_back(lanes.back());
        if (d == 0) qp_nets.push_back(qp_nets.back());
        continue;
      }
      const LaneNetwork n = lane_network(c, topo, d, static_cast<std::uint16_t>(c.base.fabric.udp_sport + q));
      r.routes.insert(r.routes.end(), n.routes.begin(), n.routes.end());
      bottleneck = std::min(bottleneck, n.bottleneck);
      if (d == 0) qp_nets.push_back(n.net);
      paths.push_back(lane_paths(c, d == 0 ? c.base : reversed, t, n.net, d, &r.setup));
      lanes.push_back(&paths.back());
    }
  const PathSpec& path = paths.front().data;
  if (c.duration == Time::zero() && !load_balancer(c.base.fabric.routing).per_packet_paths &&  // no closed form
      static_cast<double>(evaluate_path(path, c.base.size, true).total().count_ps()) * static_cast<double>(c.base.iters) >
          1e18)
    throw std::invalid_argument("this run would simulate more than 11 days: use fewer iterations");
  if (c.duration > Time::ms(1000 * 1000)) throw std::invalid_argument("-D/--duration: at most 1000 s of simulated time");
  if (c.post_list > 1 || c.cq_mod > 1) {
    run_batched(r, c, t, qp_nets);
  } else {
    BwTest test(c, lanes, exports);
    test.run();
    r.connections = test.connections_;
    r.rx_completed = static_cast<std::int64_t>(test.rx_completed_.size());
    r.rx_ledger_sum = test.rx_ledger_sum_;
    r.wqe_ledger_sum = test.ledger_sum_;
    r.events = test.events();
    r.invariant_violations = test.violations_;
    for (std::size_t i = 0; i < test.lanes(); ++i) {
      if (const RcConnection* rc = test.path(i).rc()) {
        if (!r.rc) r.rc = rc->stats();
        else accumulate(*r.rc, rc->stats());
      }
      if (const TcpConnection* tc = test.path(i).tcp()) {
        if (!r.tcp) r.tcp = tc->stats();
        else accumulate(*r.tcp, tc->stats());
      }
    }
    const std::int64_t window = static_cast<std::int64_t>(test.window_) * c.qps;
    for (int d = 0; d < dirs; ++d) r.directions.push_back(direction_rates(c, test.posted_[d], test.done_[d], window));
    sum_directions(r);
    r.lists = r.signaled = static_cast<std::int64_t>(test.done_[0].size() + test.done_[1].size());
    r.hosts[0] = test.world().a.counters();
    r.hosts[1] = test.world().b.counters();
    std::int64_t first = -1, last = -1;  // first post, last completion (either direction)
    for (int d = 0; d < dirs; ++d)
      if (!test.done_[d].empty()) {
        first = first < 0 ? test.posted_[d].front() : std::min(first, test.posted_[d].front());
        last = std::max(last, test.done_[d].back().completed);
      }
    // The run ends with its last completion, the receiving application's included (a staged
    // GPU receiver's copies go on after the sender's last ACK): a timer still armed after it (an
    // RC or TCP retransmission timer with nothing to do) does not stretch the CPU accounting's window.
    std::int64_t end = last;
    if (last >= 0 && !test.rx_completed_.empty())
      end = std::max(last, *std::max_element(test.rx_completed_.begin(), test.rx_completed_.end()));
    r.simulated = end >= 0 ? Time::ps(end) : test.world().sched.now();
    if (first < 0) {  // the QPs failed before anything completed
      if (test.world().fabric) r.fabric = test.world().fabric->stats(test.world().sched.now());
      return r;
    }
    fill_cost(r, test.world());
    if (test.world().fabric) r.fabric = test.world().fabric->stats(Time::ps(last - first));
    if (c.base.record_samples) {  // every message, in post order
      std::vector<BwTest::Done> all(test.done_[0]);
      all.insert(all.end(), test.done_[1].begin(), test.done_[1].end());
      std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.posted < b.posted; });
      for (const BwTest::Done& d : all) {
        r.posted_ps.push_back(d.posted);
        r.completed_ps.push_back(d.completed);
      }
      r.rx_completed_ps = test.rx_completed_;
    }
    if (r.rx_completed > 0)
      r.rx_bw_avg_bps = static_cast<double>(c.base.size.count()) * 8.0 * static_cast<double>(r.rx_completed) /
                        (static_cast<double>(test.rx_completed_.back() - first) / 1e12);
  }
  if (c.duration > Time::zero() && (!r.rc || r.rc->status == "ok"))
    for (const BwDirection& d : r.directions)
      if (d.completed < 2)
        throw std::invalid_argument("-D/--duration: " + std::to_string(d.completed) +
                                    " messages completed inside the measured window (after -f/--margin, before the "
                                    "end less the margin); a rate needs two: run longer");
  if (r.completed == 0) return r;
  const bool read = !tcp && c.base.test == TestKind::read;
  const FrameKind fk = tcp                              ? FrameKind::tcp_segment
                       : read                           ? FrameKind::roce_read_response
                       : c.base.test == TestKind::send ? FrameKind::roce_send
                                                        : FrameKind::roce_write;
  const Bytes segment = tcp ? c.base.profile.tcp.mss : c.base.mtu;
  r.wire_bytes_per_message = message_wire_bytes(fk, c.base.size, segment, tcp ? LinkLayer::roce : c.base.link_layer);
  r.packets_per_message = packet_count(c.base.size, segment);
  r.ideal_bps = static_cast<double>(dirs) * static_cast<double>(bottleneck.bits_per_sec()) *
                static_cast<double>(c.base.size.count()) / static_cast<double>(r.wire_bytes_per_message.count());
  return r;
}

}  // namespace rdmasim
