// The latency experiment (perftest ib_*_lat look-alike) and its closed-form budget.
//
// run_latency simulates `iters` ping-pong exchanges between two back-to-back hosts through the
// component model and reports perftest's statistics plus the mean ledger of the kept samples
// (the ledger rows add up to t_avg). run_budget evaluates the same path analytically for one
// uncontended exchange; with jitter off, budget total == lat t_typical to the picosecond.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "rdmasim/ledger.hpp"
#include "rdmasim/profile.hpp"
#include "rdmasim/stats.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

enum class TestKind { write, read, send };
enum class Transport { rdma, tcp };
enum class LinkLayer { roce, ib };
/// back_to_back: two hosts, NICs joined by one cable. loopback: both ends on one host over the
/// kernel's loopback device (TCP only; no NIC, PCIe or wire) — what `calibrate --check` models.
/// fabric: the two hosts are `fabric.from` and `fabric.to` of a switched topology; the
/// message follows its ECMP route (RDMA WRITE/SEND).
enum class LatTopology { back_to_back, loopback, fabric };
/// Congestion control of packet-level TCP (sim/tcp_connection.hpp): Reno (NewReno loss
/// recovery) or DCTCP (Reno's recovery, ECN-proportional window cuts).

/// A troubleshooting fault on the cable between two named nodes: trained down to `rate`
/// (0: unchanged) and/or corrupting each frame with probability `loss`, and/or losing the
/// listed frames (1-based counts of the frames crossing from `a` towards `b`).
struct LinkFault {
  std::string a, b;
  Rate rate{};
  double loss = 0;
  std::vector<std::uint64_t> drop_frames;
  std::vector<std::pair<Time, Time>> drop_windows;  // [from, to): a burst; to <= from: one frame at from

  bool operator==(const LinkFault&) const = default;
};

/// A link going down at `down` and back up at `up` (Time::max(): never); the switches' routing
/// follows each change after `switch.route_convergence`.
struct LinkOutage {
  std::string a, b;
  Time down{}, up = Time::max();

  bool operator==(const LinkOutage&) const = default;
};

struct FabricConfig {
  std::string topology = "fat-tree";   // single-switch | leaf-spine | fat-tree | ring
  int k = 4;                           // fat-tree
  int hosts = 2;                       // single-switch
  int leaves = 4, spines = 2, hosts_per_leaf = 4;  // leaf-spine
  int switches = 4, hosts_per_switch = 1;          // ring
  int servers = 4, nics_per_server = 0, servers_per_su = 32, planes = 2;  // rail-optimized, multi-plane (NICs 0: the server's, else 8)
  std::string topology_file, topology_text;        // file: its path and its text (read when configured)
  std::string server;                  // rail-optimized, multi-plane: a registered server (rdmasim/server.hpp), or ""
  std::string ring_routing = "clockwise";          // ring: clockwise | up-down
  int from = 0, to = 1;                // host indices
  std::uint16_t udp_sport = 49152;     // RoCEv2 UDP source port: the flow's ECMP entropy
  std::string routing = "ecmp";        // the switches' load balancer, by name (rdmasim/load_balancer.hpp)
  std::string cc = "none";             // the RDMA QPs' rate control, by name (rdmasim/rate_control.hpp)
  std::string tcp_cc = "reno";         // --transport tcp over a fabric, by name (rdmasim/tcp_cc.hpp)
  double loss = 0;                     // every cable corrupts each frame with this probability (both ways)
  std::vector<LinkFault> faults;       // per-cable faults (a fault's loss replaces `loss` there)
  std::vector<LinkOutage> outages;

  bool operator==(const FabricConfig&) const = default;
};

std::string_view to_string(TestKind t);
std::string_view to_string(Transport t);
std::string_view to_string(LinkLayer l);
std::string_view to_string(LatTopology t);

struct Toggles {
  bool kernel_bypass = true;          // RDMA: verbs from user space (off: through the kernel)
  bool zero_copy = true;              // RDMA: NIC DMAs the app buffer (off: bounce-buffer copies)
  bool interrupt_coalescing = false;  // interrupt moderation with nic.rx_usecs / nic.rx_frames
  std::optional<bool> busy_poll;      // poll for completion (default: on for RDMA, off for TCP)
  std::optional<bool> inline_data;    // RDMA: payload in the WQE (default: size <= max inline)
};

/// Where a side's buffer lives: host DRAM or GPU HBM (perftest --use-cuda).
enum class MemKind : std::uint8_t { host, gpu };
std::string_view to_string(MemKind m);

/// The GPU data path (host/gpu.hpp): buffers per side, GPUDirect RDMA (the NIC DMAs GPU memory
/// over PCIe peer-to-peer) or CPU-staged (copy engine to/from a host buffer), and the staging
/// pipeline: no chunk = the whole message is copied before / after the transfer; a chunk size
/// (a multiple of the MTU) = chunk k's copy overlaps chunk k-1's transfer.
struct GpuConfig {
  MemKind mem[2] = {MemKind::host, MemKind::host};
  std::optional<bool> gpudirect;      // default: on for rdma (off is implied for tcp)
  std::optional<Bytes> staging_chunk; // absent: non-pipelined staging
  /// Each side's GPU<->NIC path where it is not pcie.topology's: a server's per-GPU placement.
  std::optional<PcieTopology> placement[2];
  bool any_gpu() const { return mem[0] == MemKind::gpu || mem[1] == MemKind::gpu; }
};

