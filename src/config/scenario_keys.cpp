#include "config/scenario_keys.hpp"
#include "config/tool_habits.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <stdexcept>

#include "core/number_text.hpp"
#include "rdmasim/collective.hpp"
#include "rdmasim/flows.hpp"
#include "net/topology.hpp"
#include "rdmasim/load_balancer.hpp"
#include "rdmasim/profile.hpp"
#include "rdmasim/rate_control.hpp"
#include "rdmasim/server.hpp"
#include "rdmasim/tcp_cc.hpp"
#include "rdmasim/traffic_pattern.hpp"

namespace rdmasim::config {
namespace {

std::int64_t to_int(const std::string& v, std::int64_t lo, std::int64_t hi) {
  std::int64_t x = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  const bool whole = !v.empty() && end == v.data() + v.size();
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && whole && (x < lo || x > hi)))
    throw std::invalid_argument("must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + v);
  if (ec != std::errc() || !whole) throw std::invalid_argument("expected an integer, got \"" + v + "\"");
  return x;
}

bool to_bool(const std::string& v) {
  if (v == "true" || v == "on") return true;
  if (v == "false" || v == "off") return false;
  throw std::invalid_argument("expected true or false (on or off), got \"" + v + "\"");
}

double to_probability(const std::string& v) {
  double x = 0;
  if (!number_from_text(v, x) || !(x >= 0 && x < 1))
    throw std::invalid_argument("expected a probability in [0, 1), got \"" + v + "\"");
  return x;
}

void check_choice(const std::string& v, const std::vector<std::string>& choices) {
  if (std::find(choices.begin(), choices.end(), v) != choices.end()) return;
  std::string list;
  for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + (c.empty() ? std::string("\"\"") : c);
  throw std::invalid_argument("unknown value \"" + v + "\" (valid: " + list + ")");
}

using K = ScenarioKey;
using O = ScenarioOptions;
using Texts = std::vector<std::string>;

// The topology registry's names, with loopback (kernel TCP over lo: no cables) after
// back-to-back.
Texts topology_choices() {
  Texts names{"loopback"};
  for (const TopologyBuilder& b : topology_builders())
    names.insert(b.name == "back-to-back" ? names.begin() : names.end(), b.name);
  return names;
}

constexpr unsigned kOne = kLat | kBudget | kBw;    // the two-host path's commands
constexpr unsigned kNet = kOne | kAllreduce | kFlows;  // every command that builds a network
constexpr unsigned kShape = kNet | kCmtime;            // the fabric's shape and a flow's route (cmtime's MADs)
constexpr unsigned kAll = kShape | kDemo;
constexpr unsigned kSim = kLat | kBw | kAllreduce | kFlows;  // commands that simulate (the budget is closed-form, unloaded, lossless)
constexpr unsigned kRun = kLat | kBw;               // commands that simulate one flow and export it

K key(std::string path, std::string type, std::string flags, unsigned commands, std::string help) {
  K k;
  k.path = std::move(path);
  k.type = std::move(type);
  k.flags = std::move(flags);
  k.commands = commands;
  k.help = std::move(help);
  return k;
}

template <typename T>
K text(std::string path, std::string flags, unsigned cmds, std::string help, Texts choices, T field) {
  K k = key(std::move(path), "string", std::move(flags), cmds, std::move(help));
  k.choices = choices;
  k.set = [choices, field](O& o, const std::string& v) {
    if (!choices.empty()) check_choice(v, choices);
    field(o) = v;
  };
  k.get = [field](const O& o) { return Texts{field(o)}; };
  return k;
}

template <typename T>
K integer(std::string path, std::string flags, unsigned cmds, std::string help, std::int64_t lo, std::int64_t hi, T field) {
  K k = key(std::move(path), "int", std::move(flags), cmds, std::move(help));
  k.set = [lo, hi, field](O& o, const std::string& v) {
    using V = std::remove_reference_t<decltype(field(o))>;
    field(o) = static_cast<V>(to_int(v, lo, hi));
  };
  k.get = [field](const O& o) { return Texts{std::to_string(field(o))}; };
  return k;
}

// A bare command-line flag (`-a`), true or false in a file.
template <typename T>
K flag(std::string path, std::string flags, unsigned cmds, std::string help, T field) {
  K k = key(std::move(path), "bool", std::move(flags), cmds, std::move(help));
  k.form = CliForm::flag;
  k.set = [field](O& o, const std::string& v) { field(o) = to_bool(v); };
  k.get = [field](const O& o) { return Texts{field(o) ? "true" : "false"}; };
  return k;
}

// on | off on the command line, true | false in a file, kept as "on" / "off" ("": not given).
template <typename T>
K toggle(std::string path, std::string flags, unsigned cmds, std::string help, T field) {
  K k = key(std::move(path), "bool", std::move(flags), cmds, std::move(help));
  k.set = [field](O& o, const std::string& v) { field(o) = to_bool(v) ? "on" : "off"; };
  k.get = [field](const O& o) {
    const std::string& v = field(o);
    return v.empty() ? Texts{} : Texts{v == "on" ? "true" : "false"};
  };
  return k;
}

// A text checked by `check` now and kept as given ("": not given).
template <typename T>
K checked(std::string path, std::string type, std::string flags, unsigned cmds, std::string help,
          std::function<void(const std::string&)> check, T field) {
  K k = key(std::move(path), std::move(type), std::move(flags), cmds, std::move(help));
  k.set = [check, field](O& o, const std::string& v) {
    check(v);
    field(o) = v;
  };
  k.get = [field](const O& o) {
    const std::string& v = field(o);
    return v.empty() ? Texts{} : Texts{v};
  };
  return k;
}

template <typename T>
K list(std::string path, std::string flags, unsigned cmds, std::string help, T field) {
  K k = key(std::move(path), "list", std::move(flags), cmds, std::move(help));
  k.set = [field](O& o, const std::string& v) { field(o).push_back(v); };  // one element per call
  k.get = [field](const O& o) { return field(o); };
  return k;
}

void time_check(const std::string& v) { parse_seconds_or_time(v, nullptr); }
void bytes_check(const std::string& v) {
  if (parse_byte_count(v).count() < 1) throw std::invalid_argument("must be at least 1 byte, got \"" + v + "\"");
}
void positive_time(const std::string& v) {
  if (parse_time(v) <= Time::zero()) throw std::invalid_argument("must be > 0, got \"" + v + "\"");
}
void nonempty_path(const std::string& v) {
  if (v.empty()) throw std::invalid_argument("expected a path, got \"\"");
}

// A field of the options (a member, or a member of a member), for setting and for reading.
#define F(expr) [](auto& o) -> auto& { return o.expr; }

std::vector<ScenarioKey> build_keys() {
  std::vector<K> r;
  const Texts tests{"write", "read", "send"};
  r.push_back(text("workload.test", "--test", kOne,
                   "operation (perftest ib_write_* / ib_read_* / ib_send_*; default: write for rdma, send for tcp)",
                   tests, F(test)));
  r.push_back(text("workload.transport", "--transport", kOne, "rdma (RC verbs) or tcp (kernel TCP baseline)",
                   {"rdma", "tcp"}, F(transport)));
  K size = key("workload.size", "bytes", "-s,--size", kOne | kDemo, "message size: bytes, or with a unit (\"4KiB\")");
  size.set = [](O& o, const std::string& v) {
    const bool digits = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!v.empty() && v[0] == '-') throw std::invalid_argument("must be at least 1 byte, got " + v);
    const std::int64_t n = digits ? to_int(v, 0, std::int64_t{1} << 40) : parse_bytes(v).count();
    if (n < 1) throw std::invalid_argument("must be at least 1 byte, got " + v);
    o.size = n;
  };
  size.get = [](const O& o) { return Texts{std::to_string(o.size)}; };
  r.push_back(size);
  K iters = integer("workload.iters", "-n,--iters", kLat | kBw | kAllreduce | kDemo,
                    "iterations (lat: exchanges; bw: messages per QP; allreduce: timed iterations per size)", 1,
                    1'000'000'000, F(iters));
  iters.set = [](O& o, const std::string& v) {
    o.iters = to_int(v, 1, 1'000'000'000);
    o.iters_given = true;
  };
  r.push_back(iters);
  r.push_back(flag("workload.all", "-a,--all", kOne, "all sizes 2 .. 2^23, powers of 2 (perftest -a)", F(all)));
  r.push_back(integer("workload.tx_depth", "-t,--tx-depth", kBw, "messages in flight per QP (send queue depth)", 1, 8192,
                      F(tx_depth)));
  r.push_back(integer("workload.qps", "-q,--qp", kBw,
                      "QPs, each posting `iters` messages with its own window (over a fabric each its own UDP source "
                      "port: sport, sport + 1, ...)",
                      1, 1024, F(qps)));
  r.push_back(integer("workload.cores", "--cores", kBw,
                      "cores of each host the QPs' processes run on: QP q on core q mod cores (perftest's multi-process "
                      "runs, one process per core); 1 = every QP's CPU work on one core, as one perftest process",
                      1, 1024, F(cores)));
  r.push_back(flag("workload.bidirectional", "-b,--bidirectional", kBw,
                   "the same QPs from the server too; BW is the sum of both directions (perftest -b)", F(bidirectional)));
  r.push_back(checked("workload.duration", "time", "-D,--duration", kBw | kFlows,
                      "bw: simulated time to run instead of `iters`; flows: flows arrive for this long (default 1ms "
                      "unless `flows` is given) (seconds, or with a unit: 2ms, 500us)",
                      time_check, F(duration)));
  K cdf = key("workload.cdf", "string", "--cdf", kFlows,
              "flow sizes: a distribution (`rdmasim list`) or a CDF file (\"bytes percent\" per line, 0 to 100)");
  for (const FlowSizeCdf* d : flow_size_cdfs()) cdf.choices.push_back(d->name);
  cdf.set = [](O& o, const std::string& v) {
    if (v.empty()) throw std::invalid_argument("expected a distribution or a file, got \"\"");
    o.open_loop.cdf = v;  // a name or a path: read when the scenario is run
  };
  cdf.get = [](const O& o) { return Texts{o.open_loop.cdf}; };
  r.push_back(cdf);
  K load = key("workload.load", "number", "--load", kFlows,
               "offered load per host: Poisson arrivals at this fraction of its link rate (0 < load <= 1)");
  load.set = [](O& o, const std::string& v) {
    double x = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !(x > 0 && x <= 1))
      throw std::invalid_argument("expected a fraction in (0, 1], got \"" + v + "\"");
    o.open_loop.load = x;
  };
  load.get = [](const O& o) { return Texts{number_text(o.open_loop.load)}; };
  r.push_back(load);
  r.push_back(integer("workload.flows", "--flows", kFlows, "stop after this many flows (0: the duration decides)", 0,
                      static_cast<std::int64_t>(kMaxOpenLoopFlows), F(open_loop.count)));
  r.push_back(checked("workload.flow_file", "string", "--flow-file", kFlows,
                      "the flows from a file instead of arrivals: rdmasim's format (docs/flow-file.md) or the ns-3 "
                      "HPCC simulator's flow.txt",
                      nonempty_path, F(open_loop.flow_file)));
  r.push_back(integer("workload.tc", "--flow-tc", kFlows,
                      "traffic class (priority) of the drawn flows' packets; -1: the data class (switch.data_tc)", -1, 7,
                      F(open_loop.tc)));
  r.push_back(checked("workload.incast_every", "time", "--incast-every", kFlows,
                      "mix in incast bursts, one per this period: a random receiver gets incast_size from each of "
                      "incast_fanin random senders at once (seconds, or with a unit: 500us)",
                      time_check, F(open_loop.incast_every)));
  r.push_back(integer("workload.incast_fanin", "--incast-fanin", kFlows, "incast bursts: senders per burst", 1, 100000,
                      F(open_loop.incast_fanin)));
  r.push_back(checked("workload.incast_size", "bytes", "--incast-size", kFlows,
                      "incast bursts: bytes from each sender (with a unit: 64KiB)", bytes_check, F(open_loop.incast_size)));
  r.push_back(integer("workload.incast_tc", "--incast-tc", kFlows,
                      "incast bursts: traffic class of their packets; -1: the data class", -1, 7, F(open_loop.incast_tc)));
  r.push_back(checked("workload.margin", "time", "-f,--margin", kBw,
                      "with duration: completions this close to either end not counted (default: a tenth of the duration)",
                      time_check, F(margin)));
  r.push_back(integer("workload.outs", "-o,--outs", kBw, "read: RDMA READs in flight per QP (the QP's max_rd_atomic)", 1, 256,
                      F(outs)));
  r.push_back(integer("workload.post_list", "-l,--post-list,--post_list", kBw,
                      "WQEs posted with one doorbell (one WQE fetch per list; <= tx_depth)", 1, 8192, F(post_list)));
  r.push_back(integer("workload.cq_mod", "-Q,--cq-mod", kBw, "signal every Nth WQE only (unsignaled: no CQE; <= tx_depth)", 1,
                      8192, F(cq_mod)));
  r.push_back(integer("workload.rx_depth", "-r,--rx-depth", kBw,
                      "send on a switched topology: receives the server keeps posted (a SEND finding none is answered "
                      "with an RNR NAK); 0 = always ready",
                      0, 8192, F(rx_depth)));
  r.push_back(checked("workload.recv_delay", "time", "--recv-delay", kBw,
                      "with rx_depth: the server's processing after a receive completes before it reposts it (\"20us\")",
                      [](const std::string& v) { parse_time(v); }, F(recv_delay)));
  K sweep = key("workload.loss_sweep", "list", "--loss-sweep", kBw,
                "goodput vs loss at these rates (\"0,1e-5,1e-3\"): simulated go-back-N against its closed form and TCP's");
  sweep.delimiter = ',';
  sweep.numeric_items = true;
  sweep.set = [](O& o, const std::string& v) { o.loss_sweep.push_back(to_probability(v)); };
  sweep.get = [](const O& o) {
    Texts t;
    for (double x : o.loss_sweep) t.push_back(number_text(x));
    return t;
  };
  r.push_back(sweep);
  K pattern = key("workload.pattern", "string", "--pattern", kBw,
                  "many flows on a switched topology (`rdmasim list`; \"\": the two-host test)");
  pattern.choices = {""};
  for (const TrafficPatternSpec* p : traffic_patterns()) pattern.choices.push_back(p->name);
  pattern.set = [](O& o, const std::string& v) {
    if (!v.empty()) traffic_pattern(v);  // the registry's names now
    o.pattern = v;
  };
  pattern.get = [](const O& o) { return Texts{o.pattern}; };
  r.push_back(pattern);
  r.push_back(integer("workload.incast", "--incast", kBw, "incast: senders (hosts 1..N -> h0)", 1, 100000, F(incast)));
  r.push_back(integer("workload.stride", "--stride", kBw, "stride: host i sends to host (i + stride) mod hosts", 1, 100000,
                      F(stride)));
  r.push_back(integer("workload.threads", "--threads", kBw | kAllreduce | kFlows,
                      "bw --pattern, the collectives and flows: cut the fabric into logical processes (a fat-tree pod, a "
                      "leaf or a scalable unit of rail leaves with its hosts or servers) and run them on N worker "
                      "threads, with the same report for every N >= 1 (0: one scheduler; bw's report is the same but for "
                      "the events counted)",
                      0, 256, F(threads)));
  r.push_back(integer("workload.seeds", "--seeds", kBw, "pattern: run seeds seed .. seed+N-1 and report the spread", 1, 1000,
                      F(seeds)));
  r.push_back(flag("workload.stages", "--stages", kBudget, "also the critical path stage by stage", F(stages)));
  K op = key("workload.collective", "string", "", kAllreduce,
              "the nccl-tests operation (the subcommand: all_reduce, all_gather, ...)");
  for (const CollOpInfo& i : coll_ops()) op.choices.emplace_back(i.name);
  op.set = [](O& o, const std::string& v) {
    coll_op(v);  // a known operation
    o.collective.op = v;
  };
  op.get = [](const O& o) { return Texts{o.collective.op}; };
  r.push_back(op);
  K algo = key("workload.algo", "string", "--algo", kAllreduce,
               "the operation's algorithm (`rdmasim list`; \"\": its first: ring, alltoall windowed)");
  algo.choices = {""};
  for (const CollectiveSpec* c : collectives())
    if (std::find(algo.choices.begin(), algo.choices.end(), c->name) == algo.choices.end()) algo.choices.push_back(c->name);
  algo.set = [](O& o, const std::string& v) { o.collective.algo = v; };  // checked against the operation's when run
  algo.get = [](const O& o) { return Texts{o.collective.algo}; };
  r.push_back(algo);
  r.push_back(integer("workload.nodes", "--nodes", kAllreduce, "hosts taking part, h0..h(N-1) (0: every host)", 0, 100000,
                      F(collective.nodes)));
  r.push_back(integer("workload.channels", "--channels", kAllreduce,
                      "rings run side by side, each on a share of the buffer over its own rank order (NCCL's channels; "
                      "0: a server's NICs, else 1; alltoall 1)",
                      0, 64, F(collective.channels)));
  r.push_back(integer("workload.check", "-c,--check", kAllreduce,
                      "nccl-tests -c: 1 checks every element (#wrong), 0 does not (#wrong N/A; no memory for it)", 0, 1,
                      F(collective.check)));
  K pxn = toggle("workload.pxn", "--pxn", kAllreduce,
                 "PXN: to another server through its NIC on the receiver's rail, over NVLink first (off: NCCL_PXN_DISABLE=1, "
                 "the sender's own NIC)",
                 F(collective.pxn));
  pxn.get = [](const O& o) { return Texts{o.collective.pxn == "on" ? "true" : "false"}; };
  r.push_back(pxn);
  r.push_back(integer("workload.gpus", "-g,--ngpus", kAllreduce, "GPUs (ranks) per host (nccl-tests -g)", 1, 16,
                      F(collective.gpus)));
  K gd = toggle("workload.gpudirect", "--gpudirect", kAllreduce,
                "the NIC DMAs GPU memory (off: each step staged through host memory: D2H copy, send, H2D copy)",
                F(collective.gpudirect));
  gd.get = [](const O& o) { return Texts{o.collective.gpudirect == "on" ? "true" : "false"}; };
  r.push_back(gd);
  const auto nccl_size = [](const std::string& v) { parse_nccl_size(v, ""); };
  r.push_back(checked("workload.min_bytes", "string", "-b,--minbytes", kAllreduce,
                      "smallest size (nccl-tests -b; bytes with K, M, G suffixes: \"32M\")", nccl_size,
                      F(collective.min_bytes)));
  r.push_back(checked("workload.max_bytes", "string", "-e,--maxbytes", kAllreduce, "largest size (nccl-tests -e)", nccl_size,
                      F(collective.max_bytes)));
  r.push_back(integer("workload.step_factor", "-f,--stepfactor", kAllreduce, "multiply the size by this factor (nccl-tests -f)",
                      2, 1024, F(collective.step_factor)));
  r.push_back(integer("workload.warmup", "-w,--warmup_iters", kAllreduce,
                      "warmup iterations per size, simulated and not timed (nccl-tests -w)", 0, 1000, F(collective.warmup)));
  r.push_back(toggle("toggles.kernel_bypass", "--kernel-bypass", kOne, "RDMA verbs from user space (off: through the kernel)",
                     F(kernel_bypass)));
  r.push_back(toggle("toggles.zero_copy", "--zero-copy", kOne, "the NIC DMAs the app buffer (off: bounce-buffer copies)",
                     F(zero_copy)));
  r.push_back(toggle("toggles.interrupt_coalescing", "--interrupt-coalescing", kOne,
                     "interrupt moderation with nic.rx_usecs / nic.rx_frames", F(interrupt_coalescing)));
  r.push_back(toggle("toggles.busy_poll", "--busy-poll", kOne, "poll for completion (default: on for rdma, off for tcp)",
                     F(busy_poll)));
  r.push_back(toggle("toggles.inline", "--inline", kOne, "payload inside the WQE (default: size <= max inline)",
                     F(inline_data)));
  r.push_back(text("network.link_layer", "--link-layer", kAll, "roce (RoCEv2 over Ethernet) or ib (InfiniBand)",
                   {"roce", "ib"}, F(link_layer)));
  r.push_back(integer("network.mtu", "-m,--mtu", kAll,
                      "RDMA path MTU: 256, 512, 1024, 2048 or 4096 (the collectives: --mtu only; their -m is nccl-tests' "
                      "agg iters)",
                      1, 65536, F(mtu)));
  r.back().long_only = kAllreduce;
  r.push_back(text("network.topology", "--topology", kShape,
                   "back-to-back (one cable), loopback (TCP over lo on one host), or a switched fabric (allreduce: "
                   "switched only)",
                   topology_choices(), F(topology)));
  r.push_back(text("network.topology_file", "--topology-file", kShape,
                   "file: the fabric's file, rdmasim-topology 1 (docs/topology-file.md) or an ns-3 HPCC topology.txt", {},
                   F(fabric.topology_file)));
  r.push_back(integer("network.k", "--k", kShape, "fat-tree arity (even)", 2, 64, F(fabric.k)));
  r.push_back(integer("network.hosts", "--hosts", kShape, "single-switch: hosts", 2, 100000, F(fabric.hosts)));
  r.push_back(integer("network.leaves", "--leaves", kShape, "leaf-spine: leaves", 1, 10000, F(fabric.leaves)));
  r.push_back(integer("network.spines", "--spines", kShape, "leaf-spine, rail-optimized, multi-plane (per plane): spines", 1,
                      10000, F(fabric.spines)));
  r.push_back(integer("network.hosts_per_leaf", "--hosts-per-leaf", kShape, "leaf-spine: hosts per leaf", 1, 10000,
                      F(fabric.hosts_per_leaf)));
  r.push_back(integer("network.servers", "--servers", kShape, "rail-optimized, multi-plane: GPU servers", 1, 100000,
                      F(fabric.servers)));
  K srv = key("network.server", "string", "--server", kShape,
               "rail-optimized, multi-plane: the GPU server (`rdmasim list`): its NICs, NIC profile, NVLink and PCIe");
  srv.choices = {""};
  for (const ServerSpec* x : servers()) srv.choices.push_back(x->name);
  srv.set = [](O& o, const std::string& v) {
    if (!v.empty()) server(v);  // the registry's names now
    o.fabric.server = v;
  };
  srv.get = [](const O& o) { return Texts{o.fabric.server}; };
  r.push_back(srv);
  r.push_back(integer("network.nics_per_server", "--nics-per-server", kShape,
                      "rail-optimized, multi-plane: NICs per server, one rail each (0: the --server's, else 8)", 0, 16,
                      F(fabric.nics_per_server)));
  r.push_back(integer("network.servers_per_su", "--servers-per-su", kShape,
                      "rail-optimized, multi-plane: servers per scalable unit (one rail leaf per rail each)", 1, 10000,
                      F(fabric.servers_per_su)));
  r.push_back(integer("network.planes", "--planes", kShape, "multi-plane: planes (ports per NIC, one fabric each)", 2, 8,
                      F(fabric.planes)));
  r.push_back(integer("network.switches", "--switches", kShape, "ring: switches", 3, 10000, F(fabric.switches)));
  r.push_back(integer("network.hosts_per_switch", "--hosts-per-switch", kShape, "ring: hosts per switch", 1, 1000,
                      F(fabric.hosts_per_switch)));
  r.push_back(text("network.ring_routing", "--ring-routing", kShape,
                   "ring: clockwise (flows wrap around: a cyclic buffer dependency) or up-down (never across the "
                   "wrap-around cable)",
                   {"clockwise", "up-down"}, F(fabric.ring_routing)));
  r.push_back(text("network.from", "--from", kOne | kCmtime, "fabric: client host (\"h3\", 3, or a name; on a server fabric also \"s3.gpu5\", GPU 5's memory behind its NIC, or "
                   "\"s3\", host memory; default: the first host)", {}, F(from)));
  r.push_back(text("network.to", "--to", kOne | kCmtime, "fabric: server host, named as --from (default: the second host)", {}, F(to)));
  r.push_back(integer("network.sport", "--sport", kShape, "fabric: RoCEv2 UDP source port (the flow's ECMP entropy)", 1, 65535,
                      F(fabric.udp_sport)));
  K routing = key("network.routing", "string", "--routing", kShape,
                  "fabric: how switches choose among equal-cost next hops (`rdmasim list`)");
  routing.choices = load_balancer_names();
  routing.set = [](O& o, const std::string& v) {
    load_balancer(v);  // the registry's names now, including any registered since the table was built
    o.routing = v;
  };
  routing.get = [](const O& o) { return Texts{o.routing}; };
  r.push_back(routing);
  K recovery = key("network.recovery", "string", "--transport-recovery", kSim,
                   "the RC's loss recovery: go-back-n, or selective-repeat (IRN; sets rc.selective_repeat)");
  recovery.choices = {"go-back-n", "selective-repeat"};
  recovery.set = [](O& o, const std::string& v) {
    if (v != "go-back-n" && v != "selective-repeat")
      throw std::invalid_argument("unknown value \"" + v + "\" (valid: go-back-n, selective-repeat)");
    o.recovery = v;
  };
  recovery.get = [](const O& o) { return o.recovery.empty() ? Texts{} : Texts{o.recovery}; };
  r.push_back(recovery);
  K cc = key("network.cc", "string", "--cc", kSim, "the RDMA QPs' congestion control (`rdmasim list`)");
  cc.choices = rate_control_names();
  cc.set = [](O& o, const std::string& v) {
    rate_control(v);
    o.cc = v;
  };
  cc.get = [](const O& o) { return Texts{o.cc}; };
  r.push_back(cc);
  K tcp_cc = key("network.tcp_cc", "string", "--tcp-cc", kBw,
                 "packet-level TCP congestion control (tcp over a fabric; `rdmasim list`)");
  for (const TcpCcSpec* s : tcp_congestion_controls()) tcp_cc.choices.push_back(s->name);
  tcp_cc.set = [](O& o, const std::string& v) {
    tcp_congestion_control(v);
    o.tcp_cc = v;
  };
  tcp_cc.get = [](const O& o) { return Texts{o.tcp_cc}; };
  r.push_back(tcp_cc);
  K loss = key("network.loss", "number", "--loss", kNet, "fabric: every link corrupts each frame with this probability, both ways");
  loss.set = [](O& o, const std::string& v) { o.fabric.loss = to_probability(v); };
  loss.get = [](const O& o) { return Texts{number_text(o.fabric.loss)}; };
  r.push_back(loss);
  r.push_back(list("network.degrade", "--degrade", kNet, "fabric: links trained down, NODE-NODE=RATE (\"edge0.0-agg0.0=40Gbps\")",
                   F(degrade)));
  r.push_back(list("network.link_loss", "--link-loss", kSim,
                   "fabric: links corrupting frames, NODE-NODE=PROBABILITY (\"agg0.0-core0=1e-4\")", F(link_loss)));
  r.push_back(list("network.drop_frames", "--drop-frames", kSim,
                   "fabric: the Nth frames crossing from NODE to NODE lost, NODE-NODE=N[,N...] (1-based: \"h0-sw0=50,51\")",
                   F(drop_frames)));
  r.push_back(list("network.drop_burst", "--drop-burst", kSim,
                   "fabric: frames from NODE to NODE arriving in [T1, T2) lost, or the first at T1, NODE-NODE@T1[-T2] "
                   "(\"h0-sw0@20us-30us\")",
                   F(drop_burst)));
  r.push_back(list("network.link_down", "--link-down", kSim,
                   "fabric: a link going down at T1 (up at T2), NODE-NODE@T1[-T2] (\"agg0.0-core0@100us-5ms\"; routing "
                   "follows after switch.route_convergence)",
                   F(link_down)));
  r.push_back(text("memory.mem", "--mem", kOne,
                   "where the buffers live: host | gpu, or CLIENT,SERVER (GPU HBM is DMAed directly or staged)",
                   {"host", "gpu", "host,gpu", "gpu,host", "host,host", "gpu,gpu"}, F(mem)));
  K cuda = checked("memory.use_cuda", "string", "--use-cuda,--use_cuda", kOne,
                   "perftest's --use_cuda[=N]: buffers in GPU N's memory on both sides (a host has GPU 0)",
                   [](const std::string&) {}, F(use_cuda));  // checked with the rest of the GPU options
  cuda.form = CliForm::optional_value;
  r.push_back(cuda);
  r.push_back(toggle("memory.gpudirect", "--gpudirect", kOne,
                     "the NIC DMAs GPU memory peer-to-peer (off: staged through host buffers; default on for rdma)",
                     F(gpudirect)));
  r.push_back(checked("memory.staging_chunk", "bytes", "--staging-chunk", kOne,
                      "staged path: copy in chunks of this size, pipelined with the transfer (a multiple of the MTU; "
                      "absent: non-pipelined)",
                      [](const std::string&) {}, F(staging_chunk)));
  r.push_back(checked("coalescing.rx_usecs", "time", "--rx-usecs", kOne,
                      "interrupt coalescing timer, e.g. \"8us\" (sets nic.rx_usecs, turns coalescing on)",
                      [](const std::string&) {}, F(rx_usecs)));
  K frames = integer("coalescing.rx_frames", "--rx-frames", kOne,
                     "interrupt coalescing frame count (sets nic.rx_frames, turns coalescing on)", 1, 65535, F(rx_frames));
  frames.get = [](const O& o) { return o.rx_frames < 0 ? Texts{} : Texts{std::to_string(o.rx_frames)}; };
  r.push_back(frames);
  r.push_back(toggle("coalescing.adaptive_rx", "--adaptive-rx", kOne,
                     "adaptive moderation: interrupt at once unless the previous interrupt was within rx_usecs",
                     F(adaptive_rx)));
  K reuse = integer("connection.reuse", "--conn-reuse", kRun,
                    "a new RC connection every N exchanges or messages, timed (1: per message; 0: pre-connected)", 0,
                    1'000'000'000, F(conn_reuse));
  r.push_back(reuse);
  r.push_back(flag("connection.qp_pool", "--qp-pool", kRun, "connections pre-built outside the timed loop (their setup cost shown)",
                   F(qp_pool)));
  K profile = key("profile", "string", "--profile", kAll, "parameter profile (`rdmasim list`)");
  profile.choices = profile_names();
  profile.set = [](O& o, const std::string& v) {
    make_profile(v);  // the registry's names now
    o.profile = v;
  };
  profile.get = [](const O& o) { return Texts{o.profile}; };
  r.push_back(profile);
  r.push_back(text("host_profile", "--host-profile", kAll,
                   "host profile TOML written by `rdmasim calibrate` (applied before the parameters)", {}, F(host_profile)));
  // [outputs]: the files a `run` writes (paths relative to the working directory, as on the
  // command line); compare, sweep and the HTTP API refuse them.
  r.push_back(checked("outputs.trace", "string", "--trace", kRun,
                      "write a Perfetto / Chrome trace (JSON) of the first messages' critical paths", nonempty_path,
                      F(exports.trace_path)));
  r.push_back(integer("outputs.trace_messages", "--trace-messages", kRun, "trace (and hop_ledger): the first N messages posted",
                      1, 1'000'000, F(exports.trace_messages)));
  r.push_back(flag("outputs.hop_ledger", "--hop-ledger", kRun,
                   "the traced messages' mean ledger hop by hop: each host stage, fabric port and switch pipeline",
                   F(exports.hop_ledger)));
  r.push_back(checked("outputs.pcap", "string", "--pcap", kRun,
                      "write a pcapng capture of the client's wire (fabric: its NIC port, both ways)", nonempty_path,
                      F(exports.pcap_path)));
  r.push_back(list("outputs.pcap_ports", "--pcap-port", kRun, "capture these fabric ports instead (\"edge0.0->h1\")",
                   F(exports.pcap_ports)));
  r.push_back(integer("outputs.pcap_frames", "--pcap-frames", kRun, "pcap: write at most N frames", 1, INT64_MAX,
                      F(exports.pcap_frames)));
  r.push_back(integer("outputs.pcap_snaplen", "--pcap-snaplen", kRun, "pcap: bytes kept per frame (0: whole frames)", 0, 262144,
                      F(exports.pcap_snaplen)));
  r.push_back(checked("outputs.csv", "string", "--csv", kRun | kFlows,
                      "write the run's tables as CSV into this directory: messages.csv, flows.csv, ports.csv, "
                      "timeseries.csv (flows: flows.csv, slowdown.csv, ports.csv)",
                      nonempty_path, F(csv)));
  r.push_back(checked("outputs.sample_interval", "time", "--sample-interval", kRun,
                      "timeseries.csv rows of this much simulated time each, e.g. \"10us\" (default: about 200 rows)",
                      positive_time, F(sample_interval)));
  r.push_back(list("outputs.watch", "--watch", kRun, "fabric ports whose queue depth and PFC frames go to timeseries.csv",
                   F(watch)));
  r.push_back(checked("outputs.fct", "string", "--fct-out", kFlows,
                      "write every flow's FCT in the ns-3 HPCC simulator's fct.txt format (times in ns)", nonempty_path,
                      F(open_loop.fct_out)));
  r.push_back(checked("outputs.pfc", "string", "--pfc-out", kFlows,
                      "write every PFC frame a port received in the ns-3 HPCC simulator's pfc.txt format (time in ns, "
                      "node, node type, interface, 1 pause / 0 resume)",
                      nonempty_path, F(open_loop.pfc_out)));
  r.push_back(integer("workload.connections", "-c,--connections", kCmtime,
                      "RC connections set up at once, step by step (cmtime -c)", 1, 1'000'000, F(connections)));
  K seed = key("seed", "int", "--seed", kLat | kBw | kAllreduce | kDemo | kFlows, "seed of every random stream");
  seed.set = [](O& o, const std::string& v) {
    if (!v.empty() && v[0] == '-') throw std::invalid_argument("must be 0 or more, got " + v);
    o.seed = static_cast<std::uint64_t>(to_int(v, 0, INT64_MAX));
  };
  seed.get = [](const O& o) { return Texts{std::to_string(o.seed)}; };
  r.push_back(seed);
  return r;
}

#undef F

}  // namespace

unsigned command_bit(Command c) {
  switch (c) {
    case Command::lat: return kLat;
    case Command::budget: return kBudget;
    case Command::bw: return kBw;
    case Command::allreduce: return kAllreduce;
    case Command::demo: return kDemo;
    case Command::flows: return kFlows;
    case Command::cmtime: return kCmtime;
  }
  return 0;
}

std::string_view command_name(Command c) {
  switch (c) {
    case Command::lat: return "lat";
    case Command::budget: return "budget";
    case Command::bw: return "bw";
    case Command::allreduce: return "allreduce";
    case Command::demo: return "demo";
    case Command::flows: return "flows";
    case Command::cmtime: return "cmtime";
  }
  return "?";
}

std::string command_names() {
  std::string s;
  for (Command c : kScenarioCommands) s += (s.empty() ? "" : ", ") + std::string(command_name(c));
  return s;
}

const std::vector<ScenarioKey>& scenario_keys() {
  static const std::vector<ScenarioKey> keys = build_keys();
  return keys;
}

const ScenarioKey* find_scenario_key(const std::string& path) {
  for (const ScenarioKey& k : scenario_keys())
    if (k.path == path) return &k;
  return nullptr;
}

namespace {
// "-m,--mtu,--path-mtu" -> "--mtu,--path-mtu".
std::string long_flags(const std::string& flags) {
  std::string longs;
  for (std::size_t at = 0; at < flags.size();) {
    const std::size_t end = std::min(flags.find(',', at), flags.size());
    if (flags.compare(at, 2, "--") == 0) longs += (longs.empty() ? "" : ",") + flags.substr(at, end - at);
    at = end + 1;
  }
  return longs;
}
}  // namespace

std::string long_flag(const ScenarioKey& k) {
  const std::string longs = long_flags(k.flags);
  return longs.empty() ? k.flags : longs.substr(0, longs.find(','));
}

std::string cli_flags(const ScenarioKey& k, Command cmd) {
  return (k.long_only & command_bit(cmd)) != 0 ? long_flags(k.flags) : k.flags;
}

const std::vector<NonKeyFlag>& non_key_flags() {
  static const std::vector<NonKeyFlag> flags = [] {
    std::vector<NonKeyFlag> f{
        {"--set KEY=VALUE", "all", "the key `params.KEY`: a profile parameter"},
        {"--connect-per-msg", "lat, bw", "the same as `connection.reuse = 1`"},
        {"--json", "all", "how results print, not what is simulated (`rdmasim run --json`)"},
        {"--report-gbits", "bw", "how results print (Gb/s instead of MiB/s)"},
        {"--quiet", "lat, bw", "the progress line on a terminal, not the experiment (`rdmasim run --quiet`)"},
    };
    for (const ToolHabit& h : tool_habits()) f.push_back({habit_flags_text(h), habit_commands_text(h), habit_help(h)});
    f.push_back({"--version", "all", "prints the program's version"});
    return f;
  }();
  return flags;
}

ScenarioOptions default_options(Command c) {
  ScenarioOptions o;
  if (c == Command::bw) {
    o.size = 65536;
    o.iters = 5000;
  } else if (c == Command::demo) {
    o.iters = 5000;
  } else if (c == Command::allreduce) {
    o.topology = "single-switch";
    o.fabric.hosts = 8;
    o.iters = 20;
  } else if (c == Command::flows) {
    o.topology = "fat-tree";
  }
  return o;
}

}  // namespace rdmasim::config
