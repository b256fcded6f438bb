#include "config/options.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <tuple>

#include "config/host_profile.hpp"
#include "model/path.hpp"
#include "rdmasim/collective.hpp"
#include "rdmasim/load_balancer.hpp"
#include "rdmasim/rate_control.hpp"
#include "rdmasim/server.hpp"
#include "rdmasim/traffic_pattern.hpp"

namespace rdmasim::config {
namespace {

// "edge0.0-agg0.0=40Gbps" -> the two node names and the value.
std::tuple<std::string, std::string, std::string> link_assignment(const std::string& v, const char* flag) {
  const auto eq = v.find('='), dash = v.find('-');
  if (eq == std::string::npos || dash == std::string::npos || dash == 0 || dash + 1 >= eq || eq + 1 >= v.size())
    throw std::invalid_argument(std::string(flag) + ": expected NODE-NODE=VALUE, got \"" + v + "\"");
  return {v.substr(0, dash), v.substr(dash + 1, eq - dash - 1), v.substr(eq + 1)};
}

// "agg0.0-core0@100us-5ms" -> the two node names, T1 and (if given) T2.
struct LinkTimes {
  std::string a, b;
  Time t1{};
  std::optional<Time> t2;
};
LinkTimes link_times(const std::string& d, const char* flag) {
  const auto at = d.find('@'), dash = d.find('-');
  if (at == std::string::npos || dash == std::string::npos || dash == 0 || dash + 1 >= at || at + 1 >= d.size())
    throw std::invalid_argument(std::string(flag) + ": expected NODE-NODE@T1 or NODE-NODE@T1-T2, got \"" + d + "\"");
  LinkTimes r{d.substr(0, dash), d.substr(dash + 1, at - dash - 1), {}, std::nullopt};
  const std::string times = d.substr(at + 1);
  const auto t2 = times.find('-');
  try {
    r.t1 = parse_time(times.substr(0, t2));
    if (t2 != std::string::npos) r.t2 = parse_time(times.substr(t2 + 1));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(flag) + ": " + e.what());
  }
  if (r.t1 < Time::zero()) throw std::invalid_argument(std::string(flag) + ": the time must not be negative");
  return r;
}

std::optional<bool> on_off(const std::string& v, const char* flag) {
  if (v.empty()) return std::nullopt;
  if (v == "on") return true;
  if (v == "off") return false;
  throw std::invalid_argument(std::string(flag) + ": expected on or off, got \"" + v + "\"");
}

}  // namespace

std::vector<std::string> rate_control_names() {
  std::vector<std::string> n;
  for (const RateControlSpec* s : rate_controls()) n.push_back(s->name);
  return n;
}

std::vector<std::string> load_balancer_names() {
  std::vector<std::string> n;
  for (const LoadBalancerSpec* s : load_balancers()) n.push_back(s->name);
  return n;
}

std::string choices_text(const std::vector<std::string>& names) {
  std::string t;
  for (const std::string& n : names) t += (t.empty() ? "" : " | ") + n;
  return t;
}

Time parse_seconds_or_time(const std::string& text, const char* option) {
  const bool plain = !text.empty() && text.find_first_not_of("0123456789.") == std::string::npos;
  try {
    return parse_time(plain ? text + "s" : text);
  } catch (const std::invalid_argument& e) {
    if (option == nullptr) throw;
    throw std::invalid_argument(std::string(option) + ": " + e.what());
  }
}