/// Connection handling of a latency run (host/connection.hpp): 0 = connected before the timed
/// loop (a pre-built QP pool); N = a new RC connection (rdma_cm exchange, QP transitions, MR
/// registration) before every N-th exchange, inside the timed loop.
struct ConnConfig {
  std::int64_t reuse = 0;             // --connect-per-msg = 1, --conn-reuse N
  bool pool = false;                  // --qp-pool: say what the pre-built connection cost
};

struct LatConfig {
  TestKind test = TestKind::write;
  Transport transport = Transport::rdma;
  Bytes size{2};
  std::int64_t iters = 1000;
  LinkLayer link_layer = LinkLayer::roce;
  LatTopology topology = LatTopology::back_to_back;
  FabricConfig fabric;                // used when topology == fabric
  Bytes mtu{4096};                    // RDMA path MTU (256..4096); TCP uses tcp.mss
  Profile profile;
  Toggles toggles;
  std::uint64_t seed = 1;
  bool record_samples = false;        // keep every sample (and, lat, its ledger) in the result (--csv)
  GpuConfig gpu;
  ConnConfig conn;
};

/// Side `side`'s GPU-to-NIC PCIe path: its placement, else pcie.topology.
inline PcieTopology gpu_pcie_path(const LatConfig& c, int side) {
  return c.gpu.placement[side].value_or(c.profile.pcie.topology);
}

/// Throws std::invalid_argument with a one-line message for any bad combination.
void validate(const LatConfig& c);

/// The resolved switches a run actually used (defaults filled in).
struct ResolvedToggles {
  bool kernel_bypass, zero_copy, interrupt_coalescing, busy_poll, inline_data;
  Bytes max_inline;
  bool gpudirect = false;             // a GPU side's buffer is DMAed by the NIC directly
};
ResolvedToggles resolve(const LatConfig& c);

/// What a host's components did during a run: CPU busy time (every core stage), interrupts
/// taken, packets through the interrupt moderator and their moderation waits.
struct HostCounters {
  Time cpu_busy{};                    // summed over the cores
  int cores = 1;                      // cores the host's work ran on
  std::uint64_t interrupts = 0;
  std::uint64_t moderated_packets = 0;
  Time moderation_wait{};             // sum over moderated packets
  Time max_moderation_wait{};
  Time gpu_copy_busy{};               // the GPU copy engine
};

struct LatResult {
  LatConfig config;
  ResolvedToggles toggles;
  int rtt_factor = 2;                 // 2: reported latency is RTT/2 (write, send); 1: read
  LatencyStats stats;
  Ledger kept_ledger_sum;             // sum of the kept samples' ledgers (RTT units)
  std::int32_t packets_per_message = 0;
  Bytes wire_bytes_per_message{};     // request direction
  std::uint64_t events = 0;
  std::int64_t invariant_violations = 0;  // messages whose ledger != end-to-end (must be 0)
  Time simulated{};                   // simulated time of the whole run
  std::vector<std::string> routes;    // fabric: "h0 -> edge0.0 -> ... -> h5" per direction
  /// With config.record_samples: every iteration in order (its start, RTT and ledger).
  struct Iteration {
    std::int64_t start_ps = 0, rtt_ps = 0;
    Ledger ledger;
  };
  std::vector<Iteration> iterations;
  HostCounters hosts[2];              // CPU accounting and interrupts per host (A, B)
  double mean_all_rtt_ps = 0;         // mean of every sample (RTT units, nothing dropped)
  Time setup{};                       // one connection's setup (closed form of its stages)
  std::int64_t connections = 0;       // setups inside the timed loop

  /// Mean ledger entry per reported sample, in picoseconds (double: RTT/2 and the mean).
  double mean_ps(Category c) const;
};

class Exports;
/// `exports` (optional, rdmasim/exports.hpp): trace and capture the run; publish them after.
LatResult run_latency(const LatConfig& c, Exports* exports = nullptr);

/// One stage on the critical path of the budget's exchange ("B.edge3.1.pipeline", switch, 300ns).
struct StageLine {
  std::string label;
  Category cat = Category::queue;
  Time time{};
};

struct BudgetResult {
  LatConfig config;
  ResolvedToggles toggles;
  int rtt_factor = 2;
  Ledger rtt;                         // one uncontended exchange (expected jitter included)
  double reported_ps = 0;             // rtt / rtt_factor: comparable with t_typical
  // The textbook latency formulas evaluated with the same parameters (one direction of the exchange).
  Bytes message_wire_bytes{};
  Time formula_transmit{};             // S/B with S = bytes on the wire
  Time formula_propagate{};            // D/v
  Time kernel_tx{};                   // L_kernel on the sender (kernel.tx_stack)
  Time kernel_rx{};                   // L_kernel on the receiver (kernel.rx_stack)
  Time copy_one{};                    // one copy of the message
  Time switch_one{};                  // one user/kernel switch (syscall)
  Time zero_copy_saving{};            // (n-1)(T_copy + T_switch), n = copies per transfer
  int copies_n = 0;
  std::vector<std::string> routes;
  std::vector<StageLine> critical_path;  // the exchange stage by stage; adds up to `rtt`
};

BudgetResult run_budget(const LatConfig& c);

}  // namespace rdmasim
