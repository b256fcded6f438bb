// Open-loop workloads and flow completion times: flows that arrive over time — Poisson arrivals
// at every host at a target load (a fraction of its link rate), sizes drawn from a measured
// flow-size distribution, destinations uniform among the other hosts — or listed in a flow file
// (the ns-3 HPCC simulator's flow.txt). Each flow is one RDMA WRITE of its size on its own RC
// QP (its own UDP source port, so its own ECMP route), posted at its start time. Per flow:
// its completion time (FCT: post to the requester's completion), the ideal FCT of the same
// size on the same path unloaded — the closed-form budget of that path, which the simulator
// matches to the picosecond on an idle fabric — and the slowdown FCT / ideal (>= 1), summed up
// as slowdown percentiles per flow-size bucket: the currency of RDMA congestion-control and
// load-balancing evaluations (HPCC, DCQCN, ConWeave, htsim).
//
// Flow-size distributions are a registry (websearch, hadoop, ...; `rdmasim list`); a program or
// a file (`--cdf FILE`, the HPCC simulator's format: "bytes percent" per line, from 0 to 100)
// adds its own. Draws come from the run's seed: the same seed gives the same flows.
// Memory: a flow's QP is built when the flow arrives and freed once the flow is complete and
// nothing of it is in flight; what stays is its record (FlowRecord, 72 bytes). A run holds at
// most kMaxOpenLoopFlows flows.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rdmasim/exports.hpp"
#include "rdmasim/fabric_stats.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/rank_exchange.hpp"
#include "rdmasim/rc_stats.hpp"

namespace rdmasim {

/// A flow-size distribution: points (bytes, cumulative percent) with percents rising from 0 to
/// 100 and sizes rising; between points the CDF is linear (as the HPCC simulator's generator).
struct FlowSizeCdf {
  std::string name, description, source;
  std::vector<std::pair<double, double>> points;

