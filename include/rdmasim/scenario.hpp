// The one model of an experiment: a Scenario is a command (lat, bw, budget, allreduce, flows) and the
// values of its keys — the same keys a scenario file (TOML, or the same tree as JSON), a
// `key=value` override and the command line's flags set (docs/scenario-format.md is generated
// from them). run() is the one way a scenario is run: `rdmasim compare`, `sweep`, the HTTP API
// and the dashboard's presets call it; so can a program that links the library.
//
// Errors: parse_scenario, load_scenario and apply_override throw std::invalid_argument naming
// the file, line and column and the key path, with the valid names for an unknown key or value;
// run() throws std::invalid_argument for a contradiction between keys, before anything runs.
// to_toml(s) parses back to a scenario with the same command, name, description and options.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rdmasim/rank_exchange.hpp"
#include "rdmasim/nccl_test.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/cmtime.hpp"
#include "rdmasim/exports.hpp"
#include "rdmasim/flows.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/observer.hpp"
#include "rdmasim/traffic.hpp"

namespace rdmasim {

enum class Command { lat, budget, demo, bw, allreduce, flows, cmtime };

/// `rdmasim all_reduce`, `all_gather`, ... (command "allreduce"); its iterations are
/// ScenarioOptions::iters.
struct CollectiveOptions {
  std::string op = "all_reduce";       // the nccl-tests operation (rdmasim/collective.hpp)
  std::string algo;                    // one of its algorithms ("": its first)
  int nodes = 0;                       // hosts taking part (0: all)
  int gpus = 1;                        // GPUs per host
  std::string gpudirect = "on";        // on | off (staged through host memory)
  int channels = 0;                    // NCCL's channels (0: the server's NICs, else 1)
  std::string pxn = "on";              // on | off (NCCL_PXN_DISABLE=1)
  int check = 1;                       // nccl-tests -c: 1 checks the results (#wrong), 0 does not
  std::string min_bytes = "32M", max_bytes = "32M";
  std::int64_t step_factor = 2;
  int warmup = 1;

  bool operator==(const CollectiveOptions&) const = default;
};

/// `rdmasim flows`: an open-loop workload (rdmasim/flows.hpp); its arrival window is
/// ScenarioOptions::duration.
struct OpenLoopOptions {
  std::string cdf = "websearch";  // a registered flow-size distribution, or a CDF file
  double load = 0.3;              // offered load per host, a fraction of its link rate
  std::int64_t count = 0;         // stop after this many flows (0: the duration decides)
  std::string flow_file;          // the flows from a flow file instead (rdmasim's or an HPCC flow.txt)
  std::string fct_out;            // write the HPCC simulator's fct.txt here
  std::string pfc_out;            // write the HPCC simulator's pfc.txt here
  int tc = -1;                    // traffic class of the drawn flows (-1: the data class)
  std::string incast_every;       // incast bursts mixed in, one per this period ("": none)
  std::int64_t incast_fanin = 16; // senders per burst
  std::string incast_size = "64KiB";  // bytes each sender sends in a burst
  int incast_tc = -1;             // the bursts' traffic class

  bool operator==(const OpenLoopOptions&) const = default;
};

/// The options of an experiment as given: the values of the scenario keys (docs/scenario-format.md
/// lists each with its flag, type and default). Enumerations and component names are text, checked
/// against their registries when the scenario is run; sizes and times are kept as written.
struct ScenarioOptions {
  std::string test;          // empty: write for RDMA, send for TCP
  std::string transport = "rdma";
  std::int64_t size = 2;
  std::int64_t iters = 1000;
  int connections = 100;     // cmtime: RC connections set up at once (rdmasim/cmtime.hpp)
  bool iters_given = false;  // -n or workload.iters said so (bw -D refuses it)
  bool all = false;
  std::string link_layer = "roce";
  std::string topology = "back-to-back";
  FabricConfig fabric;
  std::string from, to;  // "": the first and second host (h0, h1; in an HPCC topology.txt, whose names are node ids, too)
  std::string routing = "ecmp";
  std::string recovery;      // RC loss recovery: go-back-n | selective-repeat ("": the profile's rc.selective_repeat)
  std::string host_profile;
  std::int64_t mtu = 4096;
  std::string profile = "default";
  std::vector<std::string> sets;
  std::vector<std::string> degrade, link_loss;  // fabric faults "A-B=40Gbps", "A-B=1e-4"
  std::vector<std::string> drop_frames;         // fabric faults "A-B=50,51" (frames lost by count)
  std::vector<std::string> drop_burst;          // fabric faults "A-B@T1[-T2]" (frames lost by arrival time)
  std::vector<std::string> link_down;           // fabric faults "A-B@100us-5ms" (link down, and up again)
  std::string cc = "none";                      // RDMA congestion control: none | dcqcn
  std::string tcp_cc = "reno";                  // packet-level TCP congestion control (rdmasim/tcp_cc.hpp)
  std::string kernel_bypass, zero_copy, interrupt_coalescing, busy_poll, inline_data;
  std::uint64_t seed = 1;
  bool json = false;
  bool stages = false;       // budget
  int tx_depth = 128;        // bw
  int qps = 1;               // bw -q: QPs per direction
  int cores = 1;             // bw --cores: cores the QPs are spread over (QP q on core q mod cores)
  bool bidirectional = false;  // bw -b
  std::string duration, margin;  // bw -D / -f: simulated time ("" = not given)
  int outs = 16;             // bw -o: outstanding RDMA READs per QP
  int post_list = 1;         // bw: WQEs posted with one doorbell (perftest --post_list)
  int cq_mod = 1;            // bw: signal every Nth WQE (perftest --cq-mod)
  int rx_depth = 0;          // bw --test send: receives posted (perftest --rx-depth; 0 = always ready)
  std::string recv_delay;    // bw: the receiver's processing before it reposts a receive
  bool report_gbits = false; // bw
  std::string pattern;       // bw: permutation | incast | alltoall | stride
  int incast = 8;            // bw: incast senders
  int stride = 1;            // bw stride pattern: host i -> host (i + stride) mod hosts
  std::vector<double> loss_sweep;  // bw: goodput vs loss table at these loss rates
  int seeds = 1;             // bw --pattern: repeat with seeds seed .. seed+N-1, report the spread
  int threads = 0;           // bw --pattern, collectives: the fabric cut into LPs run on N worker threads (0: one scheduler)
  ExportOptions exports;     // lat, bw: --trace, --pcap
  CollectiveOptions collective;  // allreduce
  OpenLoopOptions open_loop;     // flows
  std::string csv;           // lat, bw: --csv DIR (tables as CSV files)
  std::string sample_interval;     // lat, bw: timeseries.csv slice length ("" = adaptive)
  std::vector<std::string> watch;  // lat, bw: fabric ports whose queue goes to timeseries.csv
  bool quiet = false;        // lat, bw: no progress line on stderr
  // GPU data path (host/gpu.hpp)
  std::string mem;           // "host" | "gpu" | "A,B" per side ("" = host)
  std::string use_cuda;      // perftest --use_cuda=N: GPU N's buffers on both sides ("" = not given)
  std::string gpudirect;     // on | off ("" = default)
  std::string staging_chunk; // bytes ("" = non-pipelined staging)
  // Interrupt coalescing (nic.rx_usecs / nic.rx_frames; setting either turns coalescing on)
  std::string rx_usecs;
  std::int64_t rx_frames = -1;  // -1: not given
  std::string adaptive_rx;   // on | off
  // Connections (model/connection.hpp)
  bool connect_per_msg = false;
  std::int64_t conn_reuse = 0;
  bool qp_pool = false;

