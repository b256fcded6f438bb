// run_bandwidth: a window of `tx_depth` acknowledged WRITE/SEND messages on one QP.
#include <algorithm>
#include <stdexcept>

#include "model/budget.hpp"
#include "model/path.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/bandwidth.hpp"
#include "sim/rc_connection.hpp"
#include "workload/export_session.hpp"
#include "workload/post_list_bw.hpp"
#include "workload/sim_world.hpp"

namespace rdmasim {
namespace {

class BwTest final : public MessageSink {
 public:
  BwTest(const BwConfig& c, const PathSpec& path, Exports* x) : c_(c), w_(c.base.seed), exports_(x, w_, c.base) {
    exports_.add_pair();
    path_ = w_.instance(path, *this);
    exports_.start(c.base.topology == LatTopology::fabric ? c.base.fabric.from : 0);
  }

  void run() {
    posted_.reserve(static_cast<std::size_t>(c_.base.iters));
    completed_.reserve(static_cast<std::size_t>(c_.base.iters));
    while (next_ < c_.base.iters && next_ < c_.tx_depth) post();
    w_.sched.run();
    exports_.finish();
  }

  void delivered(Packet& token) override {
    Message& m = *token.msg;
    if (token.ledger.total() != w_.sched.now() - m.posted) ++violations_;
    completed_.push_back(w_.sched.now().count_ps());
    w_.packets.release(&token);
    w_.ctx.release_message(m);
    if (next_ < c_.base.iters) post();
  }

  std::vector<std::int64_t> posted_, completed_;
  std::int64_t violations_ = 0;
  std::uint64_t events() const { return w_.sched.executed(); }
  const SimWorld& world() const { return w_; }
  const PathInstance& path() const { return *path_; }

 private:
  void post() {
    Message& m = *w_.messages.acquire();
    m.id = static_cast<std::uint64_t>(++next_);
    m.size = c_.base.size;
    posted_.push_back(w_.sched.now().count_ps());
    path_->post(m);
  }

  const BwConfig& c_;
  SimWorld w_;
  ExportSession exports_;
  std::unique_ptr<PathInstance> path_;
  std::int64_t next_ = 0;
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
  if (c.tx_depth < 1 || c.tx_depth > 8192) throw std::invalid_argument("tx depth must be 1..8192");
  if (c.post_list < 1) throw std::invalid_argument("--post-list: must be at least 1");
  if (c.post_list > c.tx_depth)
    throw std::invalid_argument("--post-list " + std::to_string(c.post_list) + " is larger than the SQ depth (--tx-depth " +
                                std::to_string(c.tx_depth) + "): the list would never fit in the send queue");
  if (c.cq_mod < 1) throw std::invalid_argument("--cq-mod: must be at least 1");
  if (c.cq_mod > c.tx_depth)
    throw std::invalid_argument("--cq-mod " + std::to_string(c.cq_mod) + " is larger than the SQ depth (--tx-depth " +
                                std::to_string(c.tx_depth) + "): no signaled WQE would ever fit in the send queue");
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
  const PathSpec path = tcp ? build_tcp_stream_path(c.base, t, net) : build_acked_path(c.base, t, net);
  if (c.base.fabric.routing != Routing::spray &&  // spraying has no closed form to estimate with
      static_cast<double>(evaluate_path(path, c.base.size, true).total().count_ps()) * static_cast<double>(c.base.iters) >
          1e18)
    throw std::invalid_argument("this run would simulate more than 11 days: use fewer iterations");
  if (c.post_list > 1 || c.cq_mod > 1) {
    run_batched(r, c, t, net);
  } else {
    BwTest test(c, path, exports);
    test.run();
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
    }
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
