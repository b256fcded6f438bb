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
// With `--window T` (e.g. 50ns, the lookahead of a partition at the switch-to-switch cables)
// it also counts the events of every window of T simulated time that has any, and prints
// their distribution and how a partition by pods would share the run's packet-hops: the
// inputs of the scaling model in docs/performance.md.
//
// Usage: fabric_bench [--k 12] [--size 2MiB] [--iters 5] [--tx-depth 1] [--routing ecmp|spray|adaptive|...] [--threads N]
//                     [--repeat 1] [--window 50ns]
// Targets for k = 12 and k = 16: >= 3e6 packet-hops per wall second, < 40 MB RSS.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>
#include <string>

#include <CLI/CLI.hpp>

#include "core/huge_pages.hpp"
#include "net/packet.hpp"
#include "rdmasim/exports.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/traffic.hpp"
#include "rdmasim/units.hpp"
#include "workload/run_probe.hpp"

namespace {

// Counts the events of each window of `every` simulated time (those with none are not kept).
class WindowCounter final : public rdmasim::RunProbe, rdmasim::SliceHook {
 public:
  explicit WindowCounter(rdmasim::Time every) : every_(every) {}
  void attach(rdmasim::SimWorld& w) override {
    sched_ = &w.sched;
    last_ = sched_->executed();
    sched_->set_slice_hook(this, every_);
  }
  void detach(rdmasim::SimWorld& w) override { w.sched.set_slice_hook(nullptr, rdmasim::Time::zero()); }
  void on_slice(rdmasim::Time) override {
    const std::uint64_t n = sched_->executed() - last_;
    last_ = sched_->executed();
    if (n > 0) counts.push_back(n);
  }
  std::vector<std::uint64_t> counts;

 private:
  rdmasim::Time every_;
  rdmasim::Scheduler* sched_ = nullptr;
  std::uint64_t last_ = 0;
};

// The distribution of events per window, and for P = 2, 4, ..., the largest partition's share
// of packet-hops when pods (and core switches) are dealt to P partitions in turn, relative to
// an even 1/P, with the share of hops that cross between partitions.
void print_windows(const std::vector<std::uint64_t>& counts, const rdmasim::TrafficResult& r, int k) {
  if (counts.empty()) return;
  std::vector<std::uint64_t> sorted = counts;
  std::sort(sorted.begin(), sorted.end());
  std::uint64_t sum = 0;
  for (std::uint64_t c : counts) sum += c;
  auto pct = [&](double q) { return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))]; };
  std::printf("# windows with events %zu, events per window: mean %.1f, p10 %llu, median %llu, p90 %llu, max %llu\n",
              counts.size(), static_cast<double>(sum) / static_cast<double>(counts.size()),
              static_cast<unsigned long long>(pct(0.1)), static_cast<unsigned long long>(pct(0.5)),
              static_cast<unsigned long long>(pct(0.9)), static_cast<unsigned long long>(sorted.back()));
  const int hosts_per_pod = k * k / 4;
  // The pod of a port's sending node ("h12->", "edge3.1->", "agg3.0->"), or -1 - c for core c.
  auto owner = [&](const std::string& name) {
    const std::string node = name.substr(0, name.find("->"));
    auto num = [&](std::size_t from) { return std::stoi(node.substr(from)); };
    if (node[0] == 'h') return num(1) / hosts_per_pod;
    if (node.rfind("edge", 0) == 0) return num(4);
    if (node.rfind("agg", 0) == 0) return num(3);
    return -1 - num(4);  // "coreN"
  };
  auto peer = [&](const std::string& name) { return name.substr(name.find("->") + 2) + "->"; };
  for (int parts = 2; parts <= k; parts *= 2) {
    std::vector<std::uint64_t> load(static_cast<std::size_t>(parts));
    std::uint64_t total = 0, crossing = 0;
    auto part_of = [&](int o) { return o >= 0 ? o % parts : (-1 - o) % parts; };
    for (const rdmasim::PortStats& p : r.fabric.ports) {
      const int from = part_of(owner(p.port)), to = part_of(owner(peer(p.port)));
      load[static_cast<std::size_t>(from)] += p.tx_packets;
      total += p.tx_packets;
      if (from != to) crossing += p.tx_packets;
    }
    const std::uint64_t most = *std::max_element(load.begin(), load.end());
    std::printf("# %2d partitions: the largest holds %.3f x an even share of packet-hops; %.1f%% of hops cross\n", parts,
                static_cast<double>(most) * parts / static_cast<double>(total),
                100.0 * static_cast<double>(crossing) / static_cast<double>(total));
  }
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux: ru_maxrss is in KiB
}

}  // namespace

