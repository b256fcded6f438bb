#include "config/catalogue.hpp"

#include "net/topology.hpp"
#include "rdmasim/buffer_policy.hpp"
#include "rdmasim/queue_scheduler.hpp"
#include "rdmasim/profile.hpp"
#include "rdmasim/collective.hpp"
#include "rdmasim/server.hpp"
#include "rdmasim/flows.hpp"
#include "rdmasim/load_balancer.hpp"
#include "rdmasim/rate_control.hpp"
#include "rdmasim/tcp_cc.hpp"
#include "rdmasim/traffic_pattern.hpp"

namespace rdmasim::config {
namespace {

// A registry entry: its description with its source, and the profile parameters under its prefix.
template <typename Spec>
Component registered(const std::string& kind, const Spec& s, const std::string& selected_by) {
  Component x{kind, s.name, s.description + (s.source.empty() ? "" : " (" + s.source + ")"), selected_by, {}};
  for (const ParamDef& d : profile_params())
    if (!s.params.empty() && d.key.rfind(s.params, 0) == 0) x.params.push_back(d.key);
  return x;
}

std::vector<Component> build() {
  std::vector<Component> c;
  c.push_back({"topology", "back-to-back", "two hosts, NICs joined by one cable", "--topology / network.topology", {}});
  c.push_back({"topology", "loopback", "kernel TCP between two processes on one host over lo (no NIC, PCIe or wire)",
               "--topology / network.topology", {}});
  for (const TopologyBuilder& b : topology_builders())
    if (b.name != "back-to-back") c.push_back({"topology", b.name, b.description, "--topology / network.topology", {}});
  for (const LoadBalancerSpec* s : load_balancers()) c.push_back(registered("routing", *s, "--routing / network.routing"));
  c.push_back({"link layer", "roce", "RoCEv2 over Ethernet: PFC per priority (lossless class) or drops (lossy), ECN/RED",
               "--link-layer / network.link_layer; switch.lossless", {}});
  c.push_back({"link layer", "ib", "InfiniBand: credit-based flow control per VL, lossless by construction",
               "--link-layer / network.link_layer", {}});
  for (const QueueSchedulerSpec* s : queue_schedulers())
    c.push_back(registered("queue scheduler", *s, "--set switch.scheduler (switch ports: 8 traffic classes, FIFO within one)"));
  c.push_back({"queue discipline", "qp-round-robin", "host NIC ports: one packet per QP in turn, within nic.tx_window",
               "nic.tx_window", {}});
  for (const BufferPolicySpec* s : buffer_policies())
    c.push_back(registered("buffer policy", *s, "--set switch.buffer_policy (lossy classes; PFC: switch.pfc_*)"));
  for (const RateControlSpec* s : rate_controls()) c.push_back(registered("congestion control", *s, "--cc / network.cc"));
  for (const TcpCcSpec* s : tcp_congestion_controls())
    c.push_back(registered("tcp congestion control", *s, "--transport tcp --tcp-cc / network.tcp_cc"));
  c.push_back({"ring routing", "clockwise", "ring: every frame travels sw_i -> sw_i+1; flows wrap around (cyclic buffer dependency)",
               "--ring-routing / network.ring_routing", {}});
  c.push_back({"ring routing", "up-down", "ring: shortest path both ways, never across the sw_N-1 - sw0 cable (deadlock-free)",
               "--ring-routing / network.ring_routing", {}});
  c.push_back({"pfc", "deadlock-detect", "waits-for graph of paused queues; a cycle older than the threshold stops the run, reported",
               "switch.deadlock_detect", {}});
  c.push_back({"pfc", "watchdog", "a queue paused too long with frames drops them (drop mode) until restore",
               "switch.pfc_watchdog, switch.pfc_watchdog_restore", {}});
  for (const TrafficPatternSpec* p : traffic_patterns())
    c.push_back({"pattern", p->name, p->description + (p->source.empty() ? "" : " (" + p->source + ")"),
                 "--pattern / workload.pattern" + (p->params.empty() ? std::string() : "; " + p->params), {}});
  c.push_back({"workload", "lat", "perftest ib_*_lat ping-pong (and kernel TCP), perftest statistics and the ledger", "rdmasim lat", {}});
  c.push_back({"workload", "bw", "perftest ib_*_bw window of acknowledged WRITE/SEND; many flows with --pattern", "rdmasim bw", {}});
  c.push_back({"workload", "budget", "closed-form max-plus evaluation of the same path, the textbook latency formulas", "rdmasim budget", {}});
  for (const CollOpInfo& op : coll_ops())
    c.push_back({"workload", std::string(op.name),
                 "nccl-tests " + std::string(op.program) + " across hosts x GPUs on a fabric, GPUDirect or staged; each rank sends " +
                     std::string(op.bytes_formula),
                 "rdmasim " + std::string(op.name), {}});
  c.push_back({"workload", "flows", "open-loop flows: Poisson arrivals from a flow-size distribution at a load, or a "
               "flow file; FCT slowdown per flow size (HPCC-style)", "rdmasim flows", {}});
  for (const FlowSizeCdf* d : flow_size_cdfs())
    c.push_back({"flow sizes", d->name, d->description + " (" + d->source + ")", "--cdf / workload.cdf", {}});
  for (const ServerSpec* x : servers())
    c.push_back({"server", x->name, x->description + " (" + x->source + ")", "--server / network.server", {}});
  for (const CollectiveSpec* k : collectives())
    c.push_back({std::string(coll_op_info(k->op).name) + " algorithm", k->name, k->description + (k->source.empty() ? "" : " (" + k->source + ")"),
                 "--algo / workload.algo", {}});
  c.push_back({"pcie topology", "switch", "GPU and NIC under one PCIe switch: peer-to-peer DMA skips the root complex",
               "--set pcie.topology=switch", {}});
  c.push_back({"pcie topology", "root", "GPU and NIC under the root complex: two link traversals per DMA",
               "--set pcie.topology=root", {}});
  c.push_back({"pcie topology", "cross-socket",
               "GPU and NIC on different sockets: the inter-socket link on every DMA (halves GPUDirect reads)",
               "--set pcie.topology=cross-socket", {}});
  c.push_back({"memory", "host", "buffers in host DRAM", "--mem host / memory.mem", {}});
  c.push_back({"memory", "gpu", "buffers in GPU HBM: GPUDirect RDMA, or staged through host buffers by the copy engine",
               "--mem gpu / --use-cuda / memory.mem", {}});
  c.push_back({"workload", "coalescing", "interrupt coalescing sweep: interrupts/s, p50/p99, batch wait, CPU per rx-frames",
               "rdmasim coalescing", {}});
  c.push_back({"workload", "demo", "TCP -> kernel bypass -> zero copy -> full RDMA, ledger per step", "rdmasim demo", {}});
  c.push_back({"export", "trace", "Perfetto / Chrome trace-event JSON of traced messages' critical paths", "--trace FILE", {}});
  c.push_back({"export", "pcap", "pcapng of RoCEv2/IB frames and PFC pause frames (Wireshark, tshark)", "--pcap FILE", {}});
  for (const ProfileSpec* p : profiles())
    c.push_back({"profile", p->name, p->description + (p->source.empty() ? "" : " (" + p->source + ")"), "--profile / profile", {}});
  return c;
}

}  // namespace

std::vector<Component> components() { return build(); }

}  // namespace rdmasim::config
