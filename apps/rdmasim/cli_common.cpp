#include "cli_common.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <tuple>

#include "rdmasim/load_balancer.hpp"
#include "rdmasim/rate_control.hpp"

namespace rdmasim::cli {

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

}  // namespace rdmasim::cli