  bool operator==(const ScenarioOptions&) const = default;
};

/// Scenario::path of a scenario made in code or from command-line flags (make_scenario): no file.
inline constexpr std::string_view kNoScenarioFile = "<string>";

struct Scenario {
  std::string path;         // the file or name it was parsed from; kNoScenarioFile for none
  std::string name, description;
  Command command = Command::lat;
  ScenarioOptions options;
  std::map<std::string, std::string> where;  // key path -> "file:line:col" (for later errors)
};

/// A scenario of `c` with its defaults (`rdmasim bw` measures 64 KiB x 5000, ...).
Scenario make_scenario(Command c);
/// Parses TOML (or JSON when `json`) text; `source` names it in errors.
Scenario parse_scenario(std::string_view text, const std::string& source, bool json = false);
/// Reads and parses a file (.json: JSON, anything else: TOML).
Scenario load_scenario(const std::string& path);
/// "key=value" for a scenario key ("network.mtu=1024") or a profile parameter
/// ("switch.buffer=2MiB" or "params.switch.buffer=2MiB").
void apply_override(Scenario& s, std::string_view assignment);
/// The scenario as a TOML document that parses back to it: command, name, description, every
/// key whose value differs from the command's default, and [params] (a parameter set twice:
/// its last value).
std::string to_toml(const Scenario& s);

/// One named figure of a run: "t_typical_us", "ledger.transmit_us", "bw_avg_Gbps", ... (the
/// rows of `rdmasim compare`).
struct Metric {
  std::string name;
  double value = 0;
};

struct RunResult {
  Command command = Command::lat;
  std::vector<Metric> metrics;  // in a fixed order per command
  /// The command's own result: LatResult (lat), BudgetResult (budget), BwResult (bw),
  /// TrafficResult (bw with a pattern), CollectiveResult (allreduce), FlowsResult (flows).
  std::variant<std::monostate, LatResult, BudgetResult, BwResult, TrafficResult, CollectiveResult, FlowsResult,
               CmtimeResult>
      detail;
  /// "" when the experiment succeeded; else what failed, as `rdmasim` says before it exits 3:
  /// a QP in error ("4 QPs in RETRY_EXC_ERR"), a PFC deadlock, drops in a lossless class, wrong
  /// AllReduce results. The metrics are still those of the run.
  std::string failure;
  /// The metric's value; std::out_of_range when the run has no such metric.
  double metric(std::string_view name) const;
};

/// Runs the scenario as its command would (one size: workload.all is refused) and returns its
/// metrics and result. `observer` (optional) watches it (rdmasim/observer.hpp); the budget
/// simulates nothing and is not observed. run() writes no files: a scenario with outputs
/// (trace, pcap, csv) is refused unless the caller passes `exports`, the recorders it opened
/// and will write (rdmasim/exports.hpp; `rdmasim` does), and keeps the per-message samples a
/// CSV needs in the result (config.record_samples). `ranks` (optional, MPI: rdmasim/rank_exchange.hpp):
/// when there are several, a fabric run of a traffic pattern (`bw` with `workload.pattern`) runs
/// its partitions over them and every rank returns the whole run's result; any other command is
/// refused (std::invalid_argument).
RunResult run(const Scenario& s, RunObserver* observer = nullptr, Exports* exports = nullptr, RankExchange* ranks = nullptr);

}  // namespace rdmasim