void apply_gpu_options(const ScenarioOptions& o, LatConfig& c) {
  auto mem = [](const std::string& v) {
    if (v == "host") return MemKind::host;
    if (v == "gpu" || v == "cuda") return MemKind::gpu;
    throw std::invalid_argument("--mem: expected host, gpu or CLIENT,SERVER (e.g. gpu,host), got \"" + v + "\"");
  };
  if (!o.mem.empty()) {
    const auto comma = o.mem.find(',');
    if (comma == std::string::npos) {
      c.gpu.mem[0] = c.gpu.mem[1] = mem(o.mem);
    } else {
      c.gpu.mem[0] = mem(o.mem.substr(0, comma));
      c.gpu.mem[1] = mem(o.mem.substr(comma + 1));
    }
  }
  if (!o.use_cuda.empty()) {
    int n = -1;
    const auto [end, ec] = std::from_chars(o.use_cuda.data(), o.use_cuda.data() + o.use_cuda.size(), n);
    if (ec != std::errc() || end != o.use_cuda.data() + o.use_cuda.size() || n < 0)
      throw std::invalid_argument("--use-cuda: expected a GPU index like 0, got \"" + o.use_cuda + "\"");
    if (n != 0) throw std::invalid_argument("--use-cuda=" + o.use_cuda + ": a host has one GPU in this model (index 0)");
    if (!o.mem.empty() && o.mem != "gpu") throw std::invalid_argument("--use-cuda means --mem gpu; drop one of them");
    c.gpu.mem[0] = c.gpu.mem[1] = MemKind::gpu;
  }
  c.gpu.gpudirect = on_off(o.gpudirect, "--gpudirect");
  if (!o.staging_chunk.empty()) {
    Bytes b{};
    const std::string& v = o.staging_chunk;
    try {
      b = parse_byte_count(v);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--staging-chunk: ") + e.what());
    }
    c.gpu.staging_chunk = b;
  }
  if (!o.rx_usecs.empty()) {
    try {
      c.profile.nic.rx_usecs = parse_time(o.rx_usecs);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--rx-usecs: ") + e.what());
    }
    c.toggles.interrupt_coalescing = true;
  }
  if (o.rx_frames != -1) {
    if (o.rx_frames < 1 || o.rx_frames > 65535)
      throw std::invalid_argument("--rx-frames: must be 1..65535, got " + std::to_string(o.rx_frames));
    c.profile.nic.rx_frames = static_cast<int>(o.rx_frames);
    c.toggles.interrupt_coalescing = true;
  }
  if (auto v = on_off(o.adaptive_rx, "--adaptive-rx")) {
    c.profile.nic.adaptive_rx = *v;
    if (*v) c.toggles.interrupt_coalescing = true;
  }
  if (o.connect_per_msg && o.conn_reuse > 1)
    throw std::invalid_argument("--connect-per-msg is --conn-reuse 1; drop one of them");
  if (o.conn_reuse < 0) throw std::invalid_argument("--conn-reuse: must be at least 1, got " + std::to_string(o.conn_reuse));
  c.conn.reuse = o.connect_per_msg ? 1 : o.conn_reuse;
  c.conn.pool = o.qp_pool;
  if (c.conn.pool && c.conn.reuse > 0)
    throw std::invalid_argument("--qp-pool pre-builds the connections; it contradicts --connect-per-msg / --conn-reuse");
}

namespace {
// A server fabric's endpoint by what it holds: "s3.gpu5" (GPU 5's memory, through the NIC it
// sends with, g mod N, over its placement's PCIe path) or "s3" (host memory, through NIC 0).
// Sets that side's buffer; -1 for any other name.
int server_endpoint(const Topology& t, const std::string& name, const char* flag, LatConfig& c, int side) {
  if (t.server_count() == 0 || t.find_host(name) >= 0) return -1;  // a host's own name is that host
  const std::size_t dot = name.rfind(".gpu");
  const std::string srv = dot == std::string::npos ? name : name.substr(0, dot);
  const int nics = t.server_nics(0);
  if (dot == std::string::npos) {  // "s3": host memory behind the server's first NIC
    const int h = t.find_host(Topology::port_name(srv, 0, 0, t.planes()));
    if (h >= 0) c.gpu.mem[side] = MemKind::host;
    return h;
  }
  const std::string digits = name.substr(dot + 4);
  if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
  const int g = std::stoi(digits);
  const ServerSpec* spec = c.fabric.server.empty() ? nullptr : &server(c.fabric.server);
  const int gpus = spec != nullptr ? spec->gpus : nics;
  if (g >= gpus)
    throw std::invalid_argument(std::string(flag) + ": " + name + ": the servers have " + std::to_string(gpus) + " GPUs (gpu0..gpu" +
                                std::to_string(gpus - 1) + ")");
  const int h = t.find_host(Topology::port_name(srv, g % nics, 0, t.planes()));
  if (h < 0) return -1;
  c.gpu.mem[side] = MemKind::gpu;
  if (spec != nullptr) c.gpu.placement[side] = spec->gpu_path(g);
  return h;
}
}  // namespace

