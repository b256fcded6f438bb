// rdmasim cmtime (rdmasim/cmtime.hpp): one connection's steps are the sums of their operations
// to the picosecond; many connections are bound by the busiest serial resource of each step;
// the defaults meet rdma-core's published cmtime run (1,000 connections) within 1 %.
#include "rdmasim/cmtime.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "model/connection.hpp"

using namespace rdmasim;

namespace {
CmtimeResult run(int n, LatConfig base = {}) {
  CmtimeConfig c;
  c.base = base;
  c.connections = n;
  return run_cmtime(c);
}
const CmtimeStep& step(const CmtimeResult& r, const std::string& name) {
  for (const CmtimeStep& s : r.steps)
    if (s.name == name) return s;
  throw std::logic_error("no step " + name);
}
}  // namespace

TEST(Cmtime, OneConnectionsStepsAreTheirOperationsSummed) {
  const CmtimeResult r = run(1);
  const ConnParams p = Profile{}.conn;
  const Time mad = mad_one_way(LatConfig{});
  EXPECT_EQ(r.mad_one_way, mad);
  ASSERT_EQ(r.steps.size(), 10U);
  EXPECT_EQ(step(r, "create id").total, p.create_id);
  EXPECT_EQ(step(r, "bind addr").total, p.bind);
  EXPECT_EQ(step(r, "resolve addr").total, p.cm_call + p.resolve_addr);
  EXPECT_EQ(step(r, "resolve route").total, p.cm_call + p.resolve_route);
  EXPECT_EQ(step(r, "create qp").total, p.qp_create);
  EXPECT_EQ(step(r, "init qp").total, p.qp_transition);
  // REQ, the server's create + INIT + RTR, REP, the client's RTR + RTS, RTU sent.
  const Time connect = p.cm_call + p.cm_process * 5 + mad * 2 + p.qp_create + p.qp_transition * 4;
  EXPECT_EQ(step(r, "connect").total, connect);
  EXPECT_EQ(step(r, "disconnect").total, p.cm_call + p.qp_transition * 2 + p.cm_process * 4 + mad * 2);
  EXPECT_EQ(step(r, "destroy qp").total, p.qp_destroy);
  for (const CmtimeStep& s : r.steps) {
    EXPECT_EQ(s.sum, s.total) << s.name;
    EXPECT_EQ(s.max, s.total) << s.name;
    EXPECT_EQ(s.min, s.total) << s.name;
  }
  // Full connect: create id to connected; each step starts when the one before has drained.
  Time before{};
  for (const char* s : {"create id", "bind addr", "resolve addr", "resolve route", "create qp", "init qp"})
    before += step(r, s).total;
  EXPECT_EQ(r.full_connect.total, before + connect);
  EXPECT_EQ(r.full_connect.min, r.full_connect.total);
}

// Many connections queue on each host's serial resources: creating the QPs takes N firmware
// commands back to back; connecting is bound by the server's event thread (create, INIT, RTR,
// REP, RTS per connection), the first connection done after one connection's latency.
TEST(Cmtime, ManyConnectionsAreBoundByTheBusiestSerialResource) {
  const int n = 200;
  const CmtimeResult r = run(n);
  const ConnParams p = Profile{}.conn;
  EXPECT_EQ(step(r, "create qp").total, p.qp_create * n);
  EXPECT_EQ(step(r, "create qp").min, p.qp_create);
  EXPECT_EQ(step(r, "create qp").max, p.qp_create);  // each blocking call is its own time
  EXPECT_EQ(step(r, "create id").total, p.create_id * n);
  // Resolution: the application's calls (1 us) feed the CM thread (10 us each).
  EXPECT_EQ(step(r, "resolve addr").total, p.cm_call + p.resolve_addr * n);
  const CmtimeResult one = run(1);
  // The server's event thread per connection: create, INIT, RTR, the REP; then RTS on the RTU.
  const Time server = p.qp_create + p.qp_transition * 3 + p.cm_process;
  const CmtimeStep& c = step(r, "connect");
  EXPECT_EQ(c.min, step(one, "connect").total);
  EXPECT_GE(c.total, (server - p.qp_transition) * n);  // the last RTSs may follow the last client
  EXPECT_LT(c.total, server * n + step(one, "connect").total);
  EXPECT_EQ(r.full_connect.total.count_ps(), (step(r, "create id").total + step(r, "bind addr").total +
                                              step(r, "resolve addr").total + step(r, "resolve route").total +
                                              step(r, "create qp").total + step(r, "init qp").total + c.total)
                                                 .count_ps());
}

// rdma-core PR #1448, 1,000 connections: full connect 889,795 us in all, max 888,620, min
// 449,073 (what conn.qp_create and conn.qp_transition are fitted to).
TEST(Cmtime, ThousandConnectionsMeetThePublishedRun) {
  const CmtimeResult r = run(1000);
  EXPECT_NEAR(r.full_connect.total.to_us(), 889'795, 0.01 * 889'795);
  EXPECT_NEAR(r.full_connect.max.to_us(), 888'620, 0.01 * 888'620);
  EXPECT_NEAR(r.full_connect.min.to_us(), 449'073, 0.02 * 449'073);
}

// Over a fabric each MAD crosses the route's hops: a fat-tree path between pods is slower than a
// cable; bad input is refused.
TEST(Cmtime, TheNetworkAndBadInput) {
  LatConfig far;
  far.topology = LatTopology::fabric;
  far.fabric.topology = "fat-tree";
  far.fabric.k = 4;
  far.fabric.from = 0;
  far.fabric.to = 15;
  EXPECT_GT(run(1, far).mad_one_way, run(1).mad_one_way);
  EXPECT_THROW(run(0), std::invalid_argument);
  LatConfig tcp;
  tcp.transport = Transport::tcp;
  EXPECT_THROW(run(1, tcp), std::invalid_argument);
}
