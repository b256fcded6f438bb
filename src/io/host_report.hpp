// Host-side reports: CPU accounting and interrupts per host, the GPU data path and connection
// setup lines for `lat`/`bw`, and `rdmasim coalescing`'s table (interrupts vs latency per
// moderation window).
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "config/sweeps.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/latency.hpp"

namespace rdmasim {

/// "CPU  host A busy 12.3 usec (4.1%), 1000 interrupts; host B ..." over `simulated` time.
void print_host_counters(std::FILE* out, const HostCounters (&h)[2], Time simulated);
nlohmann::ordered_json host_counters_json(const HostCounters (&h)[2], Time simulated);
/// One run's CPU accounting per message size (`-a`): each size's own simulated time, both
/// hosts' busy time and share, and interrupts.
struct SizeCounters {
  Bytes size;
  const HostCounters* hosts;  // [2]
  Time simulated;
};
void print_host_counters_per_size(std::FILE* out, const std::vector<SizeCounters>& rows);
/// Memory placement and GPU path, and connection handling, of a run (nothing for host/host
/// pre-connected runs).
void print_data_path(std::FILE* out, const LatConfig& c, const ResolvedToggles& t);
nlohmann::ordered_json data_path_json(const LatConfig& c, const ResolvedToggles& t);
/// Connection setup in or outside the timed loop.
void print_connections(std::FILE* out, const LatResult& r);

using config::CoalescingRow;
/// One row per moderation setting: interrupts per message, packets per interrupt,
/// interrupts/s, p50/p99 latency, mean and max moderation wait, receiver CPU busy share.
void print_coalescing(std::FILE* out, const std::vector<CoalescingRow>& rows);
nlohmann::ordered_json coalescing_json(const std::vector<CoalescingRow>& rows);

}  // namespace rdmasim
