// Parameter profiles: every cost the model charges, as typed structs with documented defaults.
//
// A Profile is plain data, validated once (validate()). Named profiles: "default" (a
// ConnectX-class 100G NIC on PCIe Gen4 x16 and a Linux kernel stack; sources in
// docs/model-parameters.md and the registry's `source` strings) and "seed-demo" (a textbook toy
// parameters). Every field is reachable as "group.key" through the registry (profile_params),
// which is what --set, `rdmasim list` and the docs use: one source of truth.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "rdmasim/units.hpp"

namespace rdmasim {

/// Where a GPU sits relative to the NIC in the host's PCIe tree.
enum class PcieTopology : std::uint8_t { pcie_switch, root, cross_socket };
std::string_view to_string(PcieTopology t);

struct LinkParams {
  Rate rate = Rate::gbps(100);
  std::int64_t length_mm = 3'000;            // a 3 m DAC cable
  std::int64_t velocity_mps = 200'000'000;   // ~2/3 c in copper or fibre
};

struct SwitchParams {
  Time pipeline = Time::ns(300);             // forwarding pipeline, ingress to egress (Ethernet)
  Time ib_pipeline = Time::ns(130);          // the same in an InfiniBand switch
  bool cut_through = true;                   // forward after the headers (else store-and-forward)
  Bytes cut_through_bytes{64};               // bytes received before forwarding starts
  std::int64_t fabric_length_mm = 10'000;    // cable length between switches
  // Buffers and queues (packet-level fabric, sim/fabric.hpp).
  Bytes buffer{16 * 1024 * 1024};            // shared packet buffer per switch
  std::string buffer_policy = "dynamic-threshold";  // lossy admission (rdmasim/buffer_policy.hpp)
  double dt_alpha = 1.0;                     // dynamic-threshold: a lossy queue holds alpha x free shared buffer
  Bytes queue_limit{512 * 1024};             // static-threshold: a lossy queue's limit
  std::string scheduler = "strict-priority";  // egress class selection (rdmasim/queue_scheduler.hpp)
  std::array<int, 8> ets_weights{50, 0, 0, 50, 0, 0, 0, 0};  // ets: per class, 0 = strict, else its share (%)
  int data_tc = 3;                           // traffic class (802.1p priority) of RDMA data and ACKs
  bool lossless = true;                      // RoCE: the data class is lossless (PFC); off: lossy
  Bytes pfc_xoff{64 * 1024};                 // per ingress port and priority: send XOFF above this
  Bytes pfc_xon_delta{8 * 1024};             // send XON once below xoff - delta (and headroom empty)
  Bytes pfc_headroom{0};                     // per ingress port and priority; 0 = sized from the cable
  bool ecn = true;                           // RED-style ECN marking on egress queue depth
  Bytes ecn_kmin{5'000};                     // DCQCN (SIGCOMM'15) defaults: Kmin 5 KB,
  Bytes ecn_kmax{200'000};                   // Kmax 200 KB,
  double ecn_pmax = 0.01;                    // Pmax 1 %
  Bytes ib_vl_buffer{64 * 1024};             // InfiniBand: input buffer per port and VL (credits)
  // PFC pathologies (sim/fabric.hpp): deadlock detection and the PFC watchdog.
  Time deadlock_detect = Time::ms(1);        // a waits-for cycle of paused queues this old is a deadlock (0: off)
  Time pfc_watchdog{};                       // a queue paused this long with frames: drop mode (0: off)
  Time pfc_watchdog_restore = Time::ms(200); // drop mode lasts this long, then the queue obeys pause again
  Time route_convergence = Time::ms(10);     // link down/up: the switches' routing follows after this
  Time flowlet_timeout = Time::us(100);      // --routing flowlet: the idle gap that starts a new flowlet
  int flowlet_table = 4096;                  // --routing flowlet: flowlet slots per switch
  /// The forwarding pipeline of this fabric's switches: InfiniBand's or Ethernet's.
  Time forwarding(bool infiniband) const { return infiniband ? ib_pipeline : pipeline; }
};

struct PcieParams {
  int gen = 4;
  int lanes = 16;
  Bytes max_payload{256};                    // MPS
  Bytes tlp_overhead{24};                    // header 16 + seq 2 + LCRC 4 + framing 2
  Time latency = Time::ns(250);              // one traversal device <-> root complex/memory
  // The PCIe tree between the NIC and a GPU of the same host (host/pcie_topology.hpp).
  PcieTopology topology = PcieTopology::pcie_switch;
  Time switch_latency = Time::ns(150);       // switch: NIC -> PCIe switch -> GPU (peer-to-peer)
  Time socket_latency = Time::ns(400);       // cross-socket: one crossing of the inter-socket link
  Rate socket_bw = Rate::bytes_per_sec(20'000'000'000);  // inter-socket link, per direction
  Bytes max_read_request{512};               // MRRS: bytes one DMA read request asks for
};

// GPU memory and the GPU's device<->host copy engine (host/gpu.hpp).
struct GpuParams {
  Time copy_latency = Time::us(5);           // cudaMemcpyAsync launch + completion seen by the host
  Rate copy_bw = Rate::bytes_per_sec(25'000'000'000);  // copy engine over Gen4 x16 (nvbandwidth)
  Rate nvlink_bw{};                          // NVLink per GPU and direction (0: none, peers copy over PCIe)
  Time nvlink_latency = Time::us(1);         // one NVLink transfer's fixed time (launch to data seen)
  double nvlink_efficiency = 0.82;           // share of nvlink_bw a collective's payload gets
  double nvls_efficiency = 0;                // share NVLS's in-switch reduce/multicast gets (0: no NVLS)
};

// RC connection setup (host/connection.hpp): rdma_cm-like exchange, QP transitions, MR pinning.
struct ConnParams {
  Time cm_process = Time::us(5);             // CM processing of one MAD (kernel ib_cm + rdma_cm event)
  Time cm_call = Time::us(1);                // the application's librdmacm call (rdma_connect, ...)
  Time create_id = Time::us(1);              // rdma_create_id
  Time bind = Time::us(1);                   // rdma_bind_addr
  Time resolve_addr = Time::us(10);          // rdma_resolve_addr, neighbour cached: the CM thread's work
  Time resolve_route = Time::us(10);         // rdma_resolve_route, route cached: the CM thread's work
  Time qp_destroy = Time::us(20);            // ibv_destroy_qp (firmware command)
  Bytes mad_size{256};                       // a CM MAD on the wire
  Time qp_create = Time::us(420);            // ibv_create_qp (firmware command)
  Time qp_transition = Time::us(7);          // one ibv_modify_qp (RESET->INIT->RTR->RTS)
  Time reg_fixed = Time::us(5);              // ibv_reg_mr call and MTT setup
  Time pin_per_page = Time::ps(380'000);     // pin + map one page
  Bytes page_size{4096};
};

struct MemoryParams {
  Time copy_fixed = Time::ns(50);            // per memcpy call (call, first cache misses)
  Rate copy_bw = Rate::bytes_per_sec(9'750'000'000);  // single-thread DRAM memcpy
};

struct HostParams {
  int tx_copies = 1;                         // CPU copies on the sending side
  int rx_copies = 1;                         // CPU copies on the receiving side
  Time poll_noise = Time::zero();            // mean exponential delay before a poll notices a completion
  double noise_prob = 0;                     // chance an OS interruption hits that poll...
  Time noise_max = Time::zero();             // ...costing uniform [0, noise_max] (host/os_noise.hpp)
};

struct KernelParams {
  Time syscall = Time::ns(220);              // one system call (entry + exit)
  Time wakeup = Time::ps(2'300'000);         // waking a blocked thread (context switch)
  Time tx_stack = Time::ps(1'600'000);       // per send(): socket/TCP/IP/qdisc/driver xmit
  Time rx_stack = Time::ps(1'800'000);       // per message: TCP receive + socket wake path
  Time tx_per_packet = Time::ns(400);        // per segment on transmit
  Time rx_per_packet = Time::ns(600);        // per segment in NAPI/softirq receive
  Time irq = Time::ns(1'000);                // hard interrupt entry + NAPI schedule
  Time rx_per_frame = Time::ns(100);         // bulk TCP with GRO: driver work per received frame
  Time backlog = Time::zero();               // wait in the softirq backlog before processing
  Time busy_poll_detect = Time::ns(100);     // a busy-polling socket noticing the data
};

struct NicParams {
  Time wqe_process = Time::ns(130);  // the part of tx_pipeline its QP's send engine is busy per WQE
  Time adapter_wqe = Time::ps(4'651);  // the part after it the adapter's shared engines are busy per WQE (215 Mpps)
  Time tx_pipeline = Time::ns(200);          // WQE/descriptor processing to first header
  Time rx_pipeline = Time::ns(200);          // packet parse/QP lookup to DMA issue
  Time tx_jitter = Time::zero();             // uniform [0, max] send-arbitration jitter
  bool blueflame = true;                     // WQE written with the doorbell (no WQE fetch)
  Bytes wqe_size{64};
  Bytes cqe_size{64};
  Bytes doorbell_size{8};
  Bytes max_inline{0};                       // 0 = perftest's default per test (220/236)
  Time rx_usecs = Time::us(3);               // interrupt moderation timer (when enabled)
  int rx_frames = 32;                        // interrupt moderation packet count
  bool adaptive_rx = false;                  // adaptive: no batching after rx_usecs without interrupts
  Bytes tx_window{64 * 1024};                // a QP's frames fetched ahead of the wire (0 = all)
  Bytes read_buffer{0};                      // outstanding DMA-read bytes (0 = only tx_window)
};

struct VerbsParams {
  Time post = Time::ns(40);                  // ibv_post_send: build WQE + doorbell write
  Time poll_detect = Time::ns(50);           // polling CPU sees the DMA-written byte / CQE
  Time doorbell = Time::ns(20);              // the part of `post` that rings the doorbell (MMIO
                                             // write + barriers): paid once per posted list
};

struct TcpParams {
  Bytes mss{1448};                           // 1500 MTU - IPv4 20 - TCP 20 - timestamps 12
  Bytes loopback_mss{65'483};                // lo MTU 65536 - 40 - 12 - 1 (Linux rounds down)
  // Bulk TCP over a fabric (`bw --transport tcp`): the stack's per-packet work is paid per
  // super-packet of up to this many bytes of a message (0 = per segment).
  Bytes gro{65'536};                         // receive: GRO super-packet (Linux GRO_MAX_SIZE 64 KiB)
  Bytes tso{65'536};                         // transmit: TSO/GSO super-packet (Linux GSO_MAX_SIZE 64 KiB)
  // Packet-level TCP over a fabric (sim/tcp_connection.hpp, `bw --transport tcp`).
  int initial_cwnd = 10;                     // segments (RFC 6928, Linux TCP_INIT_CWND)
  Bytes rwnd{6 * 1024 * 1024};               // fixed receive window (Linux tcp_rmem max 6 MB)
  Time min_rto = Time::ms(200);              // Linux TCP_RTO_MIN
  Time initial_rto = Time::ms(1000);         // RFC 6298 / Linux TCP_TIMEOUT_INIT
  Time max_rto = Time::ms(120'000);          // Linux TCP_RTO_MAX
  int delayed_ack = 2;                       // ACK every N in-order segments...
  Time delayed_ack_timeout = Time::ms(40);   // ...or this long after the first unacknowledged (TCP_DELACK_MIN)
  int dupack_threshold = 3;                  // duplicate ACKs that trigger fast retransmit
  double dctcp_g = 1.0 / 16;                 // DCTCP alpha gain (Linux dctcp_shift_g 4)
  int tc = 0;                                // priority (0..7) of TCP segments and ACKs: a lossy class
};

// RC transport (InfiniBand spec / libibverbs QP attributes).
struct RcParams {
  int timeout = 14;                          // local ACK timeout exponent: 4.096 us x 2^timeout
  int retry_cnt = 7;                         // retransmissions before RETRY_EXC_ERR
  bool ooo_placement = false;                // NIC places out-of-order packets (no NAK on reorder)
  bool selective_repeat = false;             // IRN-style loss recovery: NACKs name what is missing, only that is resent
  int min_rnr_timer = 12;                    // RNR NAK wait, 5-bit code (verbs/rnr_timer.hpp): 12 = 0.64 ms
  int rnr_retry = 7;                         // RNR NAKs retried before RNR_RETRY_EXC_ERR (7: forever)
  int max_inflight = 0;                      // at most this many packets unacknowledged (IRN's BDP cap); 0: none
  int ack_every = 64;                        // the requester asks for an ACK every this many packets of a message (0: last only)
  /// The packets between acknowledgement requests within a message (0: the last packet only):
  /// ack_every, and with a cap on packets in flight at most half of it, so that the requester
  /// asks before its window fills (Linux soft-RoCE: every 64 packets, at most 128 unacknowledged).
  int ack_interval() const {
    if (max_inflight <= 0) return ack_every;
    const int half = max_inflight > 1 ? max_inflight / 2 : 1;
    return ack_every > 0 && ack_every < half ? ack_every : half;
  }
};

// DCQCN (Zhu et al., SIGCOMM'15): the reaction point's rate control and the notification
// point's CNP pacing.
struct DcqcnParams {
  double g = 1.0 / 256;                      // alpha gain
  Time cnp_interval = Time::us(50);          // NP: at most one CNP per QP per interval
  Time alpha_timer = Time::us(55);           // RP: alpha decays every K without a CNP
  Time rate_timer = Time::us(55);            // RP: rate increase timer T
  Bytes byte_counter{10 * 1024 * 1024};      // RP: rate increase every B bytes sent
  int fast_recovery = 5;                     // RP: F, fast-recovery steps before additive increase
  Rate rate_ai = Rate::bps(40'000'000);             // RP: additive increase step
  Rate rate_hai = Rate::bps(400'000'000);           // RP: hyper increase step
  Rate min_rate = Rate::bps(100'000'000);           // RP: floor of the current rate
  int cnp_tc = 6;                            // priority of CNPs (high, lossy)
};

// ECN-fraction rate control (src/cc/ecn_fraction.hpp): DCTCP's alpha applied to an RDMA QP's rate.
struct EcnFractionParams {
  double g = 1.0 / 16;                        // alpha gain
  Rate rate_ai = Rate::bps(1'000'000'000);    // additive increase per window outside reduction
  Rate min_rate = Rate::bps(100'000'000);     // floor of the rate
};

// TIMELY rate control (src/cc/timely.hpp): the RTT gradient drives an RDMA QP's rate.
struct TimelyParams {
  double alpha = 0.875;                      // EWMA weight of the newest RTT difference
  double beta = 0.8;                         // multiplicative decrease factor
  Time t_low = Time::us(50);                 // below: additive increase whatever the gradient
  Time t_high = Time::us(500);               // above: decrease by beta (1 - t_high / rtt)
  Time min_rtt = Time::us(20);               // normalises the gradient
  Rate rate_ai = Rate::bps(10'000'000);      // additive increase step (delta)
  Rate rate_hai = Rate::bps(50'000'000);     // after 5 increases in a row (hyper-active increase)
  Rate min_rate = Rate::bps(100'000'000);    // floor of the rate
};

// Swift (src/cc/swift.hpp): delay-based AIMD on a window, paced as window / RTT.
struct SwiftParams {
  Time target = Time::us(25);                // base target delay (before hop and flow scaling)
  Time hop_scale = Time::us(1);              // target added per switch on the path
  Time fs_range = Time::us(25);              // flow scaling: the most added for a small window
  double fs_min_cwnd = 0.1, fs_max_cwnd = 100;  // packets: the full range added at or below min, none at max
  bool window_on = true;                     // the window also caps the bytes in flight
  double ai = 1.0;                           // additive increase, packets per round trip
  double beta = 0.8;                         // multiplicative decrease per unit of relative excess delay
  double max_mdf = 0.5;                      // largest decrease in one step
  double min_cwnd = 0.01;                    // packets (below 1: the QP is paced at a fraction of a packet per RTT)
  Rate min_rate = Rate::bps(100'000'000);    // floor of the rate
};

// HPCC rate control (src/cc/hpcc.hpp): in-band telemetry keeps the bottleneck at eta.
struct HpccParams {
  double eta = 0.95;                         // target utilisation
  int max_stage = 5;                         // additive increases before a multiplicative update
  Rate rate_ai = Rate::bps(40'000'000);      // additive increase R_AI
  Rate min_rate = Rate::bps(100'000'000);    // floor of the rate
  Time base_rtt{};                           // T; 0: the smallest RTT the QP has sampled
  Bytes window{};                            // W_init (the window at line rate); 0: line rate x T
  bool window_on = true;                     // a window W_init x R / line caps the bytes in flight
};

struct Profile {
  std::string name = "default";
  LinkParams link;
  SwitchParams sw;
  PcieParams pcie;
  MemoryParams mem;
  HostParams host;
  KernelParams kernel;
  NicParams nic;
  VerbsParams verbs;
  TcpParams tcp;
  RcParams rc;
  DcqcnParams dcqcn;
  EcnFractionParams ecn_fraction;
  TimelyParams timely;
  SwiftParams swift;
  HpccParams hpcc;
  GpuParams gpu;
  ConnParams conn;
};

/// A named parameter set: a registered component (`--profile` / scenario key `profile`).
/// Built-ins: default, cx6-200g, seed-demo. A program that links the library may register its
/// own (a NIC generation, a measured testbed) before it runs anything.
struct ProfileSpec {
  std::string name;
  std::string description;
  std::string source;             // where its figures come from ("" for none)
  std::function<Profile()> make;  // Profile::name set to `name`
};
std::vector<const ProfileSpec*> profiles();
/// Adds a profile; throws std::invalid_argument for an empty or taken name.
void register_profile(ProfileSpec spec);
/// The registered profile's parameters. Throws std::invalid_argument listing the names.
Profile make_profile(std::string_view name);
std::vector<std::string> profile_names();

struct ParamDef {
  std::string key;     // "group.field"
  std::string type;    // time | rate | bytes | int | bool | length | number
  std::string help;
  std::string source;  // where the default comes from
  std::function<std::string(const Profile&)> get;
  std::function<void(Profile&, std::string_view)> set;  // throws std::invalid_argument
  std::string range;                                     // the values it accepts: "1..31", "0 (off) or 16KiB..1GiB"
  std::function<bool(const Profile&)> in_range;          // the profile's value is one of them
};

const std::vector<ParamDef>& profile_params();

/// Applies "key=value". Unknown key or bad value -> std::invalid_argument naming the key
/// (and, for an unknown key, the nearest valid keys).
void apply_override(Profile& p, std::string_view assignment);

/// Checks every parameter against its ParamDef's range, then the relations between parameters
/// (switch.pfc_xoff <= switch.buffer, ...). Throws std::invalid_argument naming the key.
void validate(const Profile& p);

}  // namespace rdmasim
