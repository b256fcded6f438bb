// `rdmasim flows` output: the slowdown table per flow-size bucket (p50 / p95 / p99 / mean of
// FCT over the ideal FCT), its JSON, and every flow's FCT in the ns-3 HPCC simulator's fct.txt
// format so results can be compared line for line with it.
#pragma once

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "rdmasim/flows.hpp"

namespace rdmasim {

void print_flows(std::FILE* out, const FlowsResult& r);
/// {"flows", "completed", "offered_load", "buckets": [...], "rc", "fabric", "per_flow": [...]}.
nlohmann::ordered_json flows_json(const FlowsResult& r);
/// One line per completed flow: "sip dip sport dport size start_ns fct_ns ideal_ns" with the
/// simulator's addressing (node i is 0x0b000001 + (i / 256) << 16 + (i % 256) << 8, in hex;
/// a host's node id is its id in the HPCC topology.txt it was read from, else its number),
/// destination port 100 as its flow generator writes, times in whole nanoseconds.
std::string hpcc_fct_txt(const FlowsResult& r);
/// The slowdown table as JSON: per bucket its name, size range, flows, p50, p95, p99, mean.
nlohmann::ordered_json slowdown_json(const std::vector<SlowdownRow>& buckets);
/// Every PFC frame received (FlowsConfig::log_pfc) as the HPCC simulator's pfc.txt:
/// "time_ns node node_type if_index type", node_type 0 host / 1 switch, type 1 pause / 0 resume.
std::string hpcc_pfc_txt(const FlowsResult& r);

}  // namespace rdmasim