LatConfig to_config(const ScenarioOptions& o) {
  LatConfig c;
  c.transport = o.transport == "tcp" ? Transport::tcp : Transport::rdma;
  if (c.transport == Transport::tcp && (!o.kernel_bypass.empty() || !o.zero_copy.empty() || !o.inline_data.empty()))
    throw std::invalid_argument(
        "--kernel-bypass, --zero-copy and --inline are RDMA switches; TCP always goes through the kernel and copies");
  if (o.test.empty())
    c.test = c.transport == Transport::tcp ? TestKind::send : TestKind::write;
  else
    c.test = o.test == "read" ? TestKind::read : o.test == "send" ? TestKind::send : TestKind::write;
  c.size = Bytes(o.size);
  c.iters = o.iters;
  c.link_layer = o.link_layer == "ib" ? LinkLayer::ib : LinkLayer::roce;
  c.mtu = Bytes(o.mtu);
  c.topology = o.topology == "loopback"       ? LatTopology::loopback
               : o.topology == "back-to-back" ? LatTopology::back_to_back
                                              : LatTopology::fabric;
  c.fabric = o.fabric;
  c.fabric.topology = o.topology;
  c.fabric.routing = o.routing;
  c.fabric.cc = o.cc;
  c.fabric.tcp_cc = o.tcp_cc;
  if (o.topology == "file") {
    if (o.fabric.topology_file.empty()) throw std::invalid_argument("--topology file needs --topology-file PATH");
    const std::optional<std::string> text = read_text_file(o.fabric.topology_file);
    if (!text) throw std::invalid_argument("--topology-file: cannot read \"" + o.fabric.topology_file + "\"");
    c.fabric.topology_text = *text;
  } else if (!o.fabric.topology_file.empty()) {
    throw std::invalid_argument("--topology-file: needs --topology file (the topology is " + o.topology + ")");
  }
  auto host = [](const std::string& v, const char* flag) {
    const int n = Topology::host_number(v);
    if (n < 0) throw std::invalid_argument(std::string(flag) + ": expected a host like h3, got \"" + v + "\"");
    return n;
  };

  for (const std::string& d : o.degrade) {
    auto [a, b, value] = link_assignment(d, "--degrade");
    LinkFault f{a, b, {}, 0, {}, {}};
    try {
      f.rate = parse_rate(value);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--degrade: ") + e.what());
    }
    if (f.rate.bits_per_sec() < 1'000'000) throw std::invalid_argument("--degrade: the rate must be at least 1Mbps");
    c.fabric.faults.push_back(f);
  }
  for (const std::string& d : o.link_loss) {
    auto [a, b, value] = link_assignment(d, "--link-loss");
    char* end = nullptr;
    const double p = std::strtod(value.c_str(), &end);
    if (end != value.c_str() + value.size() || !(p > 0 && p <= 1))
      throw std::invalid_argument("--link-loss: expected a probability in (0, 1], got \"" + value + "\"");
    c.fabric.faults.push_back(LinkFault{a, b, {}, p, {}, {}});
  }
  for (const std::string& d : o.drop_frames) {
    auto [a, b, value] = link_assignment(d, "--drop-frames");
    LinkFault f{a, b, {}, 0, {}, {}};
    std::size_t at = 0;
    while (at <= value.size()) {
      const std::size_t comma = std::min(value.find(',', at), value.size());
      const std::string n = value.substr(at, comma - at);
      char* end = nullptr;
      const unsigned long long x = std::strtoull(n.c_str(), &end, 10);
      if (n.empty() || end != n.c_str() + n.size() || x < 1 || n[0] == '-')
        throw std::invalid_argument("--drop-frames: expected frame numbers like 50 or 50,51 (1-based), got \"" + value + "\"");
      f.drop_frames.push_back(x);
      at = comma + 1;
    }
    c.fabric.faults.push_back(f);
  }
  for (const std::string& d : o.link_down) {
    const LinkTimes lt = link_times(d, "--link-down");
    c.fabric.outages.push_back(LinkOutage{lt.a, lt.b, lt.t1, lt.t2 ? *lt.t2 : Time::max()});
  }
  for (const std::string& d : o.drop_burst) {
    const LinkTimes lt = link_times(d, "--drop-burst");
    if (lt.t2 && *lt.t2 <= lt.t1) throw std::invalid_argument("--drop-burst: " + d + ": the burst must end after it starts");
    LinkFault f{lt.a, lt.b, {}, 0, {}, {}};
    f.drop_windows.emplace_back(lt.t1, lt.t2 ? *lt.t2 : lt.t1);
    c.fabric.faults.push_back(f);
  }
  if (!(c.fabric.loss >= 0 && c.fabric.loss < 1))
    throw std::invalid_argument("--loss: expected a probability in [0, 1), got " + std::to_string(c.fabric.loss));
  // Packet-level TCP runs over the fabric model: a lossy back-to-back cable is its one-cable topology.
  if ((!c.fabric.faults.empty() || c.fabric.loss > 0) && c.topology == LatTopology::back_to_back &&
      c.transport == Transport::tcp)
    c.topology = LatTopology::fabric;
  if ((!c.fabric.faults.empty() || c.fabric.loss > 0) && c.topology != LatTopology::fabric)
    throw std::invalid_argument("--degrade/--link-loss/--loss/--drop-frames/--drop-burst need a switched --topology");
  if (!c.fabric.outages.empty() && c.topology != LatTopology::fabric)
    throw std::invalid_argument("--link-down needs a switched --topology");
  const bool named = c.topology == LatTopology::fabric;  // by name in the topology, below
  c.fabric.from = named ? -1 : o.from.empty() ? 0 : host(o.from, "--from");
  c.fabric.to = named ? -1 : o.to.empty() ? 1 : host(o.to, "--to");
  if (o.fabric.server.empty()) {
    c.profile = make_profile(o.profile);
  } else {  // the server's NIC profile and its own parameters, under the scenario's
    const ServerSpec& srv = server(o.fabric.server);
    if (o.profile != "default")
      throw std::invalid_argument("--profile " + o.profile + ": the server " + srv.name + " brings its NIC profile (" +
                                  srv.profile + "); change its parameters with --set");
    c.profile = make_profile(srv.profile);
    for (const std::string& s : srv.sets) apply_override(c.profile, s);
    if (c.fabric.nics_per_server == 0) c.fabric.nics_per_server = srv.nics;  // --nics-per-server: fewer cabled
  }
  if (!o.host_profile.empty()) apply_host_profile(c.profile, o.host_profile);
  for (const std::string& s : o.sets) apply_override(c.profile, s);
  if (!o.recovery.empty()) {
    if (std::any_of(o.sets.begin(), o.sets.end(), [](const std::string& s) { return s.rfind("rc.selective_repeat", 0) == 0; }))
      throw std::invalid_argument("--transport-recovery sets rc.selective_repeat; drop one of them");
    c.profile.rc.selective_repeat = o.recovery == "selective-repeat";
  }
  c.seed = o.seed;
  c.record_samples = !o.csv.empty();
  if (auto v = on_off(o.kernel_bypass, "--kernel-bypass")) c.toggles.kernel_bypass = *v;
  if (auto v = on_off(o.zero_copy, "--zero-copy")) c.toggles.zero_copy = *v;
  if (auto v = on_off(o.interrupt_coalescing, "--interrupt-coalescing")) c.toggles.interrupt_coalescing = *v;
  c.toggles.busy_poll = on_off(o.busy_poll, "--busy-poll");
  c.toggles.inline_data = on_off(o.inline_data, "--inline");
  apply_gpu_options(o, c);
  if (named) {  // a host's name ("h3", "s3.nic5", a file's own), a server's GPU ("s3.gpu5") or memory ("s3"), or number
    const auto t = FabricNetwork::make_topology(c);
    int side = 0;
    for (auto [h, name, flag, first] :
         {std::tuple{&c.fabric.from, &o.from, "--from", 0}, std::tuple{&c.fabric.to, &o.to, "--to", 1}})
      if (name->empty()) *h = first, ++side;  // not given: the first or second host, whatever the names
      else if ((*h = server_endpoint(*t, *name, flag, c, side++)) < 0 && (*h = t->find_host(*name)) < 0 &&
               (*h = Topology::host_number(*name)) < 0)  // hN out of range: refused where it is used
        throw std::invalid_argument(std::string(flag) + ": no host \"" + *name + "\" in this " + t->name + " (hosts h0..h" +
                                    std::to_string(t->host_count() - 1) + " or by name: `rdmasim topo` lists the nodes)");
  }
  validate(c);
  return c;
}

