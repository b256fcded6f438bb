// The hop-by-hop ledger (`--hop-ledger`: sim/tracer.hpp's per-hop sums, io/hop_report.hpp):
// along an unloaded fat-tree route every switch, port and host stage shows the time the model
// gives it, the rows add up to the traced messages' end-to-end times to the picosecond, and no
// trace file is needed for it.
#include "io/hop_report.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>

#include "path/link.hpp"
#include "rdmasim/exports.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/profile.hpp"

using namespace rdmasim;

namespace {

std::vector<std::string> route_nodes(const std::string& route) {  // "h0 -> edge0.0 -> ..." -> names
  std::vector<std::string> v;
  std::istringstream in(route);
  for (std::string w; in >> w;)
    if (w != "->") v.push_back(w);
  return v;
}

}  // namespace

TEST(HopLedger, EveryHopOfAnUnloadedRouteShowsItsOwnTime) {
  LatConfig c;
  c.topology = LatTopology::fabric;
  c.fabric.to = 15;  // cross-pod in a k=4 fat-tree
  c.iters = 20;
  ExportOptions o;
  o.hop_ledger = true;  // no trace file
  Exports x(o);
  const LatResult r = run_latency(c, &x);
  const ExportStats& s = x.stats;
  ASSERT_GT(s.messages_traced, 0);
  ASSERT_EQ(s.messages_traced % 2, 0);  // whole exchanges: there and back
  const std::int64_t exchanges = s.messages_traced / 2;
  std::map<std::string, Ledger> row;
  Ledger sum;
  for (const HopLedgerRow& h : s.hops) {
    EXPECT_EQ(row.count(h.hop), 0u) << h.hop;  // one row per hop
    row[h.hop] = h.total;
    sum.add(h.total);
  }
  // The rows add up to the messages' end-to-end times (no jitter: each one takes t_avg).
  EXPECT_EQ(static_cast<double>(sum.total().count_ps()), static_cast<double>(s.messages_traced) * r.stats.avg_ps);
  // Each switch on the way there or back shows its pipeline once per crossing; each port its
  // frame's serialization (cut-through: the 64 B that go before forwarding) and the cable.
  const Profile p = make_profile("default");
  ASSERT_EQ(r.routes.size(), 2u);
  std::map<std::string, int> crossings;
  for (const std::string& route : r.routes) {
    const std::vector<std::string> nodes = route_nodes(route);
    for (std::size_t i = 0; i + 1 < nodes.size(); ++i) {
      ++crossings[nodes[i] + "->" + nodes[i + 1]];
      if (i > 0) ++crossings[nodes[i]];
    }
  }
  for (const auto& [hop, n] : crossings) {
    ASSERT_EQ(row.count(hop), 1u) << hop;
    const Ledger& l = row[hop];
    EXPECT_EQ(l[Category::queue], Time::zero()) << hop;
    if (hop.find("->") == std::string::npos) {
      EXPECT_EQ(l[Category::switch_], p.sw.pipeline * (n * exchanges)) << hop;
      EXPECT_EQ(l.total(), l[Category::switch_]) << hop;
    } else {
      EXPECT_GT(l[Category::transmit], Time::zero()) << hop;
      EXPECT_GT(l[Category::propagate], Time::zero()) << hop;
      EXPECT_EQ(l.total(), l[Category::transmit] + l[Category::propagate]) << hop;
    }
  }
  EXPECT_EQ(crossings.count("edge0.0"), 1u);
  EXPECT_EQ(crossings["edge0.0"], 2);  // there and back through h0's edge switch
  // Per exchange in the report: the sum of the rows is the round trip, 2 x t_avg.
  const auto j = hop_ledger_json(s, HopUnit{"exchange", 2});
  EXPECT_NEAR(j["total_us"].get<double>(), 2 * r.stats.avg_us(), 1e-9);
  EXPECT_EQ(j["hops"].size(), s.hops.size());
}

TEST(HopLedger, NothingTracedNothingPrinted) {
  ExportStats s;
  char buf[64] = {};
  std::FILE* f = fmemopen(buf, sizeof buf, "w");
  print_hop_ledger(f, s, {});
  std::fclose(f);
  EXPECT_STREQ(buf, "");
  EXPECT_EQ(hop_ledger_json(s, {})["hops"].size(), 0u);
}
