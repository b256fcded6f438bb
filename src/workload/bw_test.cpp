// run_bandwidth: a window of `tx_depth` acknowledged WRITE/SEND messages on one QP.
#include <algorithm>
#include <stdexcept>

#include "model/budget.hpp"
#include "model/path.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/bandwidth.hpp"
#include "sim/rc_connection.hpp"
#include "workload/export_session.hpp"
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

}  // namespace

BwResult run_bandwidth(const BwConfig& c, Exports* exports) {
  validate(c.base);
  if (c.base.transport != Transport::rdma || c.base.test == TestKind::read)
    throw std::invalid_argument("bw runs RDMA write and send");
  if (c.tx_depth < 1 || c.tx_depth > 8192) throw std::invalid_argument("tx depth must be 1..8192");
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
  const PathSpec path = build_acked_path(c.base, t, net);
  if (c.base.fabric.routing != Routing::spray &&  // spraying has no closed form to estimate with
      static_cast<double>(evaluate_path(path, c.base.size, true).total().count_ps()) * static_cast<double>(c.base.iters) >
          1e18)
    throw std::invalid_argument("this run would simulate more than 11 days: use fewer iterations");
  BwTest test(c, path, exports);
  test.run();
  r.events = test.events();
  r.invariant_violations = test.violations_;
  const auto n = static_cast<std::int64_t>(test.completed_.size());
  if (const RcConnection* rc = test.path().rc()) r.rc = rc->stats();
  r.completed = n;
  r.hosts[0] = test.world().a.counters();
  r.hosts[1] = test.world().b.counters();
  r.simulated = test.world().sched.now();
  if (n == 0) {  // the QP failed before anything completed
    if (test.world().fabric) r.fabric = test.world().fabric->stats(test.world().sched.now());
    return r;
  }
  const double span_ps = static_cast<double>(test.completed_.back() - test.posted_.front());
  r.seconds = span_ps / 1e12;
  const double bits = static_cast<double>(c.base.size.count()) * 8.0;
  r.bw_avg_bps = bits * static_cast<double>(n) / r.seconds;
  r.msg_rate_mpps = static_cast<double>(n) / r.seconds / 1e6;
  // Peak: completions are in post order (one QP, FIFO), so message i..j take
  // completed[j] - posted[i]; the best average over windows of tx_depth messages.
  double best = span_ps / static_cast<double>(n);
  const std::int64_t window = std::min<std::int64_t>(n, c.tx_depth);
  for (std::int64_t i = 0; i + window <= n; ++i) {
    const std::int64_t j = i + window - 1;
    best = std::min(best, static_cast<double>(test.completed_[static_cast<std::size_t>(j)] -
                                              test.posted_[static_cast<std::size_t>(i)]) /
                              static_cast<double>(window));
  }
  r.bw_peak_bps = bits / (best / 1e12);
  if (c.base.record_samples) {
    r.posted_ps = test.posted_;
    r.completed_ps = test.completed_;
  }
  const FrameKind fk = c.base.test == TestKind::send ? FrameKind::roce_send : FrameKind::roce_write;
  r.wire_bytes_per_message = message_wire_bytes(fk, c.base.size, c.base.mtu, c.base.link_layer);
  r.packets_per_message = packet_count(c.base.size, c.base.mtu);
  if (test.world().fabric) r.fabric = test.world().fabric->stats(Time::ps(static_cast<std::int64_t>(span_ps)));
  r.ideal_bps = static_cast<double>(bottleneck.bits_per_sec()) * static_cast<double>(c.base.size.count()) /
                static_cast<double>(r.wire_bytes_per_message.count());
  return r;
}

}  // namespace rdmasim