BwConfig to_bw_config(const ScenarioOptions& o) {
  if (!o.pattern.empty()) throw std::logic_error("to_bw_config: --pattern runs take to_traffic_config");
  if (o.threads != 0) throw std::invalid_argument("--threads runs a --pattern's fabric on threads; the two-host test runs on one");
  BwConfig b;
  b.base = to_config(o);
  b.tx_depth = o.tx_depth;
  b.post_list = o.post_list;
  b.cq_mod = o.cq_mod;
  b.rx_depth = o.rx_depth;
  b.qps = o.qps;
  b.cores = o.cores;
  b.bidirectional = o.bidirectional;
  b.outstanding_reads = o.outs;
  if (!o.duration.empty()) {
    b.duration = parse_seconds_or_time(o.duration, "-D/--duration");
    if (b.duration <= Time::zero())
      throw std::invalid_argument("-D/--duration: must be more than 0, got \"" + o.duration + "\"");
    if (o.iters_given)
      throw std::invalid_argument("-n/--iters and -D/--duration (workload.iters, workload.duration): give one (a duration run "
                                  "posts until the time is up)");
    b.margin = b.duration / 10;
  }
  if (!o.margin.empty()) {
    if (o.duration.empty()) throw std::invalid_argument("-f/--margin: needs -D/--duration");
    b.margin = parse_seconds_or_time(o.margin, "-f/--margin");
  }
  if (!o.recv_delay.empty()) {
    try {
      b.recv_delay = parse_time(o.recv_delay);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--recv-delay: ") + e.what());
    }
  }
  validate(b);  // the test's own checks, before anything runs or prints
  return b;
}

