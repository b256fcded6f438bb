// Many flows at once on a switched fabric: permutation, incast N->1 and all-to-all traffic of
// acknowledged RDMA WRITEs, each flow on its own QP (its own UDP source port, so its own
// ECMP route) keeping `tx_depth` messages in flight. Reports per-flow goodput (min / median /
// max), the aggregate against the ideal aggregate sum of B_i, and for every flow the ECMP
// prediction: its bottleneck link's rate shared by the flows hashed onto that link.
//
// Routing is per-flow ECMP, or per-packet spraying over every equal-cost path
// (`fabric.spray`; the receiver counts out-of-order arrivals, whose cost for RC is not modelled
// yet). Model limits (today): switch egress ports are unbounded FIFO queues (no buffer limit,
// PFC, ECN or drops).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rdmasim/latency.hpp"

namespace rdmasim {

enum class Pattern { permutation, incast, alltoall };
std::string_view to_string(Pattern p);

struct TrafficConfig {
  LatConfig base;              // fabric, size, iters (= messages per flow), MTU, profile, seed
  Pattern pattern = Pattern::permutation;
  int incast_senders = 8;      // incast: hosts 1..N send to host 0
  int tx_depth = 16;
  std::vector<std::pair<int, int>> flows;  // explicit flows (src, dst); overrides `pattern`
};

struct FlowResult {
  int src = 0, dst = 0;
  std::uint16_t sport = 0;
  double goodput_bps = 0;        // payload bits / (last completion - first post)
  double predicted_bps = 0;      // bottleneck rate / flows sharing that link direction
  int bottleneck_sharing = 0;    // flows on this flow's most shared link direction
  std::string route;
};

struct TrafficResult {
  TrafficConfig config;
  std::vector<FlowResult> flows;
  double min_bps = 0, median_bps = 0, max_bps = 0;
  double aggregate_bps = 0;      // total payload bits / makespan
  double ideal_aggregate_bps = 0;  // sum over flows of their host link goodput (no sharing)
  std::uint64_t events = 0;
  std::int64_t invariant_violations = 0;
  std::uint64_t out_of_order = 0;  // packets that reached the receiver after a later one of their message
};

TrafficResult run_traffic(const TrafficConfig& c);

}  // namespace rdmasim