int main(int argc, char** argv) {
  rdmasim::use_huge_pages(argv);  // as rdmasim does (core/huge_pages.hpp); RDMASIM_HUGE_PAGES=0: not
  CLI::App app{"fabric_bench: packet-level fabric throughput on a fat-tree permutation of RDMA WRITE flows"};
  int k = 12;
  std::string size_text = "2MiB";
  std::int64_t iters = 5;  // run_traffic validates like perftest: at least 5 messages
  int tx_depth = 1;
  int repeat = 1;
  std::string routing = "ecmp";
  std::string window_text;
  int threads = 0;
  app.add_option("--k", k, "fat-tree radix (even): k^3/4 hosts")->capture_default_str();
  app.add_option("--size", size_text, "message size (with unit: 2MiB, 65536B)")->capture_default_str();
  app.add_option("--iters", iters, "messages per flow (run_traffic requires >= 5)")->capture_default_str();
  app.add_option("--tx-depth", tx_depth, "messages in flight per flow")->capture_default_str();
  app.add_option("--routing", routing, "a registered load balancer (`rdmasim list`): ecmp, spray, adaptive, ...")
      ->capture_default_str();
  app.add_option("--repeat", repeat, "runs (one line each)")->capture_default_str();
  app.add_option("--window", window_text, "also count events per window of this simulated time (e.g. 50ns)");
  app.add_option("--threads", threads,
                 "> 0: the fabric cut into LPs by pod, run on this many worker threads (0: one scheduler)")
      ->capture_default_str();
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
    c.threads = threads;

    std::printf("# fabric_bench: fat-tree permutation, RDMA WRITE, default profile (100 Gb/s, PFC, ECN), MTU %lld, "
                "routing %s, tx-depth %d; sizeof(Packet) = %zu B, sizeof(Message) = %zu B; heap: %s\n",
                static_cast<long long>(c.base.mtu.count()), routing.c_str(), tx_depth, sizeof(rdmasim::Packet),
                sizeof(rdmasim::Message), rdmasim::heap_pages().c_str());
    std::printf("%4s %6s %6s %10s %6s %9s %12s %12s %12s %12s %12s %8s %8s %9s %10s %10s %7s %9s\n", "k", "hosts",
                "flows", "msg_B", "iters", "wall_s", "sim_s", "events", "events/s", "pkt_hops", "hops/s", "agg%",
                "pauses", "drops", "nic_maxq", "sw_maxq", "ok", "rss_MiB");
    for (int run = 0; run < repeat; ++run) {
      const auto t0 = std::chrono::steady_clock::now();
      std::unique_ptr<WindowCounter> windows;
      rdmasim::Exports exports{rdmasim::ExportOptions{}};
      if (!window_text.empty()) {
        windows = std::make_unique<WindowCounter>(rdmasim::parse_time(window_text));
        exports.set_probe(windows.get());
      }
      const rdmasim::TrafficResult r = rdmasim::run_traffic(c, windows ? &exports : nullptr);
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
      if (windows) print_windows(windows->counts, r, k);
      std::fflush(stdout);
      if (!ok) return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fabric_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