TrafficConfig to_traffic_config(const ScenarioOptions& o) {
  if (o.post_list != 1 || o.cq_mod != 1)
    throw std::invalid_argument("--post-list/--cq-mod batch the single-QP bw test; --pattern posts one WQE per doorbell");
  if (o.connect_per_msg || o.conn_reuse > 0 || o.qp_pool || o.rx_depth != 0 || !o.recv_delay.empty())
    throw std::invalid_argument("--connect-per-msg/--conn-reuse/--qp-pool/--rx-depth are for the single-QP bw test, not --pattern");
  if (o.qps != 1 || o.cores != 1 || o.bidirectional || !o.duration.empty() || !o.margin.empty())
    throw std::invalid_argument("-q/--qp, --cores, -b/--bidirectional and -D/--duration are for the two-host bw test; --pattern runs "
                                "one QP per flow for --iters messages");
  TrafficConfig t;
  t.base = to_config(o);
  if (t.base.topology != LatTopology::fabric)
    throw std::invalid_argument("--pattern needs a switched --topology (single-switch, leaf-spine, fat-tree, ring)");
  t.pattern = traffic_pattern(o.pattern).name;
  t.incast_senders = o.incast;
  t.stride = o.stride;
  t.tx_depth = o.tx_depth;
  t.threads = o.threads;
  return t;
}