  /// The mean size in bytes (the integral of the piecewise-linear CDF).
  double mean() const;
  /// The size at percentile `u` x 100 (u in [0, 1)), truncated to whole bytes, at least 1.
  std::int64_t size_at(double u) const;
  /// The CDF at `bytes` (0..1).
  double cdf(double bytes) const;
};

/// Every registered distribution, built-ins first.
std::vector<const FlowSizeCdf*> flow_size_cdfs();
/// Throws std::invalid_argument("unknown flow-size distribution \"x\" (valid: ...)").
const FlowSizeCdf& flow_size_cdf(std::string_view name);
/// Registers a distribution (checked as parse_flow_size_cdf does); throws for a taken name.
void register_flow_size_cdf(FlowSizeCdf cdf);
/// "bytes percent" lines ('#' comments and blank lines skipped); std::invalid_argument naming
/// `source` and the line for anything else, or for percents or sizes that do not rise.
FlowSizeCdf parse_flow_size_cdf(std::string_view text, const std::string& source);

struct FlowArrival {
  int src = 0, dst = 0;
  Bytes size{};
  Time start{};
  int tc = -1;  // traffic class (priority) of its packets, 0..7; -1: the data class (switch.data_tc)
  bool operator==(const FlowArrival&) const = default;
};

inline constexpr std::size_t kMaxOpenLoopFlows = 200'000;

/// Poisson arrivals: every host starts flows with exponential gaps of mean
/// mean_size x 8 / (load x host_rate), each to a uniformly drawn other host with a size drawn
/// from `cdf`, from time 0 until `duration` (or until `max_flows` flows, if > 0). Sorted by
/// start time (then source). Each host draws from its own stream of `seed`.
std::vector<FlowArrival> poisson_flows(const FlowSizeCdf& cdf, int hosts, Rate host_rate, double load, Time duration,
                                       std::int64_t max_flows, std::uint64_t seed);

/// Periodic incast bursts mixed into a background load: at `every`, 2 `every`, ... (before the
/// horizon) one receiver drawn at random gets a flow of `size` from each of `fanin` distinct
/// other hosts drawn at random, all starting at that instant, in class `tc`.
struct IncastBursts {
  Time every{};  // zero: none
  int fanin = 16;
  Bytes size = Bytes(65536);
  int tc = -1;
};
/// The bursts' flows up to `horizon` (exclusive), from the seed's own stream; std::invalid_argument
/// when the fan-in needs more hosts than there are.
std::vector<FlowArrival> incast_burst_flows(const IncastBursts& b, int hosts, Time horizon, std::uint64_t seed);
/// `a` and `b` in one start order (ties: `a`'s first, each keeping its order).
std::vector<FlowArrival> merge_flows(const std::vector<FlowArrival>& a, const std::vector<FlowArrival>& b);

/// A flow file in either format, told apart by its first line (docs/flow-file.md):
///  - rdmasim's own: "rdmasim-flows 1", then per flow "start src dst size [tc=N]" with units
///    ("1.5us 0 15 64KiB tc=3"), '#' comments, in any order (sorted by start);
///  - the ns-3 HPCC simulator's flow.txt: the flow count, then per flow
///    "src dst priority dport size start_seconds" (priority is the flow's traffic class; dport
///    is read and ignored).
/// std::invalid_argument naming `source` and the line for anything else.
std::vector<FlowArrival> parse_flow_file(std::string_view text, const std::string& source);
std::vector<FlowArrival> parse_hpcc_flow_file(std::string_view text, const std::string& source);
/// The same format, start times in seconds with 9 decimals (priority: the flow's class, or 3 as
/// its generator writes; dport 100).
std::string hpcc_flow_file(const std::vector<FlowArrival>& flows);
/// rdmasim's own format (start times in ps, sizes in bytes): parse_flow_file reads it back.
std::string rdmasim_flow_file(const std::vector<FlowArrival>& flows);

struct FlowsConfig {
  LatConfig base;                  // the fabric (topology, routing, cc, loss), profile, MTU, seed
  std::vector<FlowArrival> flows;  // in start order
  bool log_pfc = false;            // record every PFC frame received (FlowsResult::pfc)
  // The fabric cut into logical processes (a fat-tree pod, a leaf with its hosts) run on this
  // many worker threads: the result is the same for every threads >= 1. 0: one scheduler.
  int threads = 0;
};

struct FlowRecord {
  FlowArrival flow;
  std::uint16_t sport = 0;
  bool completed = false;
  Time fct{};      // post to completion (completed flows)
  Time ideal{};    // the closed-form FCT of its size on its path, unloaded
  double slowdown = 0;  // fct / ideal
  std::uint64_t retransmitted = 0;
};

/// Slowdown percentiles of the completed flows whose size is in [min_bytes, max_bytes).
struct SlowdownRow {
  std::string bucket;
  std::int64_t min_bytes = 0, max_bytes = 0;
  std::int64_t flows = 0;
  double p50 = 0, p95 = 0, p99 = 0, mean = 0;
};

struct FlowsResult {
  FlowsConfig config;
  std::vector<FlowRecord> flows;   // in start order
  std::vector<SlowdownRow> buckets;  // size buckets, then "short (< 100KB)", "long (>= 1MB)", "all"
  std::int64_t completed = 0;
  double offered_load = 0;         // flow bytes x 8 / (hosts x host rate x last start), as arrived
  Time simulated{};                // the last completion
  std::uint64_t events = 0;
  std::int64_t invariant_violations = 0;  // ledger totals that differ from a message's latency (must be 0)
  RcStats rc;                      // every QP's RC counters summed
  std::int64_t failed_qps = 0;
  std::int64_t peak_qps = 0;       // the most flows in progress at once (start to completion; an
                                   // incomplete flow to the end), each with its QP
  std::int64_t peak_qps_held = 0;  // the most QPs the simulation held at once: a done flow's is freed
                                   // once none of its packets is in flight (every 10 us, or between a
                                   // partitioned run's windows) and a partitioned run builds a QP up
                                   // to a window ahead, so it depends on the cut (not reported)
  FabricStats fabric;
  std::vector<PfcFrame> pfc;       // with FlowsConfig::log_pfc: every PFC frame a port received, in time order
};

/// Runs the flows on `base`'s switched fabric. std::invalid_argument for a bad flow (a host out
/// of range, a flow to itself, start times out of order), more than kMaxOpenLoopFlows, or a
/// configuration the fabric refuses. `exports` may carry a live probe (rdmasim::run's
/// observer); a trace or capture of an open-loop run is refused (not modelled yet).
/// `ranks` (optional, MPI: rdmasim/rank_exchange.hpp): the processes the fabric's cut runs over,
/// one thread each; every process gets the whole result, the same as `threads`'. Collective.
FlowsResult run_flows(const FlowsConfig& c, Exports* exports = nullptr, RankExchange* ranks = nullptr);

/// The buckets of `flows`' slowdowns (completed flows only).
std::vector<SlowdownRow> slowdown_buckets(const std::vector<FlowRecord>& flows);

}  // namespace rdmasim
