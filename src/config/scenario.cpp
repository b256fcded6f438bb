#include "config/scenario.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <toml++/toml.h>

#include "config/nesting_limit.hpp"
#include "core/number_text.hpp"
#include "model/path.hpp"
#include "rdmasim/profile.hpp"
#include "rdmasim/load_balancer.hpp"
#include "rdmasim/rate_control.hpp"

namespace rdmasim::config {
namespace {

std::int64_t to_int(const std::string& v, std::int64_t lo, std::int64_t hi) {
  std::int64_t x = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && end == v.data() + v.size() && (x < lo || x > hi)))
    throw std::invalid_argument("must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + v);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size())
    throw std::invalid_argument("expected an integer, got \"" + v + "\"");
  if (x < lo || x > hi)
    throw std::invalid_argument("must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + v);
  return x;
}

bool to_bool(const std::string& v) {
  if (v == "true" || v == "on") return true;
  if (v == "false" || v == "off") return false;
  throw std::invalid_argument("expected true or false, got \"" + v + "\"");
}

std::string on_off_text(const std::string& v) { return v.empty() ? "(auto)" : v; }

void check_choice(const std::string& v, const std::vector<std::string>& choices) {
  if (std::find(choices.begin(), choices.end(), v) != choices.end()) return;
  std::string list;
  for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
  throw std::invalid_argument("unknown value \"" + v + "\" (valid: " + list + ")");
}

using K = ScenarioKey;
using O = LatOptions;

K str(std::string path, std::string help, std::vector<std::string> choices, std::string O::*f) {
  K k{std::move(path), "string", std::move(help), choices, nullptr, nullptr};
  k.set = [choices, f](Scenario& s, const std::string& v) {
    if (!choices.empty()) check_choice(v, choices);
    s.options.*f = v;
  };
  k.get = [f](const O& o) { return o.*f; };
  return k;
}

template <typename T>
K integer(std::string path, std::string help, std::int64_t lo, std::int64_t hi, T O::*f) {
  K k{std::move(path), "int", std::move(help), {}, nullptr, nullptr};
  k.set = [lo, hi, f](Scenario& s, const std::string& v) { s.options.*f = static_cast<T>(to_int(v, lo, hi)); };
  k.get = [f](const O& o) { return std::to_string(o.*f); };
  return k;
}

template <typename T>
K fabric_int(std::string path, std::string help, std::int64_t lo, std::int64_t hi, T FabricConfig::*f) {
  K k{std::move(path), "int", std::move(help), {}, nullptr, nullptr};
  k.set = [lo, hi, f](Scenario& s, const std::string& v) { s.options.fabric.*f = static_cast<T>(to_int(v, lo, hi)); };
  k.get = [f](const O& o) { return std::to_string(o.fabric.*f); };
  return k;
}

K flag(std::string path, std::string help, bool O::*f) {
  K k{std::move(path), "bool", std::move(help), {}, nullptr, nullptr};
  k.set = [f](Scenario& s, const std::string& v) { s.options.*f = to_bool(v); };
  k.get = [f](const O& o) { return std::string(o.*f ? "true" : "false"); };
  return k;
}

K time_text(std::string path, std::string help, std::string O::*f) {  // checked now, kept as given
  K k{std::move(path), "time", std::move(help), {}, nullptr, nullptr};
  k.set = [f](Scenario& s, const std::string& v) {
    parse_seconds_or_time(v, nullptr);
    s.options.*f = v;
  };
  k.get = [f](const O& o) { return o.*f; };
  return k;
}

K toggle(std::string path, std::string help, std::string O::*f) {  // stored as "on"/"off"/"" like the flags
  K k{std::move(path), "bool", std::move(help), {}, nullptr, nullptr};
  k.set = [f](Scenario& s, const std::string& v) { s.options.*f = to_bool(v) ? "on" : "off"; };
  k.get = [f](const O& o) { return on_off_text(o.*f); };
  return k;
}

K list(std::string path, std::string help, std::vector<std::string> O::*f) {
  K k{std::move(path), "list", std::move(help), {}, nullptr, nullptr};
  k.set = [f](Scenario& s, const std::string& v) { (s.options.*f).push_back(v); };  // one element per call
  k.get = [](const O&) { return std::string("[]"); };
  return k;
}

template <typename T>
K coll_int(std::string path, std::string help, std::int64_t lo, std::int64_t hi, T CollectiveOptions::*f) {
  K k{std::move(path), "int", std::move(help), {}, nullptr, nullptr};
  k.set = [lo, hi, f](Scenario& s, const std::string& v) { s.options.collective.*f = static_cast<T>(to_int(v, lo, hi)); };
  k.get = [f](const O& o) { return std::to_string(o.collective.*f); };
  return k;
}

K coll_size(std::string path, std::string help, std::string CollectiveOptions::*f) {
  K k{std::move(path), "string", std::move(help), {}, nullptr, nullptr};
  k.set = [f](Scenario& s, const std::string& v) {
    parse_nccl_size(v, "size");  // checked now, located
    s.options.collective.*f = v;
  };
  k.get = [f](const O& o) { return o.collective.*f; };
  return k;
}

std::vector<ScenarioKey> build_keys() {
  std::vector<K> r;
  r.push_back(str("workload.test", "operation: write | read | send (default: write for rdma, send for tcp)",
                  {"write", "read", "send"}, &O::test));
  r.push_back(str("workload.transport", "rdma (RC verbs) or tcp (kernel TCP baseline)", {"rdma", "tcp"}, &O::transport));
  K size{"workload.size", "bytes", "message size: an integer or a size with unit (\"4KiB\")", {}, nullptr, nullptr};
  size.set = [](Scenario& s, const std::string& v) {
    const bool digits = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
    s.options.size = digits ? to_int(v, 1, std::int64_t{1} << 40) : parse_bytes(v).count();
  };
  size.get = [](const O& o) { return std::to_string(o.size) + " (bw: 65536)"; };
  r.push_back(size);
  r.push_back(integer("workload.iters", "iterations (lat: exchanges, bw: messages per flow); bw default 5000", 1,
                      1'000'000'000, &O::iters));
  r.back().set = [](Scenario& s, const std::string& v) {
    s.options.iters = to_int(v, 1, 1'000'000'000);
    s.options.iters_given = true;
  };
  r.push_back(flag("workload.all", "all sizes 2 .. 2^23 (perftest -a)", &O::all));
  r.push_back(integer("workload.tx_depth", "bw: messages in flight per QP", 1, 8192, &O::tx_depth));
  r.push_back(integer("workload.qps", "bw: QPs, each posting `iters` messages with its own window (perftest -q)", 1, 1024,
                      &O::qps));
  r.push_back(flag("workload.bidirectional", "bw: the same QPs from the server too, BW summed (perftest -b)",
                   &O::bidirectional));
  r.push_back(time_text("workload.duration",
                        "bw: simulated time to run instead of `iters` (perftest -D; seconds, or \"2ms\")", &O::duration));
  r.push_back(time_text("workload.margin", "bw: with duration, completions this close to either end not counted "
                                           "(perftest -f; default a tenth of the duration)",
                        &O::margin));
  r.push_back(integer("workload.outs", "bw read: RDMA READs in flight per QP (perftest -o)", 1, 256, &O::outs));
  r.push_back(str("workload.pattern", "bw: many flows: permutation | incast | alltoall | stride (empty: one flow)",
                  {"", "permutation", "incast", "alltoall", "stride"}, &O::pattern));
  r.push_back(integer("workload.incast", "bw incast: number of senders", 1, 100000, &O::incast));
  r.push_back(integer("workload.stride", "bw stride: host i sends to host (i + stride) mod hosts", 1, 100000, &O::stride));
  r.push_back(integer("workload.seeds", "bw pattern: repeat over this many seeds and report the spread", 1, 1000, &O::seeds));
  r.push_back(flag("workload.stages", "budget: also the critical path stage by stage", &O::stages));
  r.push_back(integer("workload.post_list", "bw: WQEs posted with one doorbell (perftest --post_list; <= tx_depth)", 1,
                      8192, &O::post_list));
  r.push_back(integer("workload.cq_mod", "bw: signal every Nth WQE (perftest --cq-mod; <= tx_depth)", 1, 8192, &O::cq_mod));
  K algo{"workload.algo", "string", "allreduce: ring | halving-doubling", {"ring", "halving-doubling"}, nullptr, nullptr};
  algo.set = [](Scenario& s, const std::string& v) {
    check_choice(v, {"ring", "halving-doubling"});
    s.options.collective.algo = v;
  };
  algo.get = [](const O& o) { return o.collective.algo; };
  r.push_back(algo);
  r.push_back(coll_int("workload.nodes", "allreduce: hosts taking part, h0..h(N-1) (0: all)", 0, 100000,
                       &CollectiveOptions::nodes));
  r.push_back(coll_int("workload.gpus", "allreduce: GPUs (ranks) per host (nccl-tests -g)", 1, 16, &CollectiveOptions::gpus));
  K gd{"workload.gpudirect", "bool", "allreduce: NIC DMAs GPU memory (false: every step staged through host memory)", {},
       nullptr, nullptr};
  gd.set = [](Scenario& s, const std::string& v) { s.options.collective.gpudirect = to_bool(v) ? "on" : "off"; };
  gd.get = [](const O& o) { return std::string(o.collective.gpudirect == "on" ? "true" : "false"); };
  r.push_back(gd);
  r.push_back(coll_size("workload.min_bytes", "allreduce: smallest size (nccl-tests -b; \"32M\")", &CollectiveOptions::min_bytes));
  r.push_back(coll_size("workload.max_bytes", "allreduce: largest size (nccl-tests -e)", &CollectiveOptions::max_bytes));
  r.push_back(coll_int("workload.step_factor", "allreduce: size step factor (nccl-tests -f)", 2, 1024,
                       &CollectiveOptions::step_factor));
  r.push_back(coll_int("workload.warmup", "allreduce: warmup iterations per size (nccl-tests -w)", 0, 1000,
                       &CollectiveOptions::warmup));
  r.push_back(toggle("toggles.kernel_bypass", "RDMA verbs from user space (false: through the kernel)", &O::kernel_bypass));
  r.push_back(toggle("toggles.zero_copy", "NIC DMAs the app buffer (false: bounce-buffer copies)", &O::zero_copy));
  r.push_back(toggle("toggles.interrupt_coalescing", "interrupt moderation with nic.rx_usecs / nic.rx_frames",
                     &O::interrupt_coalescing));
  r.push_back(toggle("toggles.busy_poll", "poll for completion (default: true for rdma, false for tcp)", &O::busy_poll));
  r.push_back(toggle("toggles.inline", "payload inside the WQE (default: size <= max inline)", &O::inline_data));
  r.push_back(str("network.link_layer", "roce (RoCEv2 over Ethernet) or ib (InfiniBand)", {"roce", "ib"}, &O::link_layer));
  r.push_back(integer("network.mtu", "RDMA path MTU: 256, 512, 1024, 2048 or 4096", 1, 65536, &O::mtu));
  r.push_back(str("network.topology", "back-to-back | loopback | single-switch | leaf-spine | fat-tree | ring",
                  {"back-to-back", "loopback", "single-switch", "leaf-spine", "fat-tree", "ring"}, &O::topology));
  r.push_back(fabric_int("network.k", "fat-tree arity (even)", 2, 64, &FabricConfig::k));
  r.push_back(fabric_int("network.hosts", "single-switch: hosts", 2, 100000, &FabricConfig::hosts));
  r.push_back(fabric_int("network.leaves", "leaf-spine: leaves", 1, 10000, &FabricConfig::leaves));
  r.push_back(fabric_int("network.spines", "leaf-spine: spines", 1, 10000, &FabricConfig::spines));
  r.push_back(fabric_int("network.hosts_per_leaf", "leaf-spine: hosts per leaf", 1, 10000, &FabricConfig::hosts_per_leaf));
  r.push_back(fabric_int("network.switches", "ring: switches", 3, 10000, &FabricConfig::switches));
  r.push_back(fabric_int("network.hosts_per_switch", "ring: hosts per switch", 1, 1000, &FabricConfig::hosts_per_switch));
  K ring_routing{"network.ring_routing", "string",
                 "ring: clockwise (flows wrap around: a cyclic buffer dependency) | up-down (never across the wrap cable)",
                 {"clockwise", "up-down"}, nullptr, nullptr};
  ring_routing.set = [](Scenario& s, const std::string& v) {
    check_choice(v, {"clockwise", "up-down"});
    s.options.fabric.ring_routing = v;
  };
  ring_routing.get = [](const O& o) { return o.fabric.ring_routing; };
  r.push_back(ring_routing);
  r.push_back(str("network.from", "fabric: client host (\"h0\")", {}, &O::from));
  r.push_back(str("network.to", "fabric: server host (\"h1\")", {}, &O::to));
  r.push_back(fabric_int("network.sport", "fabric: RoCEv2 UDP source port (ECMP entropy)", 1, 65535, &FabricConfig::udp_sport));
  K routing{"network.routing", "string", "fabric: how switches choose among equal-cost next hops (`rdmasim list`)",
            load_balancer_names(), nullptr, nullptr};
  routing.set = [](Scenario& s, const std::string& v) {
    load_balancer(v);
    s.options.routing = v;
  };
  routing.get = [](const O& o) { return o.routing; };
  r.push_back(routing);
  r.push_back(list("network.degrade", "fabric: links trained down, [\"edge0.0-agg0.0=40Gbps\", ...]", &O::degrade));
  r.push_back(list("network.link_loss", "fabric: links corrupting frames, [\"agg0.0-core0=1e-4\", ...]", &O::link_loss));
  K loss{"network.loss", "number", "fabric: every link corrupts each frame with this probability, both ways (0..1)",
         {}, nullptr, nullptr};
  loss.set = [](Scenario& s, const std::string& v) {
    double x = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !(x >= 0 && x < 1))
      throw std::invalid_argument("expected a probability in [0, 1), got \"" + v + "\"");
    s.options.fabric.loss = x;
  };
  loss.get = [](const O& o) { return number_text(o.fabric.loss); };
  r.push_back(loss);
  r.push_back(list("network.drop_frames", "fabric: frames lost by count from the first node, [\"h0-sw0=50,51\", ...]",
                   &O::drop_frames));
  r.push_back(list("network.drop_burst",
                   "fabric: frames from the first node arriving in [T1, T2) lost, or the first at T1, [\"h0-sw0@20us-30us\", ...]",
                   &O::drop_burst));
  r.push_back(list("network.link_down", "fabric: links going down at T1 (up at T2), [\"agg0.0-core0@100us-5ms\", ...]",
                   &O::link_down));
  K cc{"network.cc", "string", "RDMA congestion control (`rdmasim list`)", rate_control_names(), nullptr, nullptr};
  cc.set = [](Scenario& s, const std::string& v) {
    rate_control(v);  // the registry's names now, including any registered since the table was built
    s.options.cc = v;
  };
  cc.get = [](const O& o) { return o.cc; };
  r.push_back(cc);
  r.push_back(str("network.tcp_cc", "packet-level TCP congestion control (--transport tcp over a fabric): reno | dctcp",
                  {"reno", "dctcp"}, &O::tcp_cc));
  r.push_back(str("memory.mem", "where the buffers live: host | gpu | CLIENT,SERVER (e.g. \"gpu,host\")",
                  {"host", "gpu", "host,gpu", "gpu,host", "host,host", "gpu,gpu"}, &O::mem));
  r.push_back(toggle("memory.gpudirect", "the NIC DMAs GPU memory peer-to-peer (false: staged through host buffers)",
                     &O::gpudirect));
  K chunk{"memory.staging_chunk", "bytes", "staged path: pipeline chunk size (a multiple of the MTU; absent: whole message)",
          {}, nullptr, nullptr};
  chunk.set = [](Scenario& s, const std::string& v) { s.options.staging_chunk = v; };
  chunk.get = [](const O& o) { return o.staging_chunk.empty() ? std::string("(none: non-pipelined)") : o.staging_chunk; };
  r.push_back(chunk);
  r.push_back(str("coalescing.rx_usecs", "interrupt coalescing timer, e.g. \"8us\" (turns coalescing on)", {}, &O::rx_usecs));
  r.push_back(integer("coalescing.rx_frames", "interrupt coalescing frame count (turns coalescing on)", 1, 65535,
                      &O::rx_frames));
  r.push_back(toggle("coalescing.adaptive_rx", "adaptive moderation: interrupt at once when the last one is old",
                     &O::adaptive_rx));
  r.push_back(integer("connection.reuse", "lat: a new RC connection every N exchanges, timed (1 = per message)", 1,
                      1'000'000'000, &O::conn_reuse));
  r.push_back(flag("connection.qp_pool", "lat: connections pre-built outside the timed loop", &O::qp_pool));
  r.push_back(str("profile", "parameter profile: default | seed-demo | cx6-200g", {"default", "seed-demo", "cx6-200g"},
                  &O::profile));
  r.push_back(str("host_profile", "host profile TOML from `rdmasim calibrate` (applied before [params])", {},
                  &O::host_profile));
  // [outputs]: the files a `run` writes (paths relative to the working directory, as on the
  // command line); compare, sweep and the HTTP API refuse them.
  const auto path_key = [](std::string path, std::string help, std::string ExportOptions::*f) {
    K k{std::move(path), "string", std::move(help), {}, nullptr, nullptr};
    k.set = [f](Scenario& s, const std::string& v) {
      if (v.empty()) throw std::invalid_argument("expected a file path, got \"\"");
      s.options.exports.*f = v;
    };
    k.get = [f](const O& o) { return o.exports.*f; };
    return k;
  };
  r.push_back(path_key("outputs.trace", "write a Perfetto / Chrome trace of the first messages here (--trace)",
                       &ExportOptions::trace_path));
  K trace_messages{"outputs.trace_messages", "int", "trace the first N messages posted (--trace-messages)", {}, nullptr, nullptr};
  trace_messages.set = [](Scenario& s, const std::string& v) { s.options.exports.trace_messages = to_int(v, 1, 1'000'000); };
  trace_messages.get = [](const O& o) { return std::to_string(o.exports.trace_messages); };
  r.push_back(trace_messages);
  r.push_back(path_key("outputs.pcap", "write a pcapng capture here (--pcap)", &ExportOptions::pcap_path));
  K pcap_ports{"outputs.pcap_ports", "list", "capture these fabric ports, [\"edge0.0->h1\", ...] (--pcap-port)", {}, nullptr, nullptr};
  pcap_ports.set = [](Scenario& s, const std::string& v) { s.options.exports.pcap_ports.push_back(v); };
  pcap_ports.get = [](const O&) { return std::string("[]"); };
  r.push_back(pcap_ports);
  K pcap_frames{"outputs.pcap_frames", "int", "write at most N frames (--pcap-frames)", {}, nullptr, nullptr};
  pcap_frames.set = [](Scenario& s, const std::string& v) { s.options.exports.pcap_frames = to_int(v, 1, INT64_MAX); };
  pcap_frames.get = [](const O& o) { return std::to_string(o.exports.pcap_frames); };
  r.push_back(pcap_frames);
  K csv{"outputs.csv", "string", "write the CSV tables into this directory (--csv)", {}, nullptr, nullptr};
  csv.set = [](Scenario& s, const std::string& v) {
    if (v.empty()) throw std::invalid_argument("expected a directory, got \"\"");
    s.options.csv = v;
  };
  csv.get = [](const O& o) { return o.csv; };
  r.push_back(csv);
  K interval{"outputs.sample_interval", "string", "timeseries.csv slice length, e.g. \"10us\" (--sample-interval)", {},
             nullptr, nullptr};
  interval.set = [](Scenario& s, const std::string& v) {
    if (parse_time(v) <= Time::zero()) throw std::invalid_argument("must be > 0, got \"" + v + "\"");
    s.options.sample_interval = v;
  };
  interval.get = [](const O& o) { return o.sample_interval.empty() ? std::string("(adaptive)") : o.sample_interval; };
  r.push_back(interval);
  r.push_back(list("outputs.watch", "fabric ports whose queue goes to timeseries.csv, [\"edge0.0->h0\", ...] (--watch)",
                   &O::watch));
  K seed{"seed", "int", "seed of every random stream", {}, nullptr, nullptr};
  seed.set = [](Scenario& s, const std::string& v) {
    s.options.seed = static_cast<std::uint64_t>(to_int(v, 0, INT64_MAX));
  };
  seed.get = [](const O& o) { return std::to_string(o.seed); };
  r.push_back(seed);
  return r;
}

// Which command a key is for (the command line only offers it there).
bool allowed(const std::string& key, Command c) {
  static const std::vector<std::string> coll{"workload.algo",      "workload.nodes",     "workload.gpus",
                                             "workload.gpudirect", "workload.min_bytes", "workload.max_bytes",
                                             "workload.step_factor", "workload.warmup"};
  if (std::find(coll.begin(), coll.end(), key) != coll.end()) return c == Command::allreduce;
  if (key == "workload.post_list" || key == "workload.cq_mod" || key == "workload.qps" ||
      key == "workload.bidirectional" || key == "workload.duration" || key == "workload.margin" || key == "workload.outs")
    return c == Command::bw;
  if (c == Command::allreduce)  // its own workload keys, the network (not the single flow's ends), profile, seed
    return (key.rfind("workload.", 0) != 0 || key == "workload.iters") && key.rfind("toggles.", 0) != 0 &&
           key.rfind("outputs.", 0) != 0 &&
           key.rfind("memory.", 0) != 0 && key.rfind("coalescing.", 0) != 0 && key.rfind("connection.", 0) != 0 &&
           key != "network.from" && key != "network.to";
  if (key == "workload.tx_depth" || key == "workload.pattern" || key == "workload.incast" || key == "workload.seeds" ||
      key == "workload.stride")
    return c == Command::bw;
  if (key == "workload.stages") return c == Command::budget;
  if (key.rfind("connection.", 0) == 0) return c == Command::lat;
  if (key.rfind("outputs.", 0) == 0) return c == Command::lat || c == Command::bw;
  if (key == "workload.iters" || key == "seed") return c != Command::budget;
  return true;
}

const std::vector<std::string>& top_level() {
  static const std::vector<std::string> t{"name", "description", "command", "seed", "profile", "host_profile",
                                          "workload", "toggles", "network", "params", "memory", "coalescing",
                                          "connection", "outputs"};
  return t;
}

// One leaf of the document: its key path, value as text, kind and location.
struct Leaf {
  std::string key, text, kind, where;  // kind: string | integer | float | boolean | array | table (empty)
  std::vector<std::string> items;      // array elements (strings)
};

std::string loc(const std::string& file, const toml::source_region& r) {
  return file + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
}

void flatten_toml(const toml::table& t, const std::string& prefix, const std::string& file, std::vector<Leaf>& out) {
  for (const auto& [k, node] : t) {
    const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    Leaf l{key, "", "", loc(file, node.source()), {}};
    if (const toml::table* sub = node.as_table()) {
      if (sub->empty()) out.push_back({key, "", "table", l.where, {}});  // checked like a key: [foo] is an error
      flatten_toml(*sub, key, file, out);
      continue;
    }
    if (auto s = node.value_exact<std::string>()) l.kind = "string", l.text = *s;
    else if (auto i = node.value_exact<std::int64_t>()) l.kind = "integer", l.text = std::to_string(*i);
    else if (auto d = node.value_exact<double>()) l.kind = "float", l.text = number_text(*d);
    else if (auto b = node.value_exact<bool>()) l.kind = "boolean", l.text = *b ? "true" : "false";
    else if (const toml::array* a = node.as_array()) {
      l.kind = "array";
      for (const toml::node& e : *a) {
        auto s = e.value_exact<std::string>();
        if (!s) throw std::invalid_argument(loc(file, e.source()) + ": " + key + ": expected an array of strings");
        l.items.push_back(*s);
      }
    } else {
      throw std::invalid_argument(l.where + ": " + key + ": unsupported value type (dates and times are not used)");
    }
    out.push_back(std::move(l));
  }
}

void flatten_json(const nlohmann::json& j, const std::string& prefix, const std::string& file, std::vector<Leaf>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    const nlohmann::json& v = it.value();
    Leaf l{key, "", "", file + ": " + key, {}};
    if (v.is_object()) {
      if (v.empty()) out.push_back({key, "", "table", l.where, {}});
      flatten_json(v, key, file, out);
      continue;
    }
    if (v.is_string()) l.kind = "string", l.text = v.get<std::string>();
    else if (v.is_number_unsigned()) l.kind = "integer", l.text = std::to_string(v.get<std::uint64_t>());
    else if (v.is_number_integer()) l.kind = "integer", l.text = std::to_string(v.get<std::int64_t>());
    else if (v.is_number_float()) l.kind = "float", l.text = number_text(v.get<double>());
    else if (v.is_boolean()) l.kind = "boolean", l.text = v.get<bool>() ? "true" : "false";
    else if (v.is_array()) {
      l.kind = "array";
      for (const auto& e : v) {
        if (!e.is_string()) throw std::invalid_argument(l.where + ": expected an array of strings");
        l.items.push_back(e.get<std::string>());
      }
    } else {
      throw std::invalid_argument(l.where + ": unsupported value (null)");
    }
    out.push_back(std::move(l));
  }
}

const ScenarioKey* find_key(const std::string& path) {
  for (const ScenarioKey& k : scenario_keys())
    if (k.path == path) return &k;
  return nullptr;
}

std::string keys_in(const std::string& table) {
  std::string list;
  for (const ScenarioKey& k : scenario_keys())
    if (k.path.rfind(table + ".", 0) == 0) list += (list.empty() ? "" : ", ") + k.path.substr(table.size() + 1);
  return list;
}

// Applies one leaf; `kind_ok` is the type check the key's declared type demands.
void apply_leaf(Scenario& s, const Leaf& l) {
  const std::string& key = l.key;
  auto fail = [&](const std::string& m) { throw std::invalid_argument(l.where + ": " + key + ": " + m); };
  if (key == "name" || key == "description") {
    if (l.kind != "string") fail("expected a string");
    (key == "name" ? s.name : s.description) = l.text;
    return;
  }
  if (key == "command") return;  // read first
  if (l.kind == "table") {  // an empty table: fine where keys could be, an error elsewhere
    const bool params = key == "params" || (key.rfind("params.", 0) == 0 &&
                                            std::any_of(profile_params().begin(), profile_params().end(), [&](const ParamDef& d) {
                                              return d.key.rfind(key.substr(7) + ".", 0) == 0;
                                            }));
    const bool table = std::any_of(scenario_keys().begin(), scenario_keys().end(),
                                   [&](const ScenarioKey& k) { return k.path.rfind(key + ".", 0) == 0; });
    if (!params && !table) fail("unknown table");
    return;
  }
  if (key.rfind("params.", 0) == 0) {
    const std::string param = key.substr(7);
    if (l.kind == "array") fail("expected a value, not an array");
    const std::string text = l.kind == "boolean" ? (l.text == "true" ? "on" : "off") : l.text;
    Profile probe;  // checks the key and the value's syntax now, with this location
    try {
      apply_override(probe, param + "=" + text);
    } catch (const std::invalid_argument& e) {
      const std::string m = e.what();
      throw std::invalid_argument(l.where + ": " + (m.rfind(param + ":", 0) == 0 ? "params." + m : m));
    }
    s.options.sets.push_back(param + "=" + text);
    s.where[key] = l.where;
    return;
  }
  const ScenarioKey* k = find_key(key);
  if (!k) {
    const auto dot = key.find('.');
    const std::string table = dot == std::string::npos ? "" : key.substr(0, dot);
    if (table == "workload" || table == "toggles" || table == "network" || table == "memory" || table == "coalescing" ||
        table == "connection" || table == "outputs")
      fail("unknown key (valid in [" + table + "]: " + keys_in(table) + ")");
    std::string valid;
    for (const std::string& t : top_level()) valid += (valid.empty() ? "" : ", ") + t;
    fail("unknown key (valid at the top level: " + valid + ")");
  }
  if (!allowed(key, s.command))
    fail("not used by command \"" +
         std::string(s.command == Command::bw           ? "bw"
                     : s.command == Command::budget     ? "budget"
                     : s.command == Command::allreduce ? "allreduce"
                                                        : "lat") +
         "\"");
  const std::string& t = k->type;
  if (t == "int" && l.kind != "integer") fail("expected an integer, got " + l.kind + " " + l.text);
  if (t == "bool" && l.kind != "boolean") fail("expected true or false, got " + l.kind + " " + l.text);
  if (t == "string" && l.kind != "string") fail("expected a string, got " + l.kind + " " + l.text);
  if (t == "bytes" && l.kind != "string" && l.kind != "integer") fail("expected a size like 4096 or \"4KiB\"");
  if (t == "list" && l.kind != "array") fail("expected an array of strings");
  try {
    if (t == "list")
      for (const std::string& item : l.items) k->set(s, item);
    else
      k->set(s, l.text);
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  s.where[key] = l.where;
}

Scenario from_leaves(const std::vector<Leaf>& leaves, const std::string& name) {
  Scenario s;
  s.path = name;
  const Leaf* cmd = nullptr;
  for (const Leaf& l : leaves) {
    const std::string top = l.key.substr(0, l.key.find('.'));
    if (std::find(top_level().begin(), top_level().end(), top) == top_level().end()) {
      std::string valid;
      for (const std::string& t : top_level()) valid += (valid.empty() ? "" : ", ") + t;
      throw std::invalid_argument(l.where + ": " + l.key + ": unknown key (valid at the top level: " + valid + ")");
    }
    if (l.key == "command") cmd = &l;
  }
  if (!cmd) throw std::invalid_argument(name + ": missing required key \"command\" (lat, bw, budget or allreduce)");
  if (cmd->kind != "string") throw std::invalid_argument(cmd->where + ": command: expected a string");
  if (cmd->text == "lat") s.command = Command::lat;
  else if (cmd->text == "budget") s.command = Command::budget;
  else if (cmd->text == "bw") {
    s.command = Command::bw;
    s.options.size = 65536;  // the bw command's defaults
    s.options.iters = 5000;
  } else if (cmd->text == "allreduce") {
    s.command = Command::allreduce;
    set_allreduce_defaults(s.options);
  } else {
    throw std::invalid_argument(cmd->where + ": command: unknown command \"" + cmd->text +
                                "\" (valid: lat, bw, budget, allreduce)");
  }
  for (const Leaf& l : leaves) apply_leaf(s, l);
  return s;
}

}  // namespace

const std::vector<ScenarioKey>& scenario_keys() {
  static const std::vector<ScenarioKey> keys = build_keys();
  return keys;
}

Scenario parse_scenario(std::string_view text, const std::string& name, bool json) {
  std::vector<Leaf> leaves;
  if (json) {
    config::check_json_nesting(text, name);
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      throw std::invalid_argument(name + ": byte " + std::to_string(e.byte) + ": invalid JSON");
    } catch (const nlohmann::json::exception& e) {  // e.g. a number out of range (found by the fuzzer)
      throw std::invalid_argument(name + ": invalid JSON: " + e.what());
    }
    if (!j.is_object()) throw std::invalid_argument(name + ": expected a JSON object");
    flatten_json(j, "", name, leaves);
  } else {
    config::check_toml_nesting(text, name);
    toml::table doc;
    try {
      doc = toml::parse(text, std::string_view(name));
    } catch (const toml::parse_error& e) {
      throw std::invalid_argument(loc(name, e.source()) + ": " + std::string(e.description()));
    }
    flatten_toml(doc, "", name, leaves);
  }
  return from_leaves(leaves, name);
}

Scenario load_scenario(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument(path + ": cannot read the scenario file");
  std::stringstream ss;
  ss << f.rdbuf();
  const bool json = path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  return parse_scenario(ss.str(), path, json);
}

void apply_scenario_override(Scenario& s, std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw std::invalid_argument("expected key=value, got \"" + std::string(assignment) + "\"");
  std::string key(assignment.substr(0, eq));
  const std::string value(assignment.substr(eq + 1));
  if (!find_key(key) && key.rfind("params.", 0) != 0) key = "params." + key;  // a bare profile parameter
  const ScenarioKey* k = find_key(key);
  Leaf l{key, value, "string", "override " + std::string(assignment), {}};
  if (k && k->type == "int") l.kind = "integer";
  if (k && k->type == "bool") l.kind = "boolean";
  if (k && k->type == "list") l.kind = "array", l.items = {value};
  apply_leaf(s, l);
}

LatConfig scenario_config(const Scenario& s) {
  try {
    LatOptions o = s.options;
    if (s.command == Command::allreduce) o.iters = 1000;  // its iterations are checked by to_allreduce_config
    LatConfig c = to_config(o);
    if (s.command == Command::allreduce) to_allreduce_config(s.options);
    if (s.command == Command::bw && s.options.loss_sweep.empty())  // the bw test's own checks, before anything prints
      s.options.pattern.empty() ? static_cast<void>(to_bw_config(s.options)) : static_cast<void>(to_traffic_config(s.options));
    if (c.topology == LatTopology::fabric) FabricNetwork::make_topology(c);  // topology errors now, not mid-run
    return c;
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    for (const auto& [key, where] : s.where) {
      const std::string bare = key.rfind("params.", 0) == 0 ? key.substr(7) : key;
      if (m.rfind(bare + ":", 0) == 0) throw std::invalid_argument(where + ": " + key + m.substr(bare.size()));
    }
    throw std::invalid_argument(s.path + ": " + m);
  }
}

void refuse_outputs(const Scenario& s, const std::string& why) {
  for (const auto& [key, where] : s.where)
    if (key.rfind("outputs.", 0) == 0) throw std::invalid_argument(where + ": " + key + ": " + why);
}

std::string scenario_format_markdown() {
  std::ostringstream o;
  o << "# Scenario file format\n\n"
    << "<!-- Generated by `rdmasim list --scenario-format` from the key table in src/config/scenario.cpp and\n"
    << "     the profile parameters in src/model/profile.cpp. Do not edit: `make docs` regenerates it, and CI fails\n"
    << "     when it is stale. -->\n\n"
    << "A scenario is a TOML file (or the same tree as JSON, for the HTTP API) that describes one run of\n"
    << "`rdmasim lat`, `bw`, `budget` or `allreduce`: `rdmasim run FILE`, `rdmasim compare A B ...`, `rdmasim sweep FILE\n"
    << "--param key=v1,v2`. Every key has the meaning of the command-line option of the same name; values\n"
    << "with units are strings (`\"4KiB\"`, `\"100Gbps\"`, `\"1.5us\"`, `\"2m\"`) parsed strictly. Errors name\n"
    << "the file, line and column and the key path, and nothing runs.\n\n"
    << "```toml\nname = \"RDMA WRITE over a fat-tree\"\ncommand = \"lat\"\nseed = 1\n\n[workload]\nsize = \"4KiB\"\niters = 1000\n\n"
    << "[network]\ntopology = \"fat-tree\"\nk = 4\nto = \"h15\"\n\n[params]\nswitch.pipeline = \"400ns\"\n"
    << "link.rate = \"100Gbps\"\n```\n\n"
    << "## Keys\n\n| key | type | default | meaning |\n|---|---|---|---|\n"
    << "| `command` | string | (required) | lat, bw, budget or allreduce |\n"
    << "| `name`, `description` | string | \"\" | shown in reports |\n";
  const LatOptions def;
  for (const ScenarioKey& k : scenario_keys()) {
    o << "| `" << k.path << "` | " << k.type << " | " << (k.get ? k.get(def) : "") << " | " << k.help;
    if (!k.choices.empty()) {
      o << " (";
      for (std::size_t i = 0; i < k.choices.size(); ++i) o << (i ? ", " : "") << (k.choices[i].empty() ? "\"\"" : k.choices[i]);
      o << ")";
    }
    o << " |\n";
  }
  o << "\n## Parameters: `[params]`\n\nAny profile parameter, as a nested table (`[params.switch]` / `buffer = \"2MiB\"`)\n"
    << "or a dotted key (`switch.buffer = \"2MiB\"`). Defaults are the `default` profile's.\n\n"
    << "| key | type | default | meaning | source |\n|---|---|---|---|---|\n";
  const Profile p = make_profile("default");
  for (const ParamDef& d : profile_params())
    o << "| `params." << d.key << "` | " << d.type << " | " << d.get(p) << " | " << d.help << " | " << d.source << " |\n";
  return o.str();
}

}  // namespace rdmasim::config
