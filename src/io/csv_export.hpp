// CSV tables of a run, for spreadsheets, pandas and gnuplot (`--csv DIR`): one file per table,
// a header row naming each column with its unit, one row per record, RFC 4180 quoting.
//   messages.csv  lat: one row per iteration (start, RTT, reported latency, the ledger's
//                 categories, adding up to the RTT); bw: one row per message (posted,
//                 completed, latency)
//   flows.csv     bw --pattern: one row per flow (goodput, completed, drops, RC counters);
//                 flows: one row per open-loop flow (size, start, FCT, ideal FCT, slowdown)
//   slowdown.csv  flows: the FCT slowdown table (percentiles per flow-size bucket)
//   ports.csv     over a switched topology: the fabric's per-port counters (ethtool -S style)
//   timeseries.csv  the run over simulated time, one row per slice (workload/sample_probe.hpp):
//                 throughput and latency percentiles of the messages completed in it, and on a
//                 fabric PFC pauses, the deepest mean egress queue and the watched ports' queues
// The tables are rendered to strings here and published by CsvDir: each file written as
// FILE.tmp and renamed when complete, so a failed run leaves nothing behind.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "rdmasim/bandwidth.hpp"
#include "rdmasim/fabric_stats.hpp"
#include "rdmasim/flows.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/traffic.hpp"
#include "workload/sample_probe.hpp"

namespace rdmasim {

/// Requires r.config.record_samples.
std::string lat_messages_csv(const LatResult& r);
std::string bw_messages_csv(const BwResult& r);
std::string flows_csv(const TrafficResult& r);
std::string open_loop_flows_csv(const FlowsResult& r);
std::string slowdown_csv(const std::vector<SlowdownRow>& buckets);
std::string ports_csv(const FabricStats& f);
/// `ports`: the fabric's port names (SampleProbe::port_names; empty without a fabric), `watch`:
/// the watched ports, in the order the probe was given them.
std::string timeseries_csv(const std::vector<Sample>& samples, const std::vector<std::string>& ports,
                           const std::vector<std::string>& watch);
/// One CSV field: quoted when it holds a comma, quote or newline.
std::string csv_field(const std::string& s);

class CsvDir {
 public:
  /// Checks that `dir` exists (or can be created) and is writable, before the run;
  /// std::invalid_argument naming `--csv` and the directory otherwise.
  explicit CsvDir(std::string dir);
  void add(const std::string& name, std::string content) { files_[name] = std::move(content); }
  /// Creates the directory if it was missing, and writes every table atomically; OutputError
  /// naming the file on failure.
  void publish() const;
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  bool create_ = false;  // the directory is created by publish()
  std::map<std::string, std::string> files_;
};

}  // namespace rdmasim
