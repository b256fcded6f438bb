// The parameter table: every profile field as "group.field" with its type, range, help and
// source; apply_override and validate read only this table (plus the relations between
// parameters, which validate lists).
#include "rdmasim/profile.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/number_text.hpp"
#include "model/param_table.hpp"
#include "rdmasim/buffer_policy.hpp"
#include "rdmasim/queue_scheduler.hpp"

namespace rdmasim {
namespace {

using namespace param_table;


std::vector<ParamDef> build_params() {
  using P = Profile;
  std::vector<ParamDef> r;
  // link
  r.push_back(rate_param("link.rate", &LinkParams::rate, &P::link, "link signalling rate (data rate after line coding)",
                         "ConnectX-6 100G port"));
  r.push_back(length_param("link.length", &LinkParams::length_mm, &P::link, "cable/fibre length between the two ports",
                           "3 m DAC, typical in-rack", kCableLength));
  r.push_back(int_param("link.velocity", &LinkParams::velocity_mps, &P::link,
                        "signal velocity in the medium, m/s (propagation = length / velocity)", "~2/3 c, textbook", Bounds<std::int64_t>{1'000'000, 299'792'458}));
  // switch
  r.push_back(time_param("switch.pipeline", &P::sw, &SwitchParams::pipeline, "switch forwarding pipeline latency",
                         "Spectrum-2 '300ns' (Linley 2017)"));
  r.push_back(time_param("switch.ib_pipeline", &P::sw, &SwitchParams::ib_pipeline,
                         "InfiniBand switch forwarding pipeline latency (--link-layer ib; switch.pipeline is Ethernet's)",
                         "estimate: HDR InfiniBand switches are quoted at 130 ns port to port (NVIDIA Quantum "
                         "QM87xx), NDR at under 150 ns (router-switch.com, Quantum-2 QM9700)"));
  r.push_back(bool_param("switch.cut_through", &SwitchParams::cut_through, &P::sw,
                         "cut-through forwarding (off: store-and-forward)", "Ethernet/IB datacenter ASICs"));
  r.push_back(bytes_param("switch.cut_through_bytes", &SwitchParams::cut_through_bytes, &P::sw,
                          "bytes a cut-through switch receives before it starts forwarding", "L2-L4 + BTH headers", Bounds<Bytes>{Bytes(1), Bytes(256)}));
  r.push_back(length_param("switch.fabric_length", &SwitchParams::fabric_length_mm, &P::sw,
                           "cable length between switches", "10 m in-row fibre, estimate", kCableLength));
  r.push_back(bytes_param("switch.buffer", &SwitchParams::buffer, &P::sw, "shared packet buffer per switch",
                          "16 MiB: Spectrum/Trident3-class 100G ToR", Bounds<Bytes>{Bytes(64 * 1024), Bytes(16 * kGiB)}));
  r.push_back({"switch.buffer_policy", "choice",
               "which frames of a lossy class the shared buffer takes (`rdmasim list` shows the policies)",
               "dynamic thresholds: the default of datacenter switch ASICs' shared buffers",
               [](const P& p) { return p.sw.buffer_policy; },
               [](P& p, std::string_view v) { p.sw.buffer_policy = buffer_policy(v).name; },
               "a registered buffer policy", [](const P&) { return true; }});
  r.push_back(number_param("switch.dt_alpha", &SwitchParams::dt_alpha, &P::sw,
                           "dynamic threshold: a lossy egress queue may hold alpha x the free shared buffer",
                           "Choudhury & Hahne DT; alpha 1 is a common default", Interval{0, 64, true}));
  r.push_back({"switch.scheduler", "choice",
               "which traffic class a switch port transmits next (`rdmasim list` shows the schedulers)",
               "strict priority: 802.1Q's default transmission selection",
               [](const P& p) { return p.sw.scheduler; },
               [](P& p, std::string_view v) { p.sw.scheduler = queue_scheduler(v).name; },
               "a registered queue scheduler", [](const P&) { return true; }});
  r.push_back({"switch.ets_weights", "weights",
               "--set switch.scheduler=ets: per traffic class 0..7, 0 = strict priority (served first), else the "
               "class's share of the port in percent",
               "estimate: a common RoCE QoS setup, RDMA (3) and TCP (0) 50 % each, CNPs (6) strict",
               [](const P& p) { return format_weights(p.sw.ets_weights); },
               [](P& p, std::string_view v) { p.sw.ets_weights = parse_weights(v); },
               "8 weights, each 0 to 100; the non-zero ones sum to 100", [](const P& p) { return weights_ok(p.sw.ets_weights); }});
  r.push_back(bytes_param("switch.queue_limit", &SwitchParams::queue_limit, &P::sw,
                          "static threshold: the most a lossy egress queue may hold",
                          "estimate: a 16 MiB buffer over 32 ports", Bounds<Bytes>{Bytes(1), Bytes(16 * kGiB)}));
  r.push_back(int_param("switch.data_tc", &SwitchParams::data_tc, &P::sw,
                        "traffic class (802.1p priority, 0..7) of RDMA data and ACKs", "RoCE convention: priority 3", kPriority));
  r.push_back(bool_param("switch.lossless", &SwitchParams::lossless, &P::sw,
                         "RoCE: the data class is lossless with PFC (off: lossy, drops on overflow)",
                         "lossless RoCE deployments"));
  r.push_back(bytes_param("switch.pfc_xoff", &SwitchParams::pfc_xoff, &P::sw,
                          "PFC: XOFF when an ingress port/priority holds more than this", "estimate (mlnx_qos-style)", Bounds<Bytes>{Bytes(1), Bytes(16 * kGiB)}));
  r.push_back(bytes_param("switch.pfc_xon_delta", &SwitchParams::pfc_xon_delta, &P::sw,
                          "PFC: XON once the ingress port/priority is below xoff - delta", "estimate: 2 MTU frames", kBufferBytes));
  r.push_back(bytes_param("switch.pfc_headroom", &SwitchParams::pfc_headroom, &P::sw,
                          "PFC headroom per ingress port/priority; 0 = sized from the cable "
                          "((2 x propagation + switch pipeline) x rate + 3 max frames)",
                          "802.1Qbb headroom rule", kBufferBytes));
  r.push_back(bool_param("switch.ecn", &SwitchParams::ecn, &P::sw, "ECN marking (RED on egress queue depth)",
                         "DCQCN deployments"));
  r.push_back(bytes_param("switch.ecn_kmin", &SwitchParams::ecn_kmin, &P::sw, "ECN: no marking below this queue depth",
                          "DCQCN paper (SIGCOMM'15): 5 KB", kBufferBytes));
  r.push_back(bytes_param("switch.ecn_kmax", &SwitchParams::ecn_kmax, &P::sw, "ECN: every packet marked above this depth",
                          "DCQCN paper: 200 KB", kBufferBytes));
  r.push_back(number_param("switch.ecn_pmax", &SwitchParams::ecn_pmax, &P::sw,
                           "ECN: marking probability at kmax (linear from kmin)", "DCQCN paper: 1 %", Interval{0, 1}));
  r.push_back(bytes_param("switch.ib_vl_buffer", &SwitchParams::ib_vl_buffer, &P::sw,
                          "InfiniBand: input buffer per port and VL, advertised as credits", "estimate", Bounds<Bytes>{Bytes(1024), Bytes(16 * kGiB)}));
  r.push_back(time_param("switch.deadlock_detect", &P::sw, &SwitchParams::deadlock_detect,
                         "PFC deadlock: a cycle in the waits-for graph of paused queues that persists this long "
                         "is reported and stops the run (0: off)",
                         "estimate: far above transient incast pauses (tens of us)", kLongDuration));
  r.push_back(time_param("switch.pfc_watchdog", &P::sw, &SwitchParams::pfc_watchdog,
                         "PFC watchdog: a queue paused this long while holding frames drops them and every frame "
                         "for it until restore (0: off)",
                         "SONiC/Mellanox PFC watchdog (operators: 100-200 ms)", kLongDuration));
  r.push_back(time_param("switch.pfc_watchdog_restore", &P::sw, &SwitchParams::pfc_watchdog_restore,
                         "PFC watchdog: how long a queue stays in drop mode before it obeys pause again",
                         "SONiC default restoration time 200 ms", Bounds<Time>{Time::ps(1), Time::ms(100'000)}));
  r.push_back(time_param("switch.flowlet_timeout", &P::sw, &SwitchParams::flowlet_timeout,
                         "--routing flowlet: a packet this long after its flow's previous one starts a new flowlet",
                         "ConWeave's ns-3 LetflowRouting (Song et al., SIGCOMM 2023): 100 us", Bounds<Time>{Time::ps(1), Time::ms(1'000)}));
  r.push_back(int_param("switch.flowlet_table", &SwitchParams::flowlet_table, &P::sw,
                        "--routing flowlet: flowlet slots per switch (indexed by the flow's hash)",
                        "estimate: 4096 (LetFlow keeps a hash-indexed flowlet table per switch)", Bounds<std::int64_t>{1, 1 << 20}));
  r.push_back(time_param("switch.route_convergence", &P::sw, &SwitchParams::route_convergence,
                         "link down/up (--link-down): time until the switches' routing reflects the change; until "
                         "then frames routed to a down link are lost",
                         "estimate: fast BGP/BFD failover in a DC fabric, 10 ms", kLongDuration));
  // pcie
  r.push_back(int_param("pcie.gen", &PcieParams::gen, &P::pcie, "PCIe generation 1..5 (transfer rate and line code)",
                        "Gen4 server", Bounds<std::int64_t>{1, 5}));
  r.push_back(int_param("pcie.lanes", &PcieParams::lanes, &P::pcie, "PCIe link width", "x16 NIC slot", OneOf{{1, 2, 4, 8, 16}}));
  r.push_back(bytes_param("pcie.max_payload", &PcieParams::max_payload, &P::pcie,
                          "max TLP payload (MPS); transfers are cut into TLPs of this size", "256 B typical MPS", Bounds<Bytes>{Bytes(128), Bytes(4096)}));
  r.push_back(bytes_param("pcie.tlp_overhead", &PcieParams::tlp_overhead, &P::pcie,
                          "bytes added per TLP (header, sequence, LCRC, framing)", "PCIe spec; Neugebauer SIGCOMM'18", Bounds<Bytes>{Bytes(0), Bytes(4096)}));
  r.push_back(time_param("pcie.latency", &P::pcie, &PcieParams::latency,
                         "one traversal between device and root complex/memory", "estimate; DMA read RTT ~500 ns (Neugebauer SIGCOMM'18)"));
  r.push_back({"pcie.topology", "choice",
               "where a GPU sits relative to the NIC: switch (one PCIe switch), root (both under the root "
               "complex), cross-socket (through the inter-socket link)",
               "DGX-style: GPU and NIC under one PCIe switch",
               [](const P& p) { return std::string(to_string(p.pcie.topology)); },
               [](P& p, std::string_view v) {
                 if (v == "switch") p.pcie.topology = PcieTopology::pcie_switch;
                 else if (v == "root") p.pcie.topology = PcieTopology::root;
                 else if (v == "cross-socket") p.pcie.topology = PcieTopology::cross_socket;
                 else throw std::invalid_argument("expected switch, root or cross-socket, got \"" + std::string(v) + "\"");
               },
               "switch|root|cross-socket", [](const P&) { return true; }});
  r.push_back(time_param("pcie.switch_latency", &P::pcie, &PcieParams::switch_latency,
                         "topology switch: one peer-to-peer traversal NIC <-> PCIe switch <-> GPU",
                         "estimate: PCIe Gen4 switch port-to-port ~100-150 ns"));
  r.push_back(time_param("pcie.socket_latency", &P::pcie, &PcieParams::socket_latency,
                         "topology cross-socket: one crossing of the inter-socket link (UPI/xGMI) by a TLP",
                         "estimate: chosen so cross-socket GPUDirect halves (perftest#241)"));
  r.push_back(rate_param("pcie.socket_bw", &PcieParams::socket_bw, &P::pcie,
                         "topology cross-socket: inter-socket link bandwidth per direction",
                         "estimate: one UPI link ~20 GB/s"));
  r.push_back(bytes_param("pcie.max_read_request", &PcieParams::max_read_request, &P::pcie,
                          "MRRS: bytes one DMA read request asks for (nic.read_buffer holds whole requests)",
                          "512 B: common BIOS/driver default", OneOf{{128, 256, 512, 1024, 2048, 4096}}));
  // gpu
  r.push_back(time_param("gpu.copy_latency", &P::gpu, &GpuParams::copy_latency,
                         "device<->host copy: launch and completion latency of one cudaMemcpyAsync",
                         "estimate: a few us per launch+sync"));
  r.push_back(rate_param("gpu.copy_bw", &GpuParams::copy_bw, &P::gpu, "device<->host copy engine bandwidth",
                         "A100 Gen4 x16 nvbandwidth H2D 25.13 GB/s"));
  r.push_back(rate_param("gpu.nvlink_bw", &GpuParams::nvlink_bw, &P::gpu,
                         "NVLink bandwidth per GPU and direction, through the NVSwitch (0: no NVLink, GPUs of a server "
                         "copy through PCIe)",
                         "HGX A100 blog: 600 GB/s per GPU both ways; HGX H100 blog: 900 GB/s (server profiles)",
                         Bounds<Rate>{kRate.lo, kRate.hi, true}));
  r.push_back(time_param("gpu.nvlink_latency", &P::gpu, &GpuParams::nvlink_latency,
                         "one NVLink transfer between GPUs of a server: fixed time", "estimate"));
  r.push_back(number_param("gpu.nvlink_efficiency", &GpuParams::nvlink_efficiency, &P::gpu,
                           "share of gpu.nvlink_bw a collective's payload gets (protocol overhead)",
                           "nccl-tests#212: H100 line rate 450 GB/s, NCCL's effective 370 GB/s (0.82)", kGain));
  r.push_back(number_param("gpu.nvls_efficiency", &GpuParams::nvls_efficiency, &P::gpu,
                           "share of gpu.nvlink_bw NVLink SHARP's traffic gets: reductions inside the NVSwitch and its "
                           "multicast (--algo nvls; 0: no NVLS, as before NVSwitch gen 3)",
                           "nccl-tests#212: 8 x H100 NVLS peak busbw ~480 GB/s, algbw ~275 GB/s (dgx-h100)",
                           Interval{0, 1}));
  // conn
  r.push_back(time_param("conn.cm_process", &P::conn, &ConnParams::cm_process,
                         "CM processing of one REQ/REP/RTU/address MAD on the receiving host", "estimate"));
  r.push_back(bytes_param("conn.mad_size", &ConnParams::mad_size, &P::conn, "CM MAD size on the wire",
                          "IB spec: 256 B MADs", Bounds<Bytes>{Bytes(1), Bytes(4096)}));
  r.push_back(time_param("conn.cm_call", &P::conn, &ConnParams::cm_call,
                         "the application's librdmacm call (rdma_resolve_addr, rdma_connect, ...) on its thread",
                         "estimate"));
  r.push_back(time_param("conn.create_id", &P::conn, &ConnParams::create_id, "rdma_create_id",
                         "rdma-core PR #1448: cmtime create id 1 us per connection (1,000 connections)"));
  r.push_back(time_param("conn.bind", &P::conn, &ConnParams::bind, "rdma_bind_addr", "estimate"));
  r.push_back(time_param("conn.resolve_addr", &P::conn, &ConnParams::resolve_addr,
                         "rdma_resolve_addr with the neighbour cached: the CM thread's work per id", "estimate"));
  r.push_back(time_param("conn.resolve_route", &P::conn, &ConnParams::resolve_route,
                         "rdma_resolve_route with the route cached: the CM thread's work per id", "estimate"));
  r.push_back(time_param("conn.qp_create", &P::conn, &ConnParams::qp_create, "ibv_create_qp (firmware command)",
                         "fitted with conn.qp_transition to rdma-core PR #1448's cmtime, 1,000 connections: full connect "
                         "889,795 us in all, the first after 449,073 (rdmasim cmtime -c 1000: create + INIT before, "
                         "the server's create + 3 transitions per connection while connecting); the split between "
                         "the two is an estimate"));
  r.push_back(time_param("conn.qp_transition", &P::conn, &ConnParams::qp_transition,
                         "one ibv_modify_qp state transition (firmware command)", "fitted: see conn.qp_create"));
  r.push_back(time_param("conn.qp_destroy", &P::conn, &ConnParams::qp_destroy, "ibv_destroy_qp (firmware command)",
                         "estimate"));
  r.push_back(time_param("conn.reg_fixed", &P::conn, &ConnParams::reg_fixed, "ibv_reg_mr fixed cost", "estimate"));
  r.push_back(time_param("conn.pin_per_page", &P::conn, &ConnParams::pin_per_page,
                         "ibv_reg_mr: pin and map one page",
                         "~98 ms/GB sequential registration (Mooncake#855) = 0.38 us per 4 KiB page"));
  r.push_back(bytes_param("conn.page_size", &ConnParams::page_size, &P::conn, "page size registration pins",
                          "4 KiB pages", Bounds<Bytes>{Bytes(512), Bytes(kGiB)}));
  // memory
  r.push_back(time_param("mem.copy_fixed", &P::mem, &MemoryParams::copy_fixed, "fixed cost of one memcpy", "estimate"));
  r.push_back(rate_param("mem.copy_bw", &MemoryParams::copy_bw, &P::mem, "memcpy bandwidth",
                         "measured on a reference Linux host: 9.75 GB/s single-thread 256 MiB memcpy"));
  // host
  r.push_back(int_param("host.tx_copies", &HostParams::tx_copies, &P::host,
                        "CPU copies of the payload on the sender (TCP; RDMA without zero copy)", "Linux: user->kernel", Bounds<std::int64_t>{0, 16}));
  r.push_back(int_param("host.rx_copies", &HostParams::rx_copies, &P::host,
                        "CPU copies of the payload on the receiver", "Linux: kernel->user", Bounds<std::int64_t>{0, 16}));
  r.push_back(time_param("host.poll_noise", &P::host, &HostParams::poll_noise,
                         "mean of the exponential delay before a polling thread notices a completion (CQ cache misses, "
                         "PCIe arbitration, the loop's phase; charged to kernel; 0 = none)",
                         "0 (off: every sample alike); a bare-metal host ~30 ns (estimate: public mlx5 ib_send_lat "
                         "rows put the 99th percentile ~6 % above the median, 0.06 us at 1 us)"));
  r.push_back(number_param("host.noise_prob", &HostParams::noise_prob, &P::host,
                           "chance that an OS interruption (timer tick, interrupt, softirq) hits a poll",
                           "0 (off); ~0.005 with noise_max 4 us (estimate: public ib_*_lat rows show t_max, the "
                           "second largest of 1000, 0.5-4 us above the median on every host)",
                           Interval{0, 1}));
  r.push_back(time_param("host.noise_max", &P::host, &HostParams::noise_max,
                         "an OS interruption costs the poll uniform [0, noise_max]", "0 (off); see host.noise_prob"));
  // kernel
  r.push_back(time_param("kernel.syscall", &P::kernel, &KernelParams::syscall, "one system call, entry + exit",
                         "measured on a reference Linux host: getppid 219 ns"));
  r.push_back(time_param("kernel.wakeup", &P::kernel, &KernelParams::wakeup, "wake a blocked thread (context switch)",
                         "measured on a reference Linux host: pipe ping-pong 2.74 us/switch incl. 2 syscalls"));
  r.push_back(time_param("kernel.tx_stack", &P::kernel, &KernelParams::tx_stack, "kernel transmit path per message",
                         "fitted: loopback-equivalent path sums to qperf tcp_lat 7.2 us (measured on a reference Linux host)"));
  r.push_back(time_param("kernel.rx_stack", &P::kernel, &KernelParams::rx_stack, "kernel receive path per message",
                         "fitted, as kernel.tx_stack"));
  r.push_back(time_param("kernel.tx_per_packet", &P::kernel, &KernelParams::tx_per_packet, "kernel work per sent segment",
                         "fitted, as kernel.tx_stack"));
  r.push_back(time_param("kernel.rx_per_packet", &P::kernel, &KernelParams::rx_per_packet,
                         "kernel work per received segment (NAPI/softirq)", "fitted, as kernel.tx_stack"));
  r.push_back(time_param("kernel.irq", &P::kernel, &KernelParams::irq, "hard interrupt entry/exit + NAPI schedule",
                         "estimate"));
  r.push_back(time_param("kernel.rx_per_frame", &P::kernel, &KernelParams::rx_per_frame,
                         "TCP with GRO: driver work per received frame (descriptor, skb, GRO merge)",
                         "estimate: ~10 Mpps of GRO merging per core"));
  r.push_back(time_param("kernel.backlog", &P::kernel, &KernelParams::backlog,
                         "wait in the per-CPU backlog before softirq processing (charged to queue)", "0: unloaded host"));
  r.push_back(time_param("kernel.busy_poll_detect", &P::kernel, &KernelParams::busy_poll_detect,
                         "a busy-polling socket noticing new data", "estimate"));
  // nic
  r.push_back(time_param("nic.tx_pipeline", &P::nic, &NicParams::tx_pipeline, "NIC send pipeline (WQE to packet)",
                         "ConnectX-6 'sub-600ns' adapter latency split tx/rx"));
  r.push_back(time_param("nic.wqe_process", &P::nic, &NicParams::wqe_process,
                         "the part of nic.tx_pipeline during which the QP's send engine is busy with one WQE: "
                         "one QP sends at most 1 / wqe_process WQEs per second (QPs have engines of their own)",
                         "fitted: 7.50 Mpps, one QP with post list 128 (perftest#273); 1 KB ib_send_bw 63.6 Gb/s "
                         "= 7.8 Mpps (perftest PR #98)"));
  r.push_back(time_param("nic.adapter_wqe", &P::nic, &NicParams::adapter_wqe,
                         "the part of nic.tx_pipeline after the QP's engine during which the adapter's engines, shared by "
                         "every QP, are busy with one WQE: the whole adapter sends at most 1 / adapter_wqe WQEs per "
                         "second (0: no adapter-wide limit)",
                         "ConnectX-6: 215 million messages per second (NVIDIA ConnectX-6 EN documentation, Introduction); "
                         "an estimate for other adapters"));
  r.push_back(time_param("nic.rx_pipeline", &P::nic, &NicParams::rx_pipeline, "NIC receive pipeline (packet to DMA)",
                         "as nic.tx_pipeline"));
  r.push_back(time_param("nic.tx_jitter", &P::nic, &NicParams::tx_jitter,
                         "random send-arbitration delay per message, uniform [0, max] (charged to queue)", "0"));
  r.push_back(bool_param("nic.blueflame", &NicParams::blueflame, &P::nic,
                         "WQE written together with the doorbell (no WQE fetch over PCIe)", "mlx5 BlueFlame"));
  r.push_back(bytes_param("nic.wqe_size", &NicParams::wqe_size, &P::nic, "send WQE size", "mlx5: 64 B basic block", Bounds<Bytes>{Bytes(1), Bytes(64 * 1024)}));
  r.push_back(bytes_param("nic.cqe_size", &NicParams::cqe_size, &P::nic, "CQE size", "mlx5: 64 B", Bounds<Bytes>{Bytes(1), Bytes(64 * 1024)}));
  r.push_back(bytes_param("nic.doorbell_size", &NicParams::doorbell_size, &P::nic, "doorbell MMIO write size", "8 B", Bounds<Bytes>{Bytes(1), Bytes(64 * 1024)}));
  r.push_back(bytes_param("nic.max_inline", &NicParams::max_inline, &P::nic,
                          "max inline data; 0 = perftest default (220 B write, 236 B send)", "perftest -I", Bounds<Bytes>{Bytes(0), Bytes(1024)}));
  r.push_back(time_param("nic.rx_usecs", &P::nic, &NicParams::rx_usecs, "interrupt moderation timer (coalescing on)",
                         "mlx5 CQE-mode default 3 us"));
  r.push_back(int_param("nic.rx_frames", &NicParams::rx_frames, &P::nic, "interrupt moderation packet count",
                        "mlx5 default 32", Bounds<std::int64_t>{1, 1'000'000}));
  r.push_back(bool_param("nic.adaptive_rx", &NicParams::adaptive_rx, &P::nic,
                         "adaptive moderation (DIM-like): interrupt at once when the previous interrupt is at least "
                         "rx_usecs old, batch only under load",
                         "mlx5 rx_dim_enabled; off here so rx-usecs/rx-frames act alone"));
  // verbs
  r.push_back(bytes_param("nic.tx_window", &NicParams::tx_window, &P::nic,
                          "transmit window per QP: frame bytes the NIC fetches (DMA) ahead of the wire; 0 = the "
                          "whole message at once",
                          "estimate: on-NIC transmit buffering, ~5 us of 100G", Bounds<Bytes>{Bytes(16 * 1024), Bytes(kGiB), true}));
  r.push_back(bytes_param("nic.read_buffer", &NicParams::read_buffer, &P::nic,
                          "bytes of DMA reads the NIC keeps outstanding (whole max_read_request units); it bounds "
                          "read throughput to read_buffer / read round trip; 0 = only nic.tx_window",
                          "estimate (cx6-200g: 32 KiB)", Bounds<Bytes>{Bytes(128), Bytes(kGiB), true}));
  r.push_back(time_param("verbs.post", &P::verbs, &VerbsParams::post, "user-space post_send (WQE build + doorbell)",
                         "UCX ucx_info CX-6 'overhead: 40 nsec'"));
  r.push_back(time_param("verbs.poll_detect", &P::verbs, &VerbsParams::poll_detect,
                         "polling CPU sees DMA-written data or a CQE (cache-line miss)", "estimate"));
  r.push_back(time_param("verbs.doorbell", &P::verbs, &VerbsParams::doorbell,
                         "the part of verbs.post that rings the doorbell (MMIO write + write barriers); a post "
                         "list of N WQEs pays it once (bw --post-list)",
                         "estimate: half of verbs.post (Kalia et al., ATC'16: MMIOs dominate post cost)"));
  // rc
  r.push_back(int_param("rc.timeout", &RcParams::timeout, &P::rc,
                        "local ACK timeout exponent: a QP retransmits after 4.096 us x 2^timeout without progress",
                        "perftest default 14 (67 ms); IB spec C9-140", Bounds<std::int64_t>{1, 31}));
  r.push_back(int_param("rc.retry_cnt", &RcParams::retry_cnt, &P::rc,
                        "timeouts retried before the QP fails with RETRY_EXC_ERR", "perftest/ibv default 7", Bounds<std::int64_t>{0, 7}));
  r.push_back(bool_param("rc.ooo_placement", &RcParams::ooo_placement, &P::rc,
                         "the NIC places out-of-order packets of a message (off: a reordered packet is a sequence "
                         "error, answered with a NAK and go-back-N)",
                         "classic RC NICs: off; multipath (SRD-style) NICs: on"));
  r.push_back(bool_param("rc.selective_repeat", &RcParams::selective_repeat, &P::rc,
                         "selective repeat instead of go-back-N: the responder places out-of-order packets and "
                         "answers each with a NACK naming the first missing PSN and the one received; the "
                         "requester resends only the missing ones (a timeout resends the oldest unacknowledged one)",
                         "IRN: Mittal et al., Revisiting Network Support for RDMA, SIGCOMM 2018"));
  r.push_back(int_param("rc.min_rnr_timer", &RcParams::min_rnr_timer, &P::rc,
                        "RNR NAK wait, the 5-bit IBA code: the requester retries a SEND the responder had no "
                        "receive for after 0.01 ms (1) ... 491.52 ms (31); 0 = 655.36 ms",
                        "12 (0.64 ms) as in rdma-core's ibv_rc_pingpong and most examples; IBA table 45", Bounds<std::int64_t>{0, 31}));
  r.push_back(int_param("rc.rnr_retry", &RcParams::rnr_retry, &P::rc,
                        "RNR NAKs retried before the QP fails with RNR_RETRY_EXC_ERR (7: retry forever)",
                        "the usual 7 (retry forever)", Bounds<std::int64_t>{0, 7}));
  r.push_back(int_param("rc.ack_every", &RcParams::ack_every, &P::rc,
                        "the requester asks for an acknowledgement (AckReq) on every ack_every-th packet of a message "
                        "as well as its last, and the responder answers with a cumulative ACK, so a long message frees its "
                        "retransmission copies and restarts the timer as it goes (0: only the last packet asks); with "
                        "rc.max_inflight, at least every max_inflight / 2 packets, before the window fills",
                        "Linux soft-RoCE (rxe) asks every RXE_MAX_PKT_PER_ACK = 64 packets (drivers/infiniband/sw/rxe); "
                        "an estimate for hardware RNICs", Bounds<std::int64_t>{0, 1 << 24}));
  r.push_back(int_param("rc.max_inflight", &RcParams::max_inflight, &P::rc,
                        "at most this many packets of a QP unacknowledged at once; later ones wait (0: no cap, "
                        "the NIC's transmit window and the tx depth alone)",
                        "IRN (Mittal et al., SIGCOMM 2018) caps it at the bandwidth-delay product in MTUs; 0 = "
                        "classic RC", Bounds<std::int64_t>{0, 1 << 24}));
  add_congestion_control_params(r);
  // tcp
  r.push_back(bytes_param("tcp.mss", &TcpParams::mss, &P::tcp, "TCP maximum segment size", "1500 MTU with timestamps", Bounds<Bytes>{Bytes(64), Bytes(65'000)}));
  r.push_back(bytes_param("tcp.loopback_mss", &TcpParams::loopback_mss, &P::tcp,
                          "TCP segment size over the loopback device (topology loopback)", "lo MTU 65536", Bounds<Bytes>{Bytes(64), Bytes(65'483)}));
  r.push_back(bytes_param("tcp.gro", &TcpParams::gro, &P::tcp,
                          "TCP (lat and bw): receive super-packet (GRO) the stack processes once; 0B = per segment",
                          "Linux GRO_MAX_SIZE 65536", Bounds<Bytes>{Bytes(64), Bytes(4 << 20), true}));
  r.push_back(bytes_param("tcp.tso", &TcpParams::tso, &P::tcp,
                          "TCP (lat and bw): transmit super-packet (TSO) the stack hands the NIC; 0B = per segment",
                          "Linux GSO_MAX_SIZE 65536", Bounds<Bytes>{Bytes(64), Bytes(4 << 20), true}));
  r.push_back(int_param("tcp.initial_cwnd", &TcpParams::initial_cwnd, &P::tcp,
                        "packet-level TCP: initial congestion window, segments", "RFC 6928; Linux TCP_INIT_CWND 10", Bounds<std::int64_t>{1, 1000}));
  r.push_back(bytes_param("tcp.rwnd", &TcpParams::rwnd, &P::tcp, "packet-level TCP: the receiver's fixed window",
                          "Linux tcp_rmem max 6 MB", Bounds<Bytes>{Bytes(64), Bytes(kGiB)}));
  r.push_back(time_param("tcp.min_rto", &P::tcp, &TcpParams::min_rto,
                         "packet-level TCP: lower bound of the retransmission timeout", "Linux TCP_RTO_MIN 200 ms", Bounds<Time>{Time::ps(1), Time::ms(1'000'000)}));
  r.push_back(time_param("tcp.initial_rto", &P::tcp, &TcpParams::initial_rto,
                         "packet-level TCP: the retransmission timeout before the first RTT sample",
                         "RFC 6298 1 s; Linux TCP_TIMEOUT_INIT", Bounds<Time>{Time::ps(1), Time::ms(1'000'000)}));
  r.push_back(time_param("tcp.max_rto", &P::tcp, &TcpParams::max_rto,
                         "packet-level TCP: upper bound of the backed-off retransmission timeout", "Linux TCP_RTO_MAX 120 s", Bounds<Time>{Time::ps(1), Time::ms(1'000'000)}));
  r.push_back(int_param("tcp.delayed_ack", &TcpParams::delayed_ack, &P::tcp,
                        "packet-level TCP: the receiver acknowledges every N in-order segments", "RFC 1122/5681: 2", Bounds<std::int64_t>{1, 64}));
  r.push_back(time_param("tcp.delayed_ack_timeout", &P::tcp, &TcpParams::delayed_ack_timeout,
                         "packet-level TCP: a delayed ACK goes out at the latest this long after its first segment",
                         "Linux TCP_DELACK_MIN 40 ms", kPositiveDuration));
  r.push_back(int_param("tcp.dupack_threshold", &TcpParams::dupack_threshold, &P::tcp,
                        "packet-level TCP: duplicate ACKs that trigger fast retransmit", "RFC 5681: 3", Bounds<std::int64_t>{1, 100}));
  r.push_back(number_param("tcp.dctcp_g", &TcpParams::dctcp_g, &P::tcp,
                           "DCTCP: alpha gain g (alpha <- (1-g) alpha + g F once per window)",
                           "DCTCP paper / Linux dctcp_shift_g: 1/16", kGain));
  r.push_back(int_param("tcp.tc", &TcpParams::tc, &P::tcp,
                        "packet-level TCP: priority (0..7) of segments and ACKs (a lossy class unless switch.data_tc)",
                        "best effort: 0", kPriority));
  return r;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

const std::vector<ParamDef>& profile_params() {
  static const std::vector<ParamDef> params = build_params();
  return params;
}

void apply_override(Profile& p, std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw std::invalid_argument("--set expects key=value, got \"" + std::string(assignment) + "\"");
  const std::string_view key = assignment.substr(0, eq);
  const std::string_view value = assignment.substr(eq + 1);
  for (const ParamDef& d : profile_params()) {
    if (d.key != key) continue;
    try {
      d.set(p, value);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(key) + ": " + e.what());
    }
    return;
  }
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const ParamDef& d : profile_params()) near.emplace_back(edit_distance(key, d.key), d.key);
  std::sort(near.begin(), near.end());
  std::string hint;
  for (std::size_t i = 0; i < 3 && i < near.size(); ++i) hint += (i ? ", " : "") + near[i].second;
  throw std::invalid_argument("unknown parameter \"" + std::string(key) + "\" (nearest: " + hint +
                              "; `rdmasim list` shows all)");
}

void validate(const Profile& p) {
  for (const ParamDef& d : profile_params())
    if (!d.in_range(p)) throw std::invalid_argument(d.key + ": must be " + d.range);
  // Relations between parameters; each parameter's own range is in the table above.
  auto require = [](bool ok, const char* m) {
    if (!ok) throw std::invalid_argument(m);
  };
  const SwitchParams& w = p.sw;
  require(w.pfc_xoff <= w.buffer, "switch.pfc_xoff: must not exceed switch.buffer");
  require(w.pfc_xon_delta <= w.pfc_xoff, "switch.pfc_xon_delta: must not exceed switch.pfc_xoff");
  require(w.pfc_headroom <= w.buffer, "switch.pfc_headroom: must not exceed switch.buffer");
  require(w.ecn_kmin <= w.ecn_kmax && w.ecn_kmax <= w.buffer,
          "switch.ecn_kmin/ecn_kmax: need 0 <= kmin <= kmax <= switch.buffer");
  require(w.ib_vl_buffer <= w.buffer, "switch.ib_vl_buffer: must not exceed switch.buffer");
  require(p.verbs.doorbell <= p.verbs.post, "verbs.doorbell: must not exceed verbs.post (it is part of it)");
  require(p.nic.wqe_process <= p.nic.tx_pipeline, "nic.wqe_process: must not exceed nic.tx_pipeline (it is part of it)");
  require(p.nic.wqe_process + p.nic.adapter_wqe <= p.nic.tx_pipeline,
          "nic.adapter_wqe: nic.wqe_process + nic.adapter_wqe must not exceed nic.tx_pipeline (both are part of it)");
  require(p.nic.read_buffer.count() == 0 || p.nic.read_buffer >= p.pcie.max_read_request,
          "nic.read_buffer: must be 0 (not modelled) or at least pcie.max_read_request");
  require(p.timely.t_low < p.timely.t_high, "timely.t_low: must be below timely.t_high");
  require(p.swift.fs_min_cwnd < p.swift.fs_max_cwnd, "swift.fs_min_cwnd: must be below swift.fs_max_cwnd");
  require(p.tcp.gro.count() == 0 || p.tcp.gro >= p.tcp.mss, "tcp.gro: must be 0 (off) or at least tcp.mss");
  require(p.tcp.tso.count() == 0 || p.tcp.tso >= p.tcp.mss, "tcp.tso: must be 0 (off) or at least tcp.mss");
  require(p.tcp.rwnd >= p.tcp.mss, "tcp.rwnd: must hold at least one segment (tcp.mss)");
  require(p.tcp.initial_rto >= p.tcp.min_rto, "tcp.initial_rto: must be at least tcp.min_rto");
  require(p.tcp.max_rto >= p.tcp.initial_rto, "tcp.max_rto: must be at least tcp.initial_rto");
}

}  // namespace rdmasim
