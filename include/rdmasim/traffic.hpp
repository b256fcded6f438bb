// Many flows at once on a switched fabric: permutation, incast N->1, all-to-all and stride traffic of
// acknowledged RDMA WRITEs, each flow on its own QP (its own UDP source port, so its own
// ECMP route) keeping `tx_depth` messages in flight. Reports per-flow goodput (min / median /
// max), the aggregate against the ideal aggregate sum of B_i, and for every flow the ECMP
// prediction: its max-min fair share of the links the flows' hashes put them on.
//
// The fabric is packet-level (sim/fabric.hpp): switch buffers, PFC or InfiniBand credits,
// ECN marking, drops in a lossy class; routing per flow (ECMP), per packet (spray) or by
// queue length (adaptive). Each QP is an RC connection (sim/rc_connection.hpp): PSNs, NAKs
// and go-back-N, retransmission timeouts, and optionally DCQCN reacting to the ECN marks
// (`fabric.cc`). The receiver counts out-of-order arrivals (with out-of-order placement; without
// it a reordered packet is a sequence error and costs a go-back-N).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rdmasim/fabric_stats.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/rank_exchange.hpp"
#include "rdmasim/rc_stats.hpp"
#include "rdmasim/tcp_stats.hpp"

namespace rdmasim {

struct TrafficConfig {
  LatConfig base;              // fabric, size, iters (= messages per flow), MTU, profile, seed
  std::string pattern = "permutation";  // a registered pattern (rdmasim/traffic_pattern.hpp)
  int incast_senders = 8;      // incast: hosts 1..N send to host 0
  int stride = 1;              // stride: host i sends to host (i + stride) mod hosts
  int tx_depth = 16;
  std::vector<std::pair<int, int>> flows;  // explicit flows (src, dst); overrides `pattern`
  // > 0: the fabric cut into logical processes (a fat-tree pod, a leaf with its hosts; the
  // cut is the topology's alone) run on this many worker threads. The result is the same for
  // every thread count; it may differ from the unpartitioned run (0) where events coincide.
  int threads = 0;
};

struct FlowResult {
  int src = 0, dst = 0;
  std::uint16_t sport = 0;
  double goodput_bps = 0;        // completed payload bits / (last completion - first post)
  std::int64_t completed = 0;    // messages completed (acknowledged)
  std::uint64_t dropped = 0;     // its packets (data or ACK) the fabric dropped
  std::uint64_t ce_marked = 0;   // its data packets that arrived ECN-marked
  std::int64_t flushed = 0;      // messages posted that never completed
  RcStats rc;                    // the QP's RC transport: state, recovery, DCQCN
  std::optional<TcpStats> tcp;   // --transport tcp: the socket's packet-level TCP instead
  double steady_goodput_bps = 0; // over the second half of the makespan (after convergence)
  double predicted_bps = 0;      // max-min fair share over the ECMP routes' links (host links too)
  int bottleneck_sharing = 0;    // flows on this flow's most shared link direction
  std::string route;
};

struct TrafficResult {
  TrafficConfig config;
  std::vector<FlowResult> flows;
  double min_bps = 0, median_bps = 0, max_bps = 0;
  double aggregate_bps = 0;      // total payload bits / makespan
  double ideal_aggregate_bps = 0;  // sum of B_i: each flow's fair share of its host links alone
  std::uint64_t events = 0;
  std::int64_t invariant_violations = 0;
  std::uint64_t out_of_order = 0;  // packets that reached the receiver after a later one of their message
  std::uint64_t retransmitted = 0, timeouts = 0, naks = 0, cnps = 0;  // summed over the flows
  std::uint64_t fast_retransmits = 0, ece = 0, cwr = 0;               // TCP flows, summed
  int failed_qps = 0;              // flows whose QP went to error
  double jain_steady = 0;          // Jain's fairness index of the flows' steady-state goodputs
  FabricStats fabric;
  double seconds = 0;              // makespan: first post to last completion
};

/// `exports` (optional, rdmasim/exports.hpp): trace and capture the run (the client is fabric.from).
/// `ranks` (optional, rdmasim/rank_exchange.hpp; MPI): when there are several, this process runs
/// its share of the partitioned fabric (one thread: `threads` 0 or 1), and every rank returns
/// the whole run's result, the same as on threads.
TrafficResult run_traffic(const TrafficConfig& c, Exports* exports = nullptr, RankExchange* ranks = nullptr);
/// What failed in a many-flow run ("" when nothing did): QPs in error ("4 QPs in
/// RETRY_EXC_ERR"), a PFC deadlock, drops in a lossless class.
std::string traffic_failure(const TrafficResult& r);
/// How many flows share the pattern's most loaded link (TrafficPatternSpec::sharing; 1 when the
/// pattern does not say, or for explicit flows).
int bottleneck_sharing(const TrafficConfig& c);
/// How many flows the pattern has on `hosts` hosts, computed without listing them (run_traffic
/// refuses more than 20 000 before it builds anything; an all-to-all on 16 000 hosts is 256 M).
std::uint64_t pattern_flow_count(const TrafficConfig& c, int hosts);

}  // namespace rdmasim
