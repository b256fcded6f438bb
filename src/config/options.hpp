// The options of an experiment as given (strings and integers, the command line's and the
// scenario files' shared vocabulary) and their one conversion into validated run
// configurations: LatConfig (lat, budget, demo), BwConfig (bw), TrafficConfig (bw --pattern),
// AllReduceConfig (allreduce). Values are kept as given so that every check happens in one
// place and produces one clear message (std::invalid_argument naming the option); the command
// line, scenario files, `compare`, `sweep` and the HTTP API all convert through here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rdmasim/allreduce.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/exports.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/traffic.hpp"

namespace rdmasim::config {

/// `rdmasim allreduce`; its iterations are LatOptions::iters.
struct CollectiveOptions {
  std::string algo = "ring";           // ring | halving-doubling
  int nodes = 0;                       // hosts taking part (0: all)
  int gpus = 1;                        // GPUs per host
  std::string gpudirect = "on";        // on | off (staged through host memory)
  std::string min_bytes = "32M", max_bytes = "32M";
  std::int64_t step_factor = 2;
  int warmup = 1;

  bool operator==(const CollectiveOptions&) const = default;
};

struct LatOptions {
  std::string test;          // empty: write for RDMA, send for TCP
  std::string transport = "rdma";
  std::int64_t size = 2;
  std::int64_t iters = 1000;
  bool iters_given = false;  // -n or workload.iters said so (bw -D refuses it)
  bool all = false;
  std::string link_layer = "roce";
  std::string topology = "back-to-back";
  FabricConfig fabric;
  std::string from = "h0", to = "h1";
  std::string routing = "ecmp";
  std::string host_profile;
  std::int64_t mtu = 4096;
  std::string profile = "default";
  std::vector<std::string> sets;
  std::vector<std::string> degrade, link_loss;  // fabric faults "A-B=40Gbps", "A-B=1e-4"
  std::vector<std::string> drop_frames;         // fabric faults "A-B=50,51" (frames lost by count)
  std::vector<std::string> drop_burst;          // fabric faults "A-B@T1[-T2]" (frames lost by arrival time)
  std::vector<std::string> link_down;           // fabric faults "A-B@100us-5ms" (link down, and up again)
  std::string cc = "none";                      // RDMA congestion control: none | dcqcn
  std::string tcp_cc = "reno";                  // packet-level TCP congestion control: reno | dctcp
  std::string kernel_bypass, zero_copy, interrupt_coalescing, busy_poll, inline_data;
  std::uint64_t seed = 1;
  bool json = false;
  bool stages = false;       // budget
  int tx_depth = 128;        // bw
  int qps = 1;               // bw -q: QPs per direction
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
  ExportOptions exports;     // lat, bw: --trace, --pcap
  CollectiveOptions collective;  // allreduce
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

  bool operator==(const LatOptions&) const = default;
};

enum class Command { lat, budget, demo, bw, allreduce };
/// A time given as perftest does (plain seconds: "5", "0.002") or with a unit ("2ms"); bad
/// text is std::invalid_argument naming `option` (nullptr: the caller names it).
Time parse_seconds_or_time(const std::string& text, const char* option);

/// The registered RDMA rate controls' and load balancers' names, and "a | b | c" for help texts.
std::vector<std::string> rate_control_names();
std::vector<std::string> load_balancer_names();
std::string choices_text(const std::vector<std::string>& names);
/// Throws std::invalid_argument naming the problem.
LatConfig to_config(const LatOptions& o);
/// bw's two-host test: the one mapping from options (-t, -q, -b, -D/-f, -o, -l, -Q, -r,
/// --recv-delay) to a BwConfig, for the command, `compare`, `sweep` and the HTTP API alike.
/// Throws std::invalid_argument for a contradiction (-D 0, -n with -D, -f without -D, ...).
BwConfig to_bw_config(const LatOptions& o);
/// bw --pattern: the same for the many-flow test; refuses the two-host test's options.
TrafficConfig to_traffic_config(const LatOptions& o);
/// --mem/--use-cuda/--gpudirect/--staging-chunk, --rx-usecs/--rx-frames/--adaptive-rx and the
/// connection options into `c` (called by to_config).
void apply_gpu_options(const LatOptions& o, LatConfig& c);
/// perftest -a: 2, 4, ..., 2^23.
std::vector<std::int64_t> all_sizes();

/// nccl-tests sizes: a number with an optional K, M or G suffix (powers of 1024).
std::int64_t parse_nccl_size(const std::string& v, const char* flag);
/// Throws std::invalid_argument naming the flag.
AllReduceConfig to_allreduce_config(const LatOptions& o);

}  // namespace rdmasim::config
