// Reports of a many-flow traffic run (`rdmasim bw --pattern ...`): the per-flow table, the
// goodput summary, the fabric's totals (conservation, drops, PFC, ECN) and the per-port
// counters (`ethtool -S` style), as text or as JSON.
#pragma once

#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "rdmasim/tcp_stats.hpp"
#include "rdmasim/traffic.hpp"

namespace rdmasim {

void print_traffic(std::FILE* out, const TrafficResult& r);
nlohmann::ordered_json traffic_json(const TrafficResult& r);
nlohmann::ordered_json fabric_stats_json(const FabricStats& s);
nlohmann::ordered_json rc_stats_json(const RcStats& s);
/// One QP's RC transport: packets sent and resent, NAKs, timeouts, CNPs, its error state.
void print_rc_stats(std::FILE* out, const RcStats& s);
nlohmann::ordered_json tcp_stats_json(const TcpStats& s);
void print_tcp_stats(std::FILE* out, const TcpStats& s);
/// The fabric totals and the counters of the ports that dropped, paused or marked, plus the
/// `busiest` ports by bytes sent.
void print_fabric_stats(std::FILE* out, const FabricStats& s, std::size_t busiest = 8);

/// Aggregate goodput as a share of sum(B_i) over runs of one pattern with different seeds.
struct SeedSpread {
  double mean = 0, stdev = 0, min = 0, max = 0;  // fractions of the ideal aggregate
};
SeedSpread seed_spread(const std::vector<TrafficResult>& runs);
void print_seed_spread(std::FILE* out, const std::vector<TrafficResult>& runs, const SeedSpread& s);
nlohmann::ordered_json seed_spread_json(const std::vector<TrafficResult>& runs, const SeedSpread& s);

}  // namespace rdmasim
