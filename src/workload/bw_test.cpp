// run_bandwidth: a window of `tx_depth` acknowledged WRITE/SEND messages on one QP.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "model/budget.hpp"
#include "model/connection.hpp"
#include "model/path.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/bandwidth.hpp"
#include "sim/rc_connection.hpp"
#include "workload/export_session.hpp"
#include "workload/post_list_bw.hpp"
#include "workload/sim_world.hpp"

namespace rdmasim {
namespace {

// The paths of one (unbatched) bw run: the acknowledged message, optionally the same preceded
// by a connection's setup, and the receiving application's completion (build_receive_path).
struct BwPaths {
  PathSpec data;
  std::optional<PathSpec> setup;
  std::optional<PathSpec> receive;
};

class BwTest final : public MessageSink, public EventHandler {
 public:
  BwTest(const BwConfig& c, const BwPaths& p, Exports* x) : c_(c), w_(c.base.seed), exports_(x, w_, c.base) {
    exports_.add_pair();
    path_ = w_.instance(p.data, *this);
    if (p.setup) {
      setup_ = w_.instance(*p.setup, *this);
      setup_->observe_after("A.setup.qp_rts", ready_hook_);
    }
    if (p.receive) {
      receive_ = w_.instance(*p.receive, *this);
      path_->observe_after("B.nic.reassemble", placed_hook_);
      if (setup_) setup_->observe_after("B.nic.reassemble", placed_hook_);
    }
    if (c.rx_depth > 0) path_->rc_mut()->set_receive_queue(c.rx_depth);
    exports_.start(c.base.topology == LatTopology::fabric ? c.base.fabric.from : 0);
  }

  void run() {
    posted_.reserve(static_cast<std::size_t>(c_.base.iters));
    completed_.reserve(static_cast<std::size_t>(c_.base.iters));
    if (receive_) rx_completed_.reserve(static_cast<std::size_t>(c_.base.iters));
    pump();
    w_.sched.run();
    exports_.finish();
  }

  void delivered(Packet& token) override {
    Message& m = *token.msg;
    const Time now = w_.sched.now();
    if (token.ledger.total() != now - m.posted) ++violations_;
    const bool rx = m.tag == kReceiveTag;
    (rx ? rx_ledger_sum_ : ledger_sum_).add(token.ledger);
    (rx ? rx_completed_ : completed_).push_back(now.count_ps());
    w_.packets.release(&token);
    w_.ctx.release_message(m);
    if (rx) {  // the application consumed the receive: it posts another after its processing
      if (c_.rx_depth > 0) w_.sched.schedule_in(c_.recv_delay, *this, 0);
      return;
    }
    --in_flight_;
    pump();
  }

  void on_event(std::uint64_t) override { path_->rc_mut()->post_receive(); }

  std::vector<std::int64_t> posted_, completed_, rx_completed_;
  Ledger ledger_sum_, rx_ledger_sum_;
  std::int64_t violations_ = 0, connections_ = 0;
  std::uint64_t events() const { return w_.sched.executed(); }
  const SimWorld& world() const { return w_; }
  const PathInstance& path() const { return *path_; }

 private:
  static constexpr std::uint64_t kReceiveTag = 1;
  struct Hook final : StageObserver {
    Hook(BwTest& t, bool ready) : test(t), is_ready(ready) {}
    void passed(Packet& token) override { is_ready ? test.connected() : test.placed(token); }
    BwTest& test;
    bool is_ready;
  };

  // Keeps tx_depth messages in flight; with connection setup, a connection's messages go once
  // it is established, and the next connection is set up when the previous one's completed.
  void pump() {
    while (next_ < c_.base.iters && in_flight_ < c_.tx_depth) {
      if (setup_) {
        if (conn_left_ == 0) {
          if (in_flight_ > 0) return;
          conn_left_ = c_.base.conn.reuse;
          established_ = false;
          ++connections_;
          post(*setup_);
          continue;
        }
        if (!established_) return;
      }
      post(*path_);
    }
  }

  void post(PathInstance& on) {
    Message& m = *w_.messages.acquire();
    m.id = static_cast<std::uint64_t>(++next_);
    m.size = c_.base.size;
    posted_.push_back(w_.sched.now().count_ps());
    ++in_flight_;
    if (setup_) --conn_left_;
    on.post(m);
  }

  void connected() {
    established_ = true;
    pump();
  }

  // The payload is in the receiver's memory: its application's completion starts (the ACK
  // goes on without it).
  void placed(Packet& token) {
    Message& q = *w_.messages.acquire();
    q.id = token.msg->id;
    q.size = token.msg->size;
    q.tag = kReceiveTag;
    receive_->post(q, token.ledger, token.msg->posted);
  }

