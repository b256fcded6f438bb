#include "cli_common.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <tuple>

#include "io/host_profile.hpp"
#include "rdmasim/load_balancer.hpp"
#include "rdmasim/rate_control.hpp"

namespace rdmasim::cli {
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

CLI::Validator unsigned_number() {
  return CLI::Validator(
      [](std::string& v) { return !v.empty() && (v[0] == '-' || v[0] == '+') ? "must be 0 or more, got " + v : std::string(); },
      "UINT");
}

void add_topology_options(CLI::App& app, LatOptions& o, bool switched_only) {
  std::vector<std::string> names{"single-switch", "leaf-spine", "fat-tree", "ring"};
  if (!switched_only) names.insert(names.begin(), {"back-to-back", "loopback"});
  app.add_option("--topology", o.topology,
                 switched_only ? "a switched fabric: single-switch | leaf-spine | fat-tree | ring"
                               : "back-to-back (one cable), loopback (TCP over lo on one host), or a switched fabric: "
                                 "single-switch | leaf-spine | fat-tree | ring (RDMA write/send along the flow's ECMP route)")
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  app.add_option("--k", o.fabric.k, "fat-tree arity (even)")->capture_default_str();
  app.add_option("--hosts", o.fabric.hosts, "single-switch: hosts")->capture_default_str();
  app.add_option("--leaves", o.fabric.leaves, "leaf-spine: leaves")->capture_default_str();
  app.add_option("--spines", o.fabric.spines, "leaf-spine: spines")->capture_default_str();
  app.add_option("--hosts-per-leaf", o.fabric.hosts_per_leaf, "leaf-spine: hosts per leaf")->capture_default_str();
  app.add_option("--switches", o.fabric.switches, "ring: switches")->capture_default_str();
  app.add_option("--hosts-per-switch", o.fabric.hosts_per_switch, "ring: hosts per switch")->capture_default_str();
  app.add_option("--ring-routing", o.fabric.ring_routing,
                 "ring: clockwise (flows wrap around the ring: a cyclic buffer dependency) or up-down "
                 "(shortest path, never across the wrap-around cable)")
      ->check(CLI::IsMember({"clockwise", "up-down"}))
      ->capture_default_str();
}

void add_lat_options(CLI::App& app, LatOptions& o, Command cmd) {
  if (cmd != Command::demo) {
    if (cmd == Command::bw)
      app.add_option("--test", o.test, "operation: write | read | send (perftest ib_write_bw / ib_read_bw / ib_send_bw; read: back-to-back)")
          ->check(CLI::IsMember({"write", "read", "send"}));
    else
      app.add_option("--test", o.test, "operation: write | read | send (perftest ib_write_lat / ib_read_lat / ib_send_lat)")
          ->check(CLI::IsMember({"write", "read", "send"}));
    if (cmd == Command::bw) {
      app.add_option("-t,--tx-depth", o.tx_depth, "messages in flight per QP (send queue depth)")->capture_default_str();
      app.add_option("-q,--qp", o.qps, "number of QPs, each posting --iters messages with its own window (over a fabric each "
                                       "its own UDP source port: --sport, --sport + 1, ...)")
          ->capture_default_str();
      app.add_flag("-b,--bidirectional", o.bidirectional,
                   "measure bidirectional bandwidth: the same QPs from the server too (BW is the sum of both directions)");
      app.add_option("-D,--duration", o.duration,
                     "run for this much simulated time instead of --iters (seconds, or with a unit: 2ms, 500us)");
      app.add_option("-f,--margin", o.margin,
                     "with -D: completions this close to the start or the end are not counted (default: a tenth of "
                     "the duration; perftest's 2 s suits real seconds-long runs)");
      app.add_option("-o,--outs", o.outs, "--test read: RDMA READs in flight per QP (the QP's max_rd_atomic)")
          ->capture_default_str();
      app.add_flag("--report-gbits,--report_gbits", o.report_gbits, "report Gb/s instead of MiB/s");
      app.add_option("-l,--post-list,--post_list", o.post_list,
                     "post lists of N WQEs with one doorbell (one WQE fetch per list; N <= --tx-depth)")
          ->capture_default_str();
      app.add_option("-Q,--cq-mod", o.cq_mod, "signal every Nth WQE only (unsignaled: no CQE, no poll; N <= --tx-depth)")
          ->capture_default_str();
      app.add_option("--pattern", o.pattern, "many flows on a switched topology: permutation | incast | alltoall | stride")
          ->check(CLI::IsMember({"permutation", "incast", "alltoall", "stride"}));
      app.add_option("--incast", o.incast, "incast: number of senders (hosts 1..N -> h0)")->capture_default_str();
      app.add_option("--stride", o.stride, "stride: every host i sends to host (i + K) mod hosts")->capture_default_str();
      app.add_option("--seeds", o.seeds, "--pattern: run seeds seed..seed+N-1 (new permutations) and report the spread")
          ->check(CLI::Range(1, 1000))
          ->capture_default_str();
      app.add_option("--routing", o.routing,
                     "how switches choose among equal-cost next hops: " + choices_text(load_balancer_names()) +
                         " (`rdmasim list`)")
          ->check(CLI::IsMember(load_balancer_names()))
          ->capture_default_str();
      app.add_option("--cc", o.cc, "congestion control of the QPs: " + choices_text(rate_control_names()) + " (`rdmasim list`)")
          ->check(CLI::IsMember(rate_control_names()))
          ->capture_default_str();
      app.add_option("--tcp-cc", o.tcp_cc,
                     "congestion control of packet-level TCP (--transport tcp over a fabric): reno or dctcp "
                     "(ECN-proportional window cuts)")
          ->check(CLI::IsMember({"reno", "dctcp"}))
          ->capture_default_str();
    }
    app.add_option("--transport", o.transport, "rdma (RC verbs) or tcp (kernel TCP baseline)")
        ->check(CLI::IsMember({"rdma", "tcp"}))
        ->capture_default_str();
    app.add_option("-s,--size", o.size, "message size in bytes")->capture_default_str();
    app.add_flag("-a,--all", o.all, "run all sizes 2 .. 2^23 (powers of 2)");
    app.add_option("--kernel-bypass", o.kernel_bypass, "on|off: RDMA verbs from user space (off: through the kernel)");
    app.add_option("--zero-copy", o.zero_copy, "on|off: NIC DMAs the app buffer (off: bounce-buffer copies)");
    app.add_option("--interrupt-coalescing", o.interrupt_coalescing,
                   "on|off: interrupt moderation with nic.rx_usecs / nic.rx_frames");
    app.add_option("--busy-poll", o.busy_poll, "on|off: poll for completion (default on for rdma, off for tcp)");
    app.add_option("--inline", o.inline_data, "on|off: payload inside the WQE (default: size <= max inline)");
    app.add_option("--mem", o.mem,
                   "where the buffers live: host | gpu, or CLIENT,SERVER (e.g. gpu,host); GPU HBM is DMAed "
                   "directly (GPUDirect) or staged through host buffers");
    app.add_option("--use-cuda,--use_cuda", o.use_cuda,
                   "perftest's --use_cuda[=N]: buffers in GPU N's memory on both sides (--mem gpu; a host has GPU 0)")
        ->expected(0, 1)
        ->default_str("0");
    app.add_option("--gpudirect", o.gpudirect, "on|off: the NIC DMAs GPU memory over PCIe peer-to-peer (default on for rdma)");
    app.add_option("--staging-chunk", o.staging_chunk,
                   "staged path (--gpudirect off): copy in chunks of this many bytes, pipelined with the transfer "
                   "(a multiple of the MTU; omit for non-pipelined staging)");
    app.add_option("--rx-usecs", o.rx_usecs, "interrupt coalescing timer, e.g. 8us (sets nic.rx_usecs, turns coalescing on)");
    app.add_option("--rx-frames", o.rx_frames, "interrupt coalescing frame count (sets nic.rx_frames, turns coalescing on)");
    app.add_option("--adaptive-rx", o.adaptive_rx,
                   "on|off: adaptive moderation: interrupt at once unless the previous interrupt was within rx-usecs");
    if (cmd == Command::lat || cmd == Command::bw) {
      const char* what = cmd == Command::lat ? "exchange" : "message";
      app.add_flag("--connect-per-msg", o.connect_per_msg,
                   std::string("set up a new RC connection for every ") + what + " (timed)");
      app.add_option("--conn-reuse", o.conn_reuse,
                     std::string("a new RC connection every N ") + what + "s (timed); 0 = pre-connected");
      app.add_flag("--qp-pool", o.qp_pool, "connections pre-built outside the timed loop (print their setup cost)");
    }
    if (cmd == Command::bw) {
      app.add_option("-r,--rx-depth", o.rx_depth,
                     "--test send on a switched topology: receives the server keeps posted (a SEND finding none "
                     "is answered with an RNR NAK); 0 = always ready")
          ->capture_default_str();
      app.add_option("--recv-delay", o.recv_delay,
                     "with --rx-depth: the server's processing after a receive completes before it reposts it (e.g. 20us)");
    }
  } else {
    app.add_option("-s,--size", o.size, "message size in bytes")->capture_default_str();
  }
  if (cmd != Command::budget)
    app.add_option("-n,--iters", o.iters, "number of exchanges")
        ->each([&o](const std::string&) { o.iters_given = true; })
        ->capture_default_str();
  app.add_option("--link-layer", o.link_layer, "roce (RoCEv2 over Ethernet) or ib (InfiniBand)")
      ->check(CLI::IsMember({"roce", "ib"}))
      ->capture_default_str();
  if (cmd != Command::demo) {
    add_topology_options(app, o, false);
    app.add_option("--from", o.from, "fabric: client host (h0 or 0)")->capture_default_str();
    app.add_option("--to", o.to, "fabric: server host")->capture_default_str();
    app.add_option("--sport", o.fabric.udp_sport, "fabric: RoCEv2 UDP source port (the flow's ECMP entropy)")
        ->capture_default_str();
    app.add_option("--degrade", o.degrade, "fabric: a link trained down, NODE-NODE=RATE (e.g. edge0.0-agg0.0=40Gbps; repeatable)");
    app.add_option("--link-loss", o.link_loss,
                   "fabric: a link corrupting frames, NODE-NODE=PROBABILITY (e.g. agg0.0-core0=1e-4; repeatable)");
    app.add_option("--link-down", o.link_down,
                   "fabric: a link between switches goes down at T1 (and back up at T2), NODE-NODE@T1[-T2] "
                   "(e.g. agg0.0-core0@100us-5ms; routing follows after switch.route_convergence; repeatable)");
    app.add_option("--loss", o.fabric.loss,
                   "fabric: every link corrupts each frame with this probability, both ways (e.g. 1e-4)")
        ->capture_default_str();
    if (cmd == Command::bw)
      app.add_option("--loss-sweep", o.loss_sweep,
                     "bw: goodput vs --loss at these rates (comma-separated, e.g. 0,1e-6,1e-5,1e-4,1e-3,1e-2): "
                     "simulated RDMA go-back-N against its closed form and TCP's")
          ->delimiter(',');
    app.add_option("--drop-burst", o.drop_burst,
                   "fabric: lose the frames crossing from NODE to NODE that arrive in [T1, T2), or the first one "
                   "arriving at T1, NODE-NODE@T1[-T2] (e.g. h0-sw0@20us-30us; repeatable)");
    app.add_option("--drop-frames", o.drop_frames,
                   "fabric: lose the Nth frames crossing from NODE to NODE, NODE-NODE=N[,N...] (1-based; repeatable)");
  }
  app.add_option("--host-profile", o.host_profile, "host profile TOML written by `rdmasim calibrate` (applied before --set)");
  app.add_option("-m,--mtu", o.mtu, "RDMA path MTU: 256, 512, 1024, 2048 or 4096")->capture_default_str();
  app.add_option("--profile", o.profile, "parameter profile: default | seed-demo")->capture_default_str();
  app.add_option("--set", o.sets, "override a profile parameter, key=value (repeatable; `rdmasim list`)");
  if (cmd != Command::budget)
    app.add_option("--seed", o.seed, "seed of every random stream")->check(unsigned_number())->capture_default_str();
  if (cmd != Command::demo) app.add_flag("--json", o.json, "print JSON instead of tables");
  if (cmd == Command::budget) app.add_flag("--stages", o.stages, "also print the critical path stage by stage");
  if (cmd == Command::lat || cmd == Command::bw) {
    ExportOptions& x = o.exports;
    app.add_option("--trace", x.trace_path, "write a Perfetto / Chrome trace (JSON) of the first messages' critical paths");
    app.add_option("--trace-messages", x.trace_messages, "--trace/--hop-ledger: trace the first N messages posted")
        ->capture_default_str();
    app.add_flag("--hop-ledger", x.hop_ledger,
                 "print the traced messages' mean ledger hop by hop: each host stage, fabric port (queue, transmit, "
                 "propagate) and switch pipeline on their critical paths");
    app.add_option("--pcap", x.pcap_path, "write a pcapng capture of the client's wire (fabric: its NIC port, both ways)");
    app.add_option("--pcap-port", x.pcap_ports, "--pcap: capture this fabric port instead, e.g. edge0.0->h1 (repeatable)");
    app.add_option("--csv", o.csv,
                   "write the run's tables as CSV into this directory: messages.csv (per iteration/message), "
                   "flows.csv (--pattern), ports.csv (switched topology), timeseries.csv (over simulated time)");
    app.add_option("--sample-interval", o.sample_interval,
                   "--csv: timeseries.csv rows of this much simulated time each, e.g. 10us (default: about 200 "
                   "rows over the expected run, the row length doubling every 200 rows)");
    app.add_option("--watch", o.watch, "--csv: a fabric port whose mean queue depth and PFC frames go to "
                                       "timeseries.csv, e.g. edge0.0->h0 (repeatable)");
    app.add_flag("--quiet", o.quiet, "no progress line on stderr (it is shown only when stderr is a terminal "
                                        "and the run takes more than a second)");
    app.add_option("--pcap-frames", x.pcap_frames, "--pcap: write at most N frames")->capture_default_str();
    app.add_option("--pcap-snaplen", x.pcap_snaplen, "--pcap: bytes kept per frame (0: whole frames)")->capture_default_str();
  }
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

std::unique_ptr<CsvDir> open_csv(const LatOptions& o) {
  if (o.csv.empty()) return nullptr;
  if (o.seeds > 1) throw std::invalid_argument("--csv: one run at a time (not with --seeds)");
  if (!o.loss_sweep.empty()) throw std::invalid_argument("--csv: not with --loss-sweep (use --json)");
  return std::make_unique<CsvDir>(o.csv);
}

std::unique_ptr<Exports> open_exports(const LatOptions& o) {
  const ExportOptions& x = o.exports;
  if (x.trace_path.empty() && x.pcap_path.empty() && !x.hop_ledger) {
    if (!x.pcap_ports.empty()) throw std::invalid_argument("--pcap-port needs --pcap FILE");
    return nullptr;
  }
  if (o.all) throw std::invalid_argument("--trace/--pcap/--hop-ledger export one run: drop -a and pick a size with -s");
  if (o.seeds > 1) throw std::invalid_argument("--trace/--pcap/--hop-ledger export one run: drop --seeds");
  return std::make_unique<Exports>(x);
}

void publish_exports(Exports* x) {
  if (!x) return;
  x->publish();
  if (x->stats.frames_dropped > 0)
    std::fprintf(stderr, "rdmasim: note: --pcap kept the first %llu frames (--pcap-frames), %llu more not written\n",
                 static_cast<unsigned long long>(x->stats.frames_captured),
                 static_cast<unsigned long long>(x->stats.frames_dropped));
}

void apply_gpu_options(const LatOptions& o, LatConfig& c) {
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
      const bool digits = std::all_of(v.begin(), v.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
      b = digits && v.size() < 16 ? Bytes(std::stoll(v)) : parse_bytes(v);
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

LatConfig to_config(const LatOptions& o) {
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
  c.fabric.tcp_cc = o.tcp_cc == "dctcp" ? TcpCc::dctcp : TcpCc::reno;
  auto host = [](const std::string& v, const char* flag) {
    std::string_view d = v;
    if (!d.empty() && d[0] == 'h') d.remove_prefix(1);
    int n = 0;
    if (d.empty() || d.size() > 7) throw std::invalid_argument(std::string(flag) + ": expected a host like h3, got \"" + v + "\"");
    for (char ch : d) {
      if (ch < '0' || ch > '9') throw std::invalid_argument(std::string(flag) + ": expected a host like h3, got \"" + v + "\"");
      n = n * 10 + (ch - '0');
    }
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
  c.fabric.from = host(o.from, "--from");
  c.fabric.to = host(o.to, "--to");
  c.profile = make_profile(o.profile);
  if (!o.host_profile.empty()) apply_host_profile(c.profile, o.host_profile);
  for (const std::string& s : o.sets) apply_override(c.profile, s);
  c.seed = o.seed;
  c.record_samples = !o.csv.empty();
  if (auto v = on_off(o.kernel_bypass, "--kernel-bypass")) c.toggles.kernel_bypass = *v;
  if (auto v = on_off(o.zero_copy, "--zero-copy")) c.toggles.zero_copy = *v;
  if (auto v = on_off(o.interrupt_coalescing, "--interrupt-coalescing")) c.toggles.interrupt_coalescing = *v;
  c.toggles.busy_poll = on_off(o.busy_poll, "--busy-poll");
  c.toggles.inline_data = on_off(o.inline_data, "--inline");
  apply_gpu_options(o, c);
  validate(c);
  return c;
}

BwConfig to_bw_config(const LatOptions& o) {
  if (!o.pattern.empty()) throw std::logic_error("to_bw_config: --pattern runs take to_traffic_config");
  BwConfig b;
  b.base = to_config(o);
  b.tx_depth = o.tx_depth;
  b.post_list = o.post_list;
  b.cq_mod = o.cq_mod;
  b.rx_depth = o.rx_depth;
  b.qps = o.qps;
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
  return b;
}

TrafficConfig to_traffic_config(const LatOptions& o) {
  if (o.post_list != 1 || o.cq_mod != 1)
    throw std::invalid_argument("--post-list/--cq-mod batch the single-QP bw test; --pattern posts one WQE per doorbell");
  if (o.connect_per_msg || o.conn_reuse > 0 || o.qp_pool || o.rx_depth != 0 || !o.recv_delay.empty())
    throw std::invalid_argument("--connect-per-msg/--conn-reuse/--qp-pool/--rx-depth are for the single-QP bw test, not --pattern");
  if (o.qps != 1 || o.bidirectional || !o.duration.empty() || !o.margin.empty())
    throw std::invalid_argument("-q/--qp, -b/--bidirectional and -D/--duration are for the two-host bw test; --pattern runs "
                                "one QP per flow for --iters messages");
  TrafficConfig t;
  t.base = to_config(o);
  if (t.base.topology != LatTopology::fabric)
    throw std::invalid_argument("--pattern needs a switched --topology (single-switch, leaf-spine, fat-tree, ring)");
  t.pattern = o.pattern == "incast"     ? Pattern::incast
              : o.pattern == "alltoall" ? Pattern::alltoall
              : o.pattern == "stride"   ? Pattern::stride
                                        : Pattern::permutation;
  t.incast_senders = o.incast;
  t.stride = o.stride;
  t.tx_depth = o.tx_depth;
  return t;
}

std::vector<std::int64_t> all_sizes() {
  std::vector<std::int64_t> v;
  for (int i = 1; i < 24; ++i) v.push_back(std::int64_t{1} << i);
  return v;
}

}  // namespace rdmasim::cli
