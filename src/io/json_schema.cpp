#include "io/json_schema.hpp"

#include <sstream>

#include <nlohmann/json.hpp>

#include "io/json_report.hpp"

namespace rdmasim {

namespace {
constexpr std::string_view kVersion = "the document format's version (first key)";
constexpr std::string_view kConfig =
    "the resolved configuration: test, transport, link_layer, mtu, profile, seed, toggles, parameters, memory, "
    "connections (and the fabric's where there is one)";
constexpr std::string_view kHopLedger = "the traced messages' mean ledger hop by hop (messages, per, hops, total_us)";
constexpr std::string_view kFabric =
    "the fabric's counters: injected, delivered, dropped, in_flight, conserved, pause_frames, ecn_marks, and per port "
    "`ports` as `ethtool -S` names them";
constexpr std::string_view kRc =
    "the RC transports' counters, summed over QPs: status, sent, retransmitted, naks, timeouts, acks_lost, cnps, "
    "rnr_naks_sent, rnr_naks, final_rate_Gbps";
}  // namespace

const std::vector<JsonDocumentDoc>& json_documents() {
  static const std::vector<JsonDocumentDoc> docs = {
      {"lat --json",
       {"lat -n 10 --json", "lat --topology fat-tree --to h15 -n 10 --hop-ledger --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"config", kConfig, ""},
        {"report", "\"RTT/2\" (WRITE, SEND) or \"RTT\" (READ), as perftest reports", ""},
        {"results",
         "one row per size: perftest's columns (t_min, t_max, t_typical, t_avg, t_stdev, percentiles; usec) with "
         "their _ps values, the ledger's mean per category, the hosts' CPU accounting, connection setups",
         ""},
        {"hop_ledger", kHopLedger, "with --hop-ledger"}}},
      {"budget --json",
       {"budget --json", "budget --topology single-switch -s 65536 --loss 1e-3 --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"config", kConfig, ""},
        {"report", "\"RTT/2\" or \"RTT\", as lat reports", ""},
        {"total_ps", "the reported latency (RTT/2 or RTT), picoseconds", ""},
        {"rtt_ps", "the round trip, picoseconds", ""},
        {"ledger_ps", "the reported latency per ledger category, picoseconds", ""},
        {"formulas",
         "the textbook formulas' figures: message_wire_bytes, transmit_ps (S/B), propagate_ps (D/v), kernel_tx_ps, "
         "kernel_rx_ps, copy_ps, switch_ps, copies, zero_copy_saving_ps",
         ""},
        {"go_back_n",
         "the closed form of goodput under loss: per-frame losses, the cost of one loss, the goodput it leaves",
         "with --loss"}}},
      {"budget -a --json",
       {"budget -a --json"},
       "",
       {{"schema_version", kVersion, ""}, {"rows", "one `budget --json` object (without schema_version) per size", ""}}},
      {"bw --json",
       {"bw -n 10 --json", "bw --topology single-switch --test read -n 10 --hop-ledger --json",
        "bw -s 2 -n 100 --post-list 4 --cq-mod 4 --json", "bw -D 200us --json",
        "bw --topology single-switch -n 10 --json", "bw --transport tcp --topology single-switch -n 10 --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"config", kConfig, ""},
        {"tx_depth", "messages in flight per QP (-t)", ""},
        {"qps", "QPs (-q)", ""},
        {"cores", "cores of each host the QPs run on (--cores)", ""},
        {"bidirectional", "whether the server sends too (-b)", ""},
        {"duration_s", "the simulated time run (-D)", "with -D"},
        {"margin_s", "completions this close to either end not counted (-f)", "with -D"},
        {"outstanding_reads", "READs in flight per QP (-o)", "with --test read"},
        {"post_list", "WQEs per doorbell (-l)", "with --post-list or --cq-mod"},
        {"cq_mod", "one WQE in N signaled (-Q)", "with --post-list or --cq-mod"},
        {"results",
         "one row per size: perftest's columns (BW_peak, BW_average in MB/s, MsgRate) with bits per second, the "
         "goodput against the ideal, the ledger, connections, batching and the receiver where they apply",
         ""},
        {"fabric", kFabric, "over a switched topology"},
        {"rc", kRc, "RDMA over a switched topology"},
        {"tcp", "the TCP connections' counters: segments, retransmissions, fast retransmits, timeouts, dup ACKs, ECE, CWR",
         "TCP over a switched topology"},
        {"hosts", "each host's CPU accounting: busy time, interrupts, moderated packets, GPU copy time", ""},
        {"hop_ledger", kHopLedger, "with --hop-ledger"}}},
      {"bw --pattern P --json",
       {"bw --topology single-switch --hosts 4 --pattern incast --incast 2 -n 10 --json",
        "bw --topology single-switch --hosts 4 --pattern incast --incast 2 -n 10 --hop-ledger --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"pattern", "the traffic pattern's name", ""},
        {"config", kConfig, ""},
        {"flows", "per flow: source, destination, route, goodput, completions, drops, its max-min share, RC counters", ""},
        {"summary", "aggregate goodput against the ideal sum of the flows' link rates, min/median/max, Jain's index", ""},
        {"fabric", kFabric, ""},
        {"hop_ledger", kHopLedger, "with --hop-ledger"}}},
      {"bw --pattern P --seeds N --json",
       {"bw --topology fat-tree --pattern permutation --seeds 2 -n 5 --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"pattern", "the traffic pattern's name", ""},
        {"config", kConfig, ""},
        {"runs", "per seed: the seed, aggregate goodput, its share of the ideal, failure if any", ""},
        {"share_of_ideal", "the spread over seeds: mean, stdev, min, max", ""}}},
      {"bw --loss-sweep L --json",
       {"bw --topology single-switch -n 10 --loss-sweep 0,1e-3 --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"rows",
         "per loss rate: the simulated RDMA goodput, its closed form (expected and given the run's timeouts), resends "
         "and timeouts, simulated TCP and Mathis' formula",
         ""}}},
      {"coalescing --json",
       {"coalescing --frames 1,2 -s 9000 -n 10 --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"rows",
         "per rx-frames setting: interrupts per message, packets per interrupt, latency percentiles, moderation "
         "waits, the receiver's CPU",
         ""}}},
      {"cmtime --json",
       {"cmtime -c 4 --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"connections", "RC connections set up (-c)", ""},
        {"mad_one_way_ps", "one CM MAD's one-way time over the path", ""},
        {"full_connect", "the whole setup: step, max_ps, min_ps, total_ps", ""},
        {"steps", "per step (create id ... destroy id): step, sum_ps, max_ps, min_ps, total_ps", ""},
        {"events", "scheduler events simulated", ""}}},
      {"all_reduce --json (and the other collectives)",
       {"all_reduce -b 64K -e 64K -n 1 --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"config", "the resolved configuration; config.collective names the operation", ""},
        {"results",
         "per size: size, count, type, redop, root, time_us, algbw_GBps, busbw_GBps, wrong, steps, "
         "bytes_sent_per_rank, staging_us_per_rank, events, critical_path_us (nvlink, nvlink_wait, peer_copy, network, "
         "network_by_category)",
         ""},
        {"avg_busbw_GBps", "nccl-tests' average bus bandwidth", ""},
        {"out_of_bounds", "nccl-tests' out-of-bounds count", ""},
        {"link_goodput_GBps", "one link's RDMA WRITE goodput, the bound busbw approaches", ""}}},
      {"flows --json",
       {"flows --flows 20 --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"flows", "flows that arrived", ""},
        {"completed", "flows that completed", ""},
        {"offered_load", "the load offered, a fraction of the hosts' link rate", ""},
        {"simulated_us", "simulated time", ""},
        {"events", "scheduler events simulated", ""},
        {"peak_qps", "the most flows in progress at once (start to completion), a QP each", ""},
        {"slowdown", "per flow-size bucket: flows, p50, p95, p99, mean FCT slowdown", ""},
        {"rc", kRc, ""},
        {"fabric", kFabric, ""},
        {"per_flow", "per flow: src, dst, size, start_ps, completed, fct_ps, ideal_fct_ps, slowdown, retransmitted", ""}}},
      {"topo --json",
       {"topo --json", "topo --from h0 --to h15 --hops --json",
        "topo --topology rail-optimized --server pcie-8gpu --servers 2 --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"topology", "the topology's name", ""},
        {"hosts", "hosts (NICs on server fabrics)", ""},
        {"switches", "switches", ""},
        {"links", "cables", ""},
        {"bisection_bps", "bisection bandwidth", ""},
        {"servers", "GPU servers", "on server fabrics (rail-optimized, multi-plane)"},
        {"units", "scalable units", "on server fabrics"},
        {"planes", "planes", "on server fabrics"},
        {"rails",
         "per rail: leaves and the equal-cost paths and links to the same rail in the unit, in another unit and to the "
         "next rail",
         "on server fabrics"},
        {"gpu_placement", "each GPU's PCIe path to its NIC (switch, root, cross-socket)", "with --server"},
        {"from", "the source host", "with --from/--to"},
        {"to", "the destination host", "with --from/--to"},
        {"paths", "the equal-cost paths: one-way time per ledger term and the route", "with --from/--to"},
        {"hop_histogram", "path lengths over all ordered host pairs", "with --hops"}}},
      {"list --json",
       {"list --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"profiles", "the parameter profiles with their descriptions", ""},
        {"parameters", "every parameter: key, default per profile, unit, range, source", ""},
        {"components", "the registered components (congestion controls, load balancers, patterns, ...) and their parameters", ""}}},
      {"run S.toml -o FILE",
       {"run scenarios/latency-decomposition.toml --set workload.iters=10 -o out.json"},
       "out.json",
       {{"schema_version", kVersion, ""},
        {"scenario", "the scenario as run: its name, command and keys", ""},
        {"results", "the command's own document, without its schema_version", ""}}},
      {"compare --json",
       {"compare scenarios/tcp-baseline.toml scenarios/latency-decomposition.toml --set workload.iters=10 --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"schemes", "per scheme: name, each metric's value, failure if it failed", ""}}},
      {"sweep --json",
       {"sweep scenarios/mtu-goodput.toml --param network.mtu=1024,4096 --set workload.iters=10 --json"},
       "",
       {{"schema_version", kVersion, ""},
        {"params", "the swept keys", ""},
        {"rows", "per point: the keys' values and the run's metrics", ""}}},
      {"sweep --shard I/N -o FILE",
       {"sweep scenarios/mtu-goodput.toml --param network.mtu=1024,4096 --set workload.iters=10 --shard 1/2 -o part.json"},
       "part.json",
       {{"schema_version", kVersion, ""},
        {"sweep_part",
         "shard (1-based), shards, points (combinations in the whole sweep), fingerprint (the scenario's and the "
         "swept values' hash: parts of one sweep share it), params (the swept keys)",
         ""},
        {"rows",
         "per combination of the shard: index (its number in the product's order), values, metrics (each as the "
         "exact double's %.17g text), failure",
         ""}}},
  };
  return docs;
}

std::string json_format_markdown() {
  std::ostringstream o;
  o << "# rdmasim JSON documents\n\n"
    << "<!-- Generated by `rdmasim list --json-format` from the table in src/io/json_schema.cpp. Do not edit: `make\n"
    << "     docs` regenerates it; a test runs every example below and fails when a document's keys and the table\n"
    << "     differ, and another when this page is stale. -->\n\n"
    << "Every JSON document rdmasim writes — a command's `--json` output, `rdmasim run -o FILE`, `sweep --json`,\n"
    << "`compare --json` — is an object whose first key is `\"schema_version\"` (currently **" << kJsonSchemaVersion
    << "**). A command that produces a list wraps it as `{\"schema_version\": " << kJsonSchemaVersion
    << ", \"rows\": [...]}`. The version rises when a key changes meaning or is removed; new keys may appear within\n"
    << "a version, so readers should ignore keys they do not know. Key order is fixed and, for the same inputs and\n"
    << "seed, the bytes are identical.\n\n"
    << "Units are in the key names: `_ps` picoseconds (integers, or doubles where a mean or RTT/2 can be a half\n"
    << "picosecond), `_us` microseconds, `_s` seconds, `_bps` bits per second, `_Gbps` gigabits per second, `_GBps`\n"
    << "gigabytes per second, `_bytes` bytes; perftest's own keys (`t_avg`, `BW_average`, ...) keep perftest's units\n"
    << "(microseconds, MB/s) beside them. The scenario keys are in [scenario-format.md](scenario-format.md).\n";
  for (const JsonDocumentDoc& d : json_documents()) {
    o << "\n## `" << d.document << "`\n\nFor example `rdmasim " << d.examples.front() << "`.\n\n"
      << "| key | meaning | present |\n|---|---|---|\n";
    for (const JsonKeyDoc& k : d.keys)
      o << "| `" << k.key << "` | " << k.meaning << " | " << (k.when.empty() ? "always" : k.when) << " |\n";
  }
  return o.str();
}

std::string json_documents_json() {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const JsonDocumentDoc& d : json_documents()) {
    nlohmann::ordered_json keys = nlohmann::ordered_json::array();
    for (const JsonKeyDoc& k : d.keys) keys.push_back({{"key", k.key}, {"always", k.when.empty()}});
    nlohmann::ordered_json examples = nlohmann::ordered_json::array();
    for (std::string_view e : d.examples) examples.push_back(e);
    all.push_back({{"document", d.document}, {"examples", examples}, {"output", d.output}, {"keys", keys}});
  }
  return all.dump(2) + "\n";
}

}  // namespace rdmasim