  const BwConfig& c_;
  SimWorld w_;
  ExportSession exports_;
  std::unique_ptr<PathInstance> path_, setup_, receive_;
  Hook ready_hook_{*this, true}, placed_hook_{*this, false};
  std::int64_t next_ = 0, in_flight_ = 0, conn_left_ = 0;
  bool established_ = false;
};

// perftest's figures from the per-message post and completion times (in post order).
void fill_rates(BwResult& r, const std::vector<std::int64_t>& posted, const std::vector<std::int64_t>& completed,
                int tx_depth) {
  const auto n = static_cast<std::int64_t>(completed.size());
  const double span_ps = static_cast<double>(completed.back() - posted.front());
  r.seconds = span_ps / 1e12;
  const double bits = static_cast<double>(r.config.base.size.count()) * 8.0;
  r.bw_avg_bps = bits * static_cast<double>(n) / r.seconds;
  r.msg_rate_mpps = static_cast<double>(n) / r.seconds / 1e6;
  // Peak: completions are in post order (one QP, FIFO), so message i..j take
  // completed[j] - posted[i]; the best average over windows of tx_depth messages.
  double best = span_ps / static_cast<double>(n);
  const std::int64_t window = std::min<std::int64_t>(n, tx_depth);
  for (std::int64_t i = 0; i + window <= n; ++i) {
    const std::int64_t j = i + window - 1;
    best = std::min(best, static_cast<double>(completed[static_cast<std::size_t>(j)] - posted[static_cast<std::size_t>(i)]) /
                              static_cast<double>(window));
  }
  r.bw_peak_bps = bits / (best / 1e12);
}

void fill_cost(BwResult& r, const SimWorld& w) {
  const double n = static_cast<double>(r.completed);
  r.cost.cpu_ps = static_cast<double>(w.a.core.busy_time().count_ps()) / n;
  r.cost.pcie_down_ps = static_cast<double>(w.a.pcie_down.busy_time().count_ps()) / n;
  r.cost.pcie_up_ps = static_cast<double>(w.a.pcie_up.busy_time().count_ps()) / n;
  r.cost.wire_ps = static_cast<double>(w.a.wire.busy_time().count_ps()) / n;
}

// --post-list / --cq-mod: the batching client (workload/post_list_bw.hpp).
void run_batched(BwResult& r, const BwConfig& c, const ResolvedToggles& t, const NetworkAppender& net) {
  if (c.post_list > 1 && (!t.kernel_bypass || !t.zero_copy))
    throw std::invalid_argument("--post-list: a list is posted from user space to registered buffers "
                                "(needs --kernel-bypass on and --zero-copy on)");
  const PostListPaths paths = build_post_list_paths(c.base, t, net, c.post_list);
  SimWorld w(c.base.seed);
  PostListBw test(w, paths, {c.base.size, c.base.iters, c.tx_depth, c.post_list, c.cq_mod});
  test.run();
  r.events = w.sched.executed();
  r.invariant_violations = test.violations;
  r.completed = static_cast<std::int64_t>(test.completed.size());
  r.lists = test.lists;
  r.signaled = test.signaled;
  r.wqe_ledger_sum = test.wqe_ledger_sum;
  if (const RcConnection* rc = test.send_path().rc()) r.rc = rc->stats();
  r.hosts[0] = w.a.counters();
  r.hosts[1] = w.b.counters();
  r.simulated = w.sched.now();
  if (r.completed == 0) {
    if (w.fabric) r.fabric = w.fabric->stats(w.sched.now());
    return;
  }
  fill_rates(r, test.posted, test.completed, c.tx_depth);
  fill_cost(r, w);
  if (w.fabric) r.fabric = w.fabric->stats(Time::ps(test.completed.back() - test.posted.front()));
  if (c.base.record_samples) {
    r.posted_ps = test.posted;
    r.completed_ps = test.completed;
  }
}

}  // namespace

BwResult run_bandwidth(const BwConfig& c0, Exports* exports) {
  BwConfig tcp_config = c0;
  const bool tcp = c0.base.transport == Transport::tcp;
  if (tcp && c0.base.topology == LatTopology::back_to_back) {  // packet-level TCP runs on the fabric model
    tcp_config.base.topology = LatTopology::fabric;
    tcp_config.base.fabric.topology = "back-to-back";
    tcp_config.base.fabric.from = 0;
    tcp_config.base.fabric.to = 1;
  }
  const BwConfig& c = tcp ? tcp_config : c0;
  validate(c.base);
  if (c.base.test == TestKind::read || c.base.topology == LatTopology::loopback)
    throw std::invalid_argument("bw runs RDMA write and send, or kernel TCP (--transport tcp) across a cable or fabric");
  if (tcp && (c.post_list > 1 || c.cq_mod > 1)) throw std::invalid_argument("--post-list/--cq-mod: verbs batching; not with --transport tcp");
  if (tcp && (c.base.conn.reuse > 0 || c.base.conn.pool || c.rx_depth > 0))
    throw std::invalid_argument("--connect-per-msg/--conn-reuse/--qp-pool/--rx-depth are RDMA's; not with --transport tcp");
  if (c.tx_depth < 1 || c.tx_depth > 8192) throw std::invalid_argument("tx depth must be 1..8192");
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
  if ((c.post_list > 1 || c.cq_mod > 1) && exports)
    throw std::invalid_argument("--trace/--pcap follow messages from their own post: drop --post-list/--cq-mod");
  BwResult r;
  r.config = c;
  const ResolvedToggles t = resolve(c.base);
  NetworkAppender net;
  Rate bottleneck = c.base.profile.link.rate;
  if (c.base.topology == LatTopology::fabric) {
    const auto topo = FabricNetwork::make_topology(c.base);
    const FabricNetwork fabric(topo, c.base.profile, fabric_options(c.base), c.base.fabric.from, c.base.fabric.to,
                               c.base.fabric.udp_sport);
    r.routes = fabric.routes;
    for (int cable : fabric.forward_path.cables)
      bottleneck = std::min(bottleneck, topo->cables()[static_cast<std::size_t>(cable)].rate);
    net = fabric.appender();
  }
  BwPaths paths;
  paths.data = tcp ? build_tcp_stream_path(c.base, t, net) : build_acked_path(c.base, t, net);
  const PathSpec& path = paths.data;
  if (c.base.fabric.routing != Routing::spray &&  // spraying has no closed form to estimate with
      static_cast<double>(evaluate_path(path, c.base.size, true).total().count_ps()) * static_cast<double>(c.base.iters) >
          1e18)
    throw std::invalid_argument("this run would simulate more than 11 days: use fewer iterations");
  if (c.post_list > 1 || c.cq_mod > 1) {
    run_batched(r, c, t, net);
  } else {
    if (c.base.conn.reuse > 0 || c.base.conn.pool) {
      PathSpec setup = build_setup_path(c.base, net);
      r.setup = evaluate_path(setup, c.base.size, true).total();
      if (c.base.conn.reuse > 0) {
        setup.stages.insert(setup.stages.end(), path.stages.begin(), path.stages.end());
        paths.setup = std::move(setup);
      }
    }
    const bool staged_rx = c.base.gpu.mem[1] == MemKind::gpu && !t.gpudirect;
    if (!tcp && (staged_rx || c.rx_depth > 0)) {  // a TCP path ends at the receiver's recv()
      PathSpec rx = build_receive_path(c.base, t, true);
      if (!rx.stages.empty()) paths.receive = std::move(rx);
    }
    BwTest test(c, paths, exports);
    test.run();
    r.connections = test.connections_;
    r.rx_completed = static_cast<std::int64_t>(test.rx_completed_.size());
    r.rx_ledger_sum = test.rx_ledger_sum_;
    r.wqe_ledger_sum = test.ledger_sum_;
    r.events = test.events();
    r.invariant_violations = test.violations_;
    const auto n = static_cast<std::int64_t>(test.completed_.size());
    if (const RcConnection* rc = test.path().rc()) r.rc = rc->stats();
    if (const TcpConnection* tc = test.path().tcp()) r.tcp = tc->stats();
    r.completed = n;
    r.lists = r.signaled = n;
    r.hosts[0] = test.world().a.counters();
    r.hosts[1] = test.world().b.counters();
    r.simulated = test.world().sched.now();
    if (n == 0) {  // the QP failed before anything completed
      if (test.world().fabric) r.fabric = test.world().fabric->stats(test.world().sched.now());
      return r;
    }
    fill_rates(r, test.posted_, test.completed_, c.tx_depth);
    fill_cost(r, test.world());
    if (test.world().fabric)
      r.fabric = test.world().fabric->stats(Time::ps(test.completed_.back() - test.posted_.front()));
    if (c.base.record_samples) {
      r.posted_ps = test.posted_;
      r.completed_ps = test.completed_;
      r.rx_completed_ps = test.rx_completed_;
    }
    if (r.rx_completed > 0)
      r.rx_bw_avg_bps = static_cast<double>(c.base.size.count()) * 8.0 * static_cast<double>(r.rx_completed) /
                        (static_cast<double>(test.rx_completed_.back() - test.posted_.front()) / 1e12);
  }
  if (r.completed == 0) return r;
  const FrameKind fk = tcp ? FrameKind::tcp_segment : c.base.test == TestKind::send ? FrameKind::roce_send : FrameKind::roce_write;
  const Bytes segment = tcp ? c.base.profile.tcp.mss : c.base.mtu;
  r.wire_bytes_per_message = message_wire_bytes(fk, c.base.size, segment, tcp ? LinkLayer::roce : c.base.link_layer);
  r.packets_per_message = packet_count(c.base.size, segment);
  r.ideal_bps = static_cast<double>(bottleneck.bits_per_sec()) * static_cast<double>(c.base.size.count()) /
                static_cast<double>(r.wire_bytes_per_message.count());
  return r;
}

}  // namespace rdmasim
