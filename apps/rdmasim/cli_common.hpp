// The command line's options (CLI11) for `lat`, `bw`, `budget`, `demo` and `coalescing`, onto
// the options of config/options.hpp, and the run's output files (--trace, --pcap, --csv).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/options.hpp"
#include "io/csv_export.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/exports.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/traffic.hpp"

namespace rdmasim::cli {

using namespace rdmasim::config;  // the options and their conversions, by their short names

/// For an unsigned option such as --seed: CLI11 would read "-1" as 2^64 - 1; this refuses a sign.
CLI::Validator unsigned_number();
/// Adds the options that make sense for `cmd` (the demo picks transport and toggles itself;
/// the budget has no iterations or seed).
void add_lat_options(CLI::App& app, LatOptions& o, Command cmd);
/// --topology and the topologies' shapes (--k, --hosts, --leaves, ..., --ring-routing), for every
/// command that builds a fabric; `switched_only` leaves out back-to-back and loopback.
void add_topology_options(CLI::App& app, LatOptions& o, bool switched_only);
/// The run's exports (--trace / --pcap), opened before it simulates; null when none asked.
/// Throws std::invalid_argument for a path it cannot write or with -a / --seeds.
std::unique_ptr<Exports> open_exports(const LatOptions& o);
/// The --csv directory, checked before the run; null when not asked.
std::unique_ptr<CsvDir> open_csv(const LatOptions& o);
/// Publishes them after a successful run (a note on stderr if --pcap-frames cut the capture).
void publish_exports(Exports* x);

}  // namespace rdmasim::cli
