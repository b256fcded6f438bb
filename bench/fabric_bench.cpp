// fabric_bench: wall-clock throughput and memory of the packet-level fabric (sim/fabric.hpp)
// on a fat-tree permutation, run to completion through the public run_traffic() API.
//
// Every host sends `--iters` (default 5, the least run_traffic's validate() accepts) RDMA WRITEs of `--size` bytes to its partner in a random
// derangement (one QP per flow, `--tx-depth` messages in flight), default profile: 100 Gb/s
// links, MTU 4096, PFC on, ECN marking on, routing `--routing` (ECMP by default).
//
// One line per run:
//   k, hosts, flows, msg bytes, messages per flow, wall s, simulated s (makespan),
//   scheduler events and events per wall second, packet-hops (sum over ports of tx_packets:
//   one per link traversal, host NIC ports included) and hops per wall second, aggregate
//   goodput against the ideal sum of B_i, PFC frames, drops, the deepest egress queue (bytes) at
//   a host NIC port and at a switch port, and the process's peak RSS.
//
// Usage: fabric_bench [--k 12] [--size 2MiB] [--iters 5] [--tx-depth 1] [--routing ecmp|spray|adaptive|...]
//                     [--repeat 1]
// Targets for k = 12 and k = 16: >= 3e6 packet-hops per wall second, < 40 MB RSS.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

#include "net/packet.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/traffic.hpp"
#include "rdmasim/units.hpp"

namespace {

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux: ru_maxrss is in KiB
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"fabric_bench: packet-level fabric throughput on a fat-tree permutation of RDMA WRITE flows"};
  int k = 12;
  std::string size_text = "2MiB";
  std::int64_t iters = 5;  // run_traffic validates like perftest: at least 5 messages
  int tx_depth = 1;
  int repeat = 1;
  std::string routing = "ecmp";
  app.add_option("--k", k, "fat-tree radix (even): k^3/4 hosts")->capture_default_str();
  app.add_option("--size", size_text, "message size (with unit: 2MiB, 65536B)")->capture_default_str();
  app.add_option("--iters", iters, "messages per flow (run_traffic requires >= 5)")->capture_default_str();
  app.add_option("--tx-depth", tx_depth, "messages in flight per flow")->capture_default_str();
  app.add_option("--routing", routing, "a registered load balancer (`rdmasim list`): ecmp, spray, adaptive, ...")
      ->capture_default_str();
  app.add_option("--repeat", repeat, "runs (one line each)")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  try {
    rdmasim::TrafficConfig c;
    c.base.topology = rdmasim::LatTopology::fabric;
    c.base.fabric.topology = "fat-tree";
    c.base.fabric.k = k;
    c.base.fabric.routing = routing;
    c.base.size = rdmasim::parse_bytes(size_text);
    c.base.iters = iters;
    c.base.mtu = rdmasim::Bytes(4096);
    c.pattern = "permutation";
    c.tx_depth = tx_depth;

    std::printf("# fabric_bench: fat-tree permutation, RDMA WRITE, default profile (100 Gb/s, PFC, ECN), MTU %lld, "
                "routing %s, tx-depth %d; sizeof(Packet) = %zu B, sizeof(Message) = %zu B\n",
                static_cast<long long>(c.base.mtu.count()), routing.c_str(), tx_depth, sizeof(rdmasim::Packet),
                sizeof(rdmasim::Message));
    std::printf("%4s %6s %6s %10s %6s %9s %12s %12s %12s %12s %12s %8s %8s %9s %10s %10s %7s %9s\n", "k", "hosts",
                "flows", "msg_B", "iters", "wall_s", "sim_s", "events", "events/s", "pkt_hops", "hops/s", "agg%",
                "pauses", "drops", "nic_maxq", "sw_maxq", "ok", "rss_MiB");
    for (int run = 0; run < repeat; ++run) {
      const auto t0 = std::chrono::steady_clock::now();
      const rdmasim::TrafficResult r = rdmasim::run_traffic(c);
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::uint64_t hops = 0;
      std::int64_t nic_q = 0, sw_q = 0;  // deepest egress queue at a host NIC port / a switch port
      for (const rdmasim::PortStats& p : r.fabric.ports) {
        hops += p.tx_packets;
        std::int64_t& q = p.port.rfind("h", 0) == 0 ? nic_q : sw_q;  // host ports are named "hN->..."
        q = std::max(q, p.max_queue_bytes);
      }
      const bool ok = r.invariant_violations == 0 && r.fabric.conserved && r.fabric.lossless_drops == 0;
      std::printf("%4d %6zu %6zu %10lld %6lld %9.3f %12.6f %12llu %12.4g %12llu %12.4g %7.1f%% %8llu %9llu %10lld %10lld %7s %9.1f\n",
                  k, static_cast<std::size_t>(k) * k * k / 4, r.flows.size(), static_cast<long long>(c.base.size.count()),
                  static_cast<long long>(iters), wall, r.seconds, static_cast<unsigned long long>(r.events),
                  static_cast<double>(r.events) / wall, static_cast<unsigned long long>(hops),
                  static_cast<double>(hops) / wall,
                  r.ideal_aggregate_bps > 0 ? 100.0 * r.aggregate_bps / r.ideal_aggregate_bps : 0.0,
                  static_cast<unsigned long long>(r.fabric.pause_frames),
                  static_cast<unsigned long long>(r.fabric.dropped), static_cast<long long>(nic_q),
                  static_cast<long long>(sw_q), ok ? "yes" : "NO", peak_rss_mib());
      std::fflush(stdout);
      if (!ok) return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fabric_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