std::vector<std::int64_t> all_sizes() {
  std::vector<std::int64_t> v;
  for (int i = 1; i < 24; ++i) v.push_back(std::int64_t{1} << i);
  return v;
}

std::int64_t parse_nccl_size(const std::string& v, const char* flag) {
  std::int64_t x = 0;
  std::size_t i = 0;
  for (; i < v.size() && v[i] >= '0' && v[i] <= '9'; ++i) {
    if (x > (std::int64_t{1} << 40)) throw std::invalid_argument(std::string(flag) + (*flag ? ": " : "") + "size too large: \"" + v + "\"");
    x = x * 10 + (v[i] - '0');
  }
  std::int64_t unit = 1;
  if (i + 1 == v.size()) {
    const char s = v[i];
    unit = (s == 'K' || s == 'k') ? 1024 : (s == 'M' || s == 'm') ? 1024 * 1024 : (s == 'G' || s == 'g') ? 1024 * 1024 * 1024 : 0;
    ++i;
  }
  if (i == 0 || i != v.size() || unit == 0)
    throw std::invalid_argument(std::string(flag) + (*flag ? ": " : "") + "expected a size like 8, 64K, 32M or 1G, got \"" + v + "\"");
  return x * unit;
}

CollectiveConfig to_collective_config(const ScenarioOptions& l) {
  const CollectiveOptions& o = l.collective;
  CollectiveConfig c;
  ScenarioOptions base = l;
  base.iters = 1000;  // perftest's minimum of 5 does not apply to nccl-tests' -n
  c.base = to_config(base);
  c.op = coll_op(o.op);
  if (!l.fabric.server.empty() && o.gpus > server(l.fabric.server).gpus)
    throw std::invalid_argument("--ngpus " + std::to_string(o.gpus) + ": a " + l.fabric.server + " has " +
                                std::to_string(server(l.fabric.server).gpus) + " GPUs");
  try {
    c.algo = collective(c.op, o.algo).name;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--algo: ") + e.what());
  }
  c.nodes = o.nodes;
  c.gpus = o.gpus;
  c.channels = o.channels;
  c.pxn = o.pxn != "off";
  c.check = o.check != 0;
  c.gpudirect = o.gpudirect != "off";
  c.min_bytes = parse_nccl_size(o.min_bytes, "-b");
  c.max_bytes = parse_nccl_size(o.max_bytes, "-e");
  c.step_factor = o.step_factor;
  if (l.iters < 1 || l.iters > 10000) throw std::invalid_argument("-n: iterations must be 1..10000");
  c.iters = static_cast<int>(l.iters);
  c.warmup = o.warmup;
  c.threads = l.threads;
  return c;
}

std::optional<std::string> read_text_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::nullopt;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

