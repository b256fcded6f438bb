// The command line's options (CLI11) for `lat`, `bw`, `budget`, `demo` and `coalescing`, onto
// the options of config/options.hpp, and the run's output files (--trace, --pcap, --csv).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/options.hpp"
#include "config/scenario_keys.hpp"
#include "io/csv_export.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/exports.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/traffic.hpp"

namespace rdmasim::cli {

using namespace rdmasim::config;  // the options and their conversions, by their short names

/// For an unsigned option such as --seed: CLI11 would read "-1" as 2^64 - 1; this refuses a sign.
CLI::Validator unsigned_number();
/// The flags of the scenario keys that apply to `cmd` (config/scenario_keys.hpp), each setting
/// its key in `o` exactly as a scenario file would (same checks, same messages).
/// `only`, when given, picks among them.
void add_key_options(CLI::App& app, ScenarioOptions& o, Command cmd,
                     const std::function<bool(const ScenarioKey&)>& only = {});
/// add_key_options plus the flags that are not keys (--set, --json, --quiet, ...) and, for lat
/// and bw, perftest's habits (add_tool_habits).
void add_lat_options(CLI::App& app, ScenarioOptions& o, Command cmd);
/// perftest's and nccl-tests' flags that are not keys (config/tool_habits.hpp), for `cmd`.
void add_tool_habits(CLI::App& app, Command cmd);
/// "rdmasim: note: ..." on stderr.
void note(const std::string& text);
/// The run's exports (--trace / --pcap), opened before it simulates; empty when none asked (the
/// command line writes files: run() takes a scenario's [outputs]).
/// Throws std::invalid_argument for a path it cannot write or with -a / --seeds.
std::unique_ptr<Exports> open_exports(const ScenarioOptions& o);
/// The --csv directory, checked before the run; null when not asked.
std::unique_ptr<CsvDir> open_csv(const ScenarioOptions& o);
/// Publishes them after a successful run (a note on stderr if --pcap-frames cut the capture).
void publish_exports(Exports* x);

}  // namespace rdmasim::cli
