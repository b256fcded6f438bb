// Connection setup in the timed loop. With a new RC connection every N
// exchanges, the mean exchange over the run is L_send + L_setup / N (within a picosecond per
// message); L_setup is 2 MAD round trips plus the CM processing, QP creation and transitions
// and the MR registrations (pinning per page), all under `setup`; a QP pool (pre-built
// connections) leaves the timed loop exactly as without setup.
#include <gtest/gtest.h>

#include "model/budget.hpp"
#include "model/connection.hpp"
#include "model/path.hpp"
#include "path/fabric_route.hpp"
#include "path/link.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/latency.hpp"

using namespace rdmasim;

namespace {
LatConfig base() {
  LatConfig c;
  c.size = Bytes(8192);
  c.profile.nic.tx_jitter = Time::zero();
  return c;
}
}  // namespace

TEST(Connection, SetupIsTwoMadRoundTripsPlusQpAndMrWork) {
  const LatConfig c = base();
  const ConnParams& p = c.profile.conn;
  const Time setup = evaluate_path(build_setup_path(c), c.size, true).total();
  // One MAD leg: a conn.mad_size SEND through the kernel, one way.
  LatConfig mad = c;
  mad.test = TestKind::send;
  mad.size = p.mad_size;
  mad.toggles.kernel_bypass = false;
  mad.toggles.busy_poll = false;
  mad.toggles.inline_data = false;
  const Time leg = evaluate_path(build_path(mad, resolve(mad), 0), mad.size, true).total();
  const Time reg = p.reg_fixed + p.pin_per_page * pinned_pages(p, c.size);
  EXPECT_EQ(pinned_pages(p, c.size), 2);
  EXPECT_EQ(setup, leg * 4 + p.cm_process * 4 + p.qp_create * 2 + p.qp_transition * 5 + reg * 2);
  // Every stage of the setup is charged to `setup`.
  const Ledger l = evaluate_path(build_setup_path(c), c.size, true);
  EXPECT_EQ(l[Category::setup], l.total());
}

TEST(Connection, MeanPerMessageIsSendPlusSetupOverN) {
  const LatConfig plain = [] {
    LatConfig c = base();
    c.iters = 41;
    return c;
  }();
  const LatResult ref = run_latency(plain);
  const double rtt = ref.stats.typical_ps * 2;
  for (std::int64_t n : {1, 2, 4, 10, 40}) {
    LatConfig c = plain;
    c.conn.reuse = n;
    const LatResult r = run_latency(c);
    SCOPED_TRACE(n);
    EXPECT_EQ(r.invariant_violations, 0);
    EXPECT_EQ(r.connections, 40 / n);
    // Each setup's four kernel MADs end in an interrupt on the receiving host: 2 on each side.
    EXPECT_EQ(r.hosts[0].interrupts, static_cast<std::uint64_t>(2 * r.connections));
    EXPECT_EQ(r.hosts[1].interrupts, static_cast<std::uint64_t>(2 * r.connections));
    const double expect = rtt + static_cast<double>(r.setup.count_ps()) / static_cast<double>(n);
    EXPECT_NEAR(r.mean_all_rtt_ps, expect, 1.0);
    // The setup time is in the ledger, under `setup`, once per connection (kept samples drop
    // the two largest: with setups those are two setup exchanges, unless every one has one).
    const std::int64_t kept_setups = n == 1 ? r.stats.kept : r.connections - 2;
    if (n <= 20) { EXPECT_EQ(r.kept_ledger_sum[Category::setup], r.setup * kept_setups); }
  }
}

TEST(Connection, QpPoolKeepsSetupOutOfTheTimedLoop) {
  LatConfig c = base();
  c.iters = 20;
  const LatResult ref = run_latency(c);
  c.conn.pool = true;
  const LatResult pooled = run_latency(c);
  EXPECT_EQ(pooled.stats.typical_ps, ref.stats.typical_ps);
  EXPECT_EQ(pooled.stats.avg_ps, ref.stats.avg_ps);
  EXPECT_EQ(pooled.kept_ledger_sum, ref.kept_ledger_sum);
  EXPECT_EQ(pooled.connections, 0);
  EXPECT_EQ(pooled.setup, evaluate_path(build_setup_path(c), c.size, true).total());
  EXPECT_GT(pooled.setup, Time::us(50));
}

TEST(Connection, RegistrationGrowsWithPages) {
  LatConfig a = base(), b = base();
  b.size = Bytes(a.size.count() + 64 * 4096);
  const Time ta = evaluate_path(build_setup_path(a), a.size, true).total();
  const Time tb = evaluate_path(build_setup_path(b), b.size, true).total();
  EXPECT_EQ(tb - ta, a.profile.conn.pin_per_page * 64 * 2);  // both sides register
}

// Over a switched topology the MADs cross the flow's route: each leg's cable is replaced by the
// route's unloaded hops at the MAD's size (FabricRoute::unloaded), and the timed loop pays it.
TEST(Connection, OverAFabricTheMadsCrossTheRoute) {
  LatConfig b2b = base();
  b2b.iters = 41;
  LatConfig f = b2b;
  f.topology = LatTopology::fabric;
  f.fabric.topology = "fat-tree";
  f.fabric.from = 0;
  f.fabric.to = 15;
  const FabricNetwork net(f);
  const Time ls_b = evaluate_path(build_setup_path(b2b), b2b.size, true).total();
  const Ledger ls_f = evaluate_path(build_setup_path(f, net.appender()), f.size, true);
  EXPECT_EQ(ls_f[Category::setup], ls_f.total());
  const Bytes size = f.profile.conn.mad_size;
  const Bytes wire = frame_wire_bytes(FrameKind::roce_send, FramePos::only, size, f.link_layer);
  PathSpec cable;
  Link(f.profile.link).append(cable, 0);
  Time cable_t{};
  for (const StageSpec& s : cable.stages) cable_t += s.cost.eval(size, size, wire);
  EXPECT_EQ(ls_f.total() - ls_b, (net.forward->unloaded(wire, 0) + net.reverse->unloaded(wire, 1)) * 2 - cable_t * 4);
  EXPECT_GT(ls_f.total(), ls_b);  // five hops instead of one cable
  // lat over the fat-tree: one connection every 10 exchanges, its setup inside the timed loop.
  const LatResult ref = run_latency(f);
  f.conn.reuse = 10;
  const LatResult r = run_latency(f);
  EXPECT_EQ(r.invariant_violations, 0);
  EXPECT_EQ(r.connections, 4);
  EXPECT_EQ(r.setup, ls_f.total());
  EXPECT_NEAR(r.mean_all_rtt_ps, ref.stats.typical_ps * 2 + static_cast<double>(r.setup.count_ps()) / 10, 1.0);
}