namespace {

// Incast bursts mixed into the flows until `horizon` (zero: just past the last flow's start).
void add_incast_bursts(FlowsConfig& c, const OpenLoopOptions& l, int hosts, Time horizon) {
  if (l.incast_every.empty()) return;
  IncastBursts b;
  b.every = parse_seconds_or_time(l.incast_every, "--incast-every");
  if (b.every <= Time::zero()) throw std::invalid_argument("--incast-every: must be more than 0");
  b.fanin = static_cast<int>(l.incast_fanin);
  b.size = parse_byte_count(l.incast_size);
  b.tc = l.incast_tc;
  if (horizon == Time::zero() && !c.flows.empty()) horizon = c.flows.back().start + Time::ps(1);
  c.flows = merge_flows(c.flows, incast_burst_flows(b, hosts, horizon, c.base.seed));
  if (c.flows.size() > kMaxOpenLoopFlows)
    throw std::invalid_argument("the workload has more than " + std::to_string(kMaxOpenLoopFlows) + " flows");
}

}  // namespace

FlowsConfig to_flows_config(const ScenarioOptions& o) {
  const OpenLoopOptions& l = o.open_loop;
  FlowsConfig c;
  c.base = to_config(o);
  c.log_pfc = !l.pfc_out.empty();
  c.threads = o.threads;
  if (c.base.topology != LatTopology::fabric) throw std::invalid_argument("flows: needs a switched --topology");
  const auto topo = FabricNetwork::make_topology(c.base);
  const int hosts = topo->host_count();
  const OpenLoopOptions defaults;
  if (!l.flow_file.empty()) {
    if (l.cdf != defaults.cdf || l.load != defaults.load || l.count != 0 || !o.duration.empty())
      throw std::invalid_argument("--flow-file lists the flows: drop --cdf/--load/--flows/-D");
    if (l.tc != defaults.tc) throw std::invalid_argument("--flow-tc: the flow file gives each flow's class");
    const std::optional<std::string> text = read_text_file(l.flow_file);
    if (!text) throw std::invalid_argument("--flow-file " + l.flow_file + ": cannot read the file");
    c.flows = parse_flow_file(*text, l.flow_file);
    if (!topo->node_ids.empty())  // an HPCC topology.txt: the flow file names its node ids
      for (std::size_t i = 0; i < c.flows.size(); ++i)
        for (int* end : {&c.flows[i].src, &c.flows[i].dst}) {
          const int id = *end;
          if (id >= static_cast<int>(topo->node_ids.size()) || topo->node_ids[static_cast<std::size_t>(id)] < 0)
            throw std::invalid_argument("--flow-file " + l.flow_file + ": flow " + std::to_string(i + 1) + ": node " +
                                        std::to_string(id) + " is not a host of the topology file");
          *end = topo->node_ids[static_cast<std::size_t>(id)];
        }
    add_incast_bursts(c, l, hosts, Time::zero());
    return c;
  }
  const std::vector<const FlowSizeCdf*> cdfs = flow_size_cdfs();
  const bool named = std::any_of(cdfs.begin(), cdfs.end(), [&](const FlowSizeCdf* d) { return d->name == l.cdf; });
  FlowSizeCdf file;
  if (!named) {
    const std::optional<std::string> text = read_text_file(l.cdf);
    if (!text) {
      std::string names;
      for (const FlowSizeCdf* d : cdfs) names += (names.empty() ? "" : ", ") + d->name;
      throw std::invalid_argument("--cdf: \"" + l.cdf + "\" is neither a distribution (" + names + ") nor a readable file");
    }
    file = parse_flow_size_cdf(*text, l.cdf);
  }
  const Time duration = !o.duration.empty() ? parse_seconds_or_time(o.duration, "-D/--duration")
                        : l.count > 0       ? Time::zero()
                                            : Time::ms(1);
  if (!o.duration.empty() && duration <= Time::zero()) throw std::invalid_argument("-D/--duration: must be more than 0");
  c.flows = poisson_flows(named ? flow_size_cdf(l.cdf) : file, hosts, c.base.profile.link.rate, l.load, duration, l.count,
                          c.base.seed);
  for (FlowArrival& f : c.flows) f.tc = l.tc;
  add_incast_bursts(c, l, hosts, duration);
  return c;
}

}  // namespace rdmasim::config
