// The 16 -> 1 incast the congestion-control tests share: 1 MiB WRITEs at 100 Gb/s on one
// switch (h1..h16 -> h0), RoCE lossless with ECN at DCQCN's marking defaults, 4 MiB of switch
// buffer, four messages in flight per sender (or N -> 1 the same way); and the bottleneck port's counters.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "rdmasim/traffic.hpp"

namespace rdmasim::testing {

/// `senders` -> 1 (h1..hN -> h0) on one switch, `iters` 1 MiB WRITEs each under `cc`.
inline TrafficConfig incast_to_1(int senders, std::int64_t iters, const std::string& cc = "none") {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "single-switch";
  c.base.fabric.hosts = senders + 1;
  c.base.fabric.cc = cc;
  c.base.size = Bytes(1 << 20);
  c.base.iters = iters;
  c.base.profile.sw.buffer = Bytes(4 << 20);
  c.tx_depth = 4;
  c.pattern = "incast";
  c.incast_senders = senders;
  return c;
}

inline TrafficConfig incast_16_to_1(std::int64_t iters) { return incast_to_1(16, iters); }

/// The 16 -> 1 incast (30 each) under `cc` twice: as configured, and with its window off
/// (`window_on` of the control's parameters, e.g. &Profile::hpcc).
struct WindowRuns {
  TrafficResult on, off;
};
template <typename Params>
WindowRuns incast_with_and_without_window(const std::string& cc, Params Profile::*params) {
  TrafficConfig on = incast_to_1(16, 30, cc), off = on;
  (off.base.profile.*params).window_on = false;
  return {run_traffic(on), run_traffic(off)};
}

/// Every flow's goodput over the second half of the run within `tolerance` (a fraction) of an
/// equal share of the aggregate: the convergence the congestion-control tests assert.
inline ::testing::AssertionResult at_fair_share(const TrafficResult& r, double tolerance = 0.1) {
  const double share = r.aggregate_bps / static_cast<double>(r.flows.size());
  for (const FlowResult& f : r.flows)
    if (std::abs(f.steady_goodput_bps - share) > tolerance * share)
      return ::testing::AssertionFailure() << "a flow at " << f.steady_goodput_bps / 1e9 << " Gb/s, the share "
                                           << share / 1e9 << " Gb/s";
  return ::testing::AssertionSuccess();
}

/// The switch port into h0 (empty counters when there is none).
inline PortStats bottleneck(const TrafficResult& r) {
  for (const PortStats& p : r.fabric.ports)
    if (p.port == "sw0->h0") return p;
  return PortStats{};
}

}  // namespace rdmasim::testing
