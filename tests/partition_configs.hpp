// The fabric runs the partitioned-run tests share (tests/traffic_partition_test.cpp on threads,
// tests/traffic_ranks_test.cpp over ranks): a k-ary fat-tree's permutation or incast from
// every other host with DCQCN, a lossy incast, corrupting cables, the ring whose stride routing
// deadlocks under PFC; and the JSON report without the events counted (one scheduler counts
// its PFC deadlock checks and link changes as events, a partitioned run does not).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "io/command_report.hpp"
#include "rdmasim/traffic.hpp"

namespace rdmasim::test {

inline TrafficConfig pods(const std::string& pattern, int k) {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.k = k;
  c.base.fabric.cc = "dcqcn";
  c.base.size = Bytes(65536);
  c.base.iters = 20;
  c.tx_depth = 4;
  c.pattern = pattern;
  c.incast_senders = k * k * k / 4 - 1;
  return c;
}

/// A 15-to-1 incast over a small lossy buffer, which drops.
inline TrafficConfig lossy_incast() {
  TrafficConfig c = pods("incast", 4);
  c.base.profile.sw.lossless = false;
  c.base.profile.sw.buffer = Bytes(512 * 1024);
  c.base.profile.sw.ecn_kmin = Bytes(32 * 1024);
  c.base.profile.sw.ecn_kmax = Bytes(128 * 1024);
  return c;
}

/// A k=4 permutation over cables that corrupt one frame in 200, data and ACKs alike.
inline TrafficConfig corrupting() {
  TrafficConfig c = pods("permutation", 4);
  c.base.fabric.loss = 5e-3;
  return c;
}

/// Four switches in a ring, stride-2 flows: PFC deadlocks.
inline TrafficConfig ring_deadlock() {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "ring";
  c.base.fabric.switches = 4;
  c.base.size = Bytes(65536);
  c.base.iters = 200;
  c.tx_depth = 16;
  c.pattern = "stride";
  c.stride = 2;
  return c;
}

/// A pods() run did what the tests rely on: every flow completed its messages, no QP failed,
/// and an incast sent CNPs and PFC pause frames.
inline void expect_pods_ran(const TrafficResult& r, const std::string& pattern, std::int64_t iters) {
  EXPECT_EQ(r.invariant_violations, 0);
  EXPECT_EQ(r.failed_qps, 0);
  for (const FlowResult& f : r.flows) EXPECT_EQ(f.completed, iters) << f.src << "->" << f.dst;
  if (pattern == "incast") {
    EXPECT_GT(r.cnps, 0u);
    std::uint64_t pauses = 0;
    for (const PortStats& p : r.fabric.ports) pauses += p.pause_tx;
    EXPECT_GT(pauses, 0u);
  }
}

inline std::string without_events(const TrafficResult& r) {
  auto j = traffic_report_json(r, nullptr);
  j["summary"].erase("events");
  return j.dump();
}

}  // namespace rdmasim::test
