#include "model/path.hpp"

#include <algorithm>
#include <stdexcept>

#include "host/gpu.hpp"
#include "host/kernel_stack.hpp"
#include "host/memory.hpp"
#include "host/nic.hpp"
#include "host/os_noise.hpp"
#include "host/pcie.hpp"
#include "net/ecmp.hpp"
#include "path/fabric_route.hpp"
#include "path/link.hpp"
#include "rdmasim/load_balancer.hpp"
#include "rdmasim/rate_control.hpp"

namespace rdmasim {

namespace {

struct Components {
  explicit Components(const Profile& p)
      : link(p.link), pcie(p.pcie), mem(p.mem), kernel(p.kernel), nic(p.nic, p.verbs, pcie), gpu(p.gpu), noise(p.host) {}
  Link link;
  PcieLink pcie;
  HostMemory mem;
  KernelStack kernel;
  Nic nic;
  GpuCopyEngine gpu;
  OsNoise noise;
};

std::string pre(int side) { return side == 0 ? "A." : "B."; }

// The GPU data path of one side (model of host/gpu.hpp and host/pcie.hpp's DMA targets).
bool on_gpu(const LatConfig& c, int side) { return c.gpu.mem[side] == MemKind::gpu; }
bool staged(const LatConfig& c, const ResolvedToggles& t, int side) { return on_gpu(c, side) && !t.gpudirect; }
bool chunked(const LatConfig& c, const ResolvedToggles& t, int side) {
  return staged(c, t, side) && c.gpu.staging_chunk.has_value();
}
DmaTarget target(const Components& k, const LatConfig& c, const ResolvedToggles& t, int side) {
  if (!on_gpu(c, side) || !t.gpudirect) return k.pcie.host_target();
  return k.pcie.gpu_target(gpu_pcie_path(c, side));
}
// The send window of a split whose packets are DMA-read: nic.tx_window, bounded by the NIC's
// outstanding-read buffer; none for a chunk-staged sender (its copies gate the packets).
Bytes read_window(const LatConfig& c, const ResolvedToggles& t, int side) {
  if (chunked(c, t, side)) return Bytes{};
  const Bytes tx = c.profile.nic.tx_window;
  const Bytes rd = PcieLink::read_window(c.profile.pcie, c.profile.nic.read_buffer);
  if (rd.count() == 0) return tx;
  if (tx.count() == 0) return rd;
  return std::min(tx, rd);
}

// The receiver learns that an RDMA operation completed, then hands it to the application.
void rdma_completion(PathSpec& path, const Components& k, const LatConfig& c, const ResolvedToggles& t, int side,
                     bool produces_cqe) {
  if (produces_cqe || !t.busy_poll) k.nic.append_cqe_write(path, side);
  if (!t.busy_poll) k.kernel.append_completion_irq(path, side, t.interrupt_coalescing, c.profile.nic);
  k.noise.append(path, side, pre(side) + "os.noise");
  k.nic.append_poll(path, side);
  if (!t.kernel_bypass) {
    k.kernel.append_rx_stack(path, side);
    k.kernel.append_syscall(path, side, "kernel.syscall_return");
  }
}

// Post on side `s`: a staged sender's whole-message D2H copy, the software, the copies and
// `list` WQEs through the doorbell.
void rdma_post(PathSpec& path, const Components& k, const LatConfig& c, const ResolvedToggles& t, int s, int list) {
  const Profile& p = c.profile;
  if (staged(c, t, s) && !chunked(c, t, s)) k.gpu.append_copy(path, s, CopyDir::d2h, pre(s) + "gpu.d2h_copy");
  if (!t.kernel_bypass) {
    k.kernel.append_syscall(path, s, "kernel.syscall");
    k.kernel.append_tx_stack(path, s);
  }
  if (!t.zero_copy) k.mem.append_copies(path, s, p.host.tx_copies, pre(s) + "copy.to_bounce");
  k.nic.append_post_list(path, s, list, t.inline_data);
}

// The posted WQE from the NIC's send pipeline through the payload landing in the receiver's
// memory (the merge at r). `receiver_staging`: a chunk-staged receiver's H2D copies are on
// this path.
void rdma_transmit(PathSpec& path, const Components& k, const LatConfig& c, const ResolvedToggles& t, int s,
                   const NetworkAppender& network, bool receiver_staging) {
  const int r = 1 - s;
  const Profile& p = c.profile;
  k.nic.append_wqe_pipeline(path, s);
  const FrameKind fk = c.test == TestKind::send ? FrameKind::roce_send : FrameKind::roce_write;
  path.split(s, SplitSpec{c.mtu, fk, c.link_layer, false, t.inline_data ? p.nic.tx_window : read_window(c, t, s)},
             pre(s) + "nic.segment");
  if (chunked(c, t, s)) k.gpu.append_chunk_copy(path, s, CopyDir::d2h, pre(s) + "gpu.d2h_chunk", *c.gpu.staging_chunk, c.mtu);
  if (!t.inline_data) k.nic.append_payload_read(path, s, target(k, c, t, s));
  network(path, s);
  k.nic.append_rx_pipeline(path, r);
  k.nic.append_payload_write(path, r, target(k, c, t, r));
  if (receiver_staging && chunked(c, t, r))
    k.gpu.append_chunk_copy(path, r, CopyDir::h2d, pre(r) + "gpu.h2d_chunk", *c.gpu.staging_chunk, c.mtu);
  path.merge(r, pre(r) + "nic.reassemble");
}

// Post on side `s` through the payload landing in the receiver's memory.
void rdma_deliver(PathSpec& path, const Components& k, const LatConfig& c, const ResolvedToggles& t, int s,
                  const NetworkAppender& network) {
  rdma_post(path, k, c, t, s, 1);
  rdma_transmit(path, k, c, t, s, network, true);
}

void rdma_one_way(PathSpec& path, const Components& k, const LatConfig& c, const ResolvedToggles& t, int s,
                  const NetworkAppender& network) {
  const int r = 1 - s;
  rdma_deliver(path, k, c, t, s, network);
  rdma_completion(path, k, c, t, r, c.test == TestKind::send);
  if (!t.zero_copy) k.mem.append_copies(path, r, c.profile.host.rx_copies, pre(r) + "copy.from_bounce");
  if (staged(c, t, r) && !chunked(c, t, r)) k.gpu.append_copy(path, r, CopyDir::h2d, pre(r) + "gpu.h2d_copy");
}

// WRITE/SEND completed at the requester: the responder's NIC acknowledges the last packet
// (an RC ACK frame back over the network) and the requester's NIC writes the send CQE.
// After the send pipeline: delivery, the ACK back, the requester's completion (signaled_only).
void rdma_acked_send(PathSpec& path, const Components& k, const LatConfig& c, const ResolvedToggles& t, int s,
                     const NetworkAppender& network) {
  const int r = 1 - s;
  // The responder's NIC acknowledges on placement: the receiving application's completion
  // (a staged receiver's H2D copy included) is build_receive_path, off the ACK path.
  rdma_transmit(path, k, c, t, s, network, false);
  path.mark_last_network(NetRole::rc_data);
  k.nic.append_tx_pipeline(path, r);
  path.split(r, SplitSpec{c.mtu, FrameKind::roce_ack, c.link_layer, true}, pre(r) + "nic.ack");
  network(path, r);
  path.mark_last_network(NetRole::rc_ack);
  k.nic.append_rx_pipeline(path, s);
  path.merge(s, pre(s) + "nic.ack_done");
  const std::size_t completion = path.stages.size();
  rdma_completion(path, k, c, t, s, true);
  for (std::size_t i = completion; i < path.stages.size(); ++i) path.stages[i].signaled_only = true;
}

void rdma_acked(PathSpec& path, const Components& k, const LatConfig& c, const ResolvedToggles& t, int s,
                const NetworkAppender& network) {
  rdma_post(path, k, c, t, s, 1);
  rdma_acked_send(path, k, c, t, s, network);
}

// READ: the request out, the responses back (the far CPU never runs). Over a fabric both legs
// are plain network stages (lossless fabrics only, lat_config's validate).
void rdma_read(PathSpec& path, const Components& k, const LatConfig& c, const ResolvedToggles& t, int s,
               const NetworkAppender& network) {
  const int r = 1 - s;
  if (!t.kernel_bypass) {
    k.kernel.append_syscall(path, s, "kernel.syscall");
    k.kernel.append_tx_stack(path, s);
  }
  k.nic.append_post(path, s, false);
  k.nic.append_wqe_pipeline(path, s);
  path.split(s, SplitSpec{c.mtu, FrameKind::roce_read_request, c.link_layer, true}, pre(s) + "nic.read_request");
  network(path, s);
  k.nic.append_rx_pipeline(path, r);
  path.merge(r, pre(r) + "nic.request_done");
  // Responder: the NIC alone serves the read, the far CPU never runs.
  k.nic.append_tx_pipeline(path, r);
  path.split(r, SplitSpec{c.mtu, FrameKind::roce_read_response, c.link_layer, false, read_window(c, t, r)},
             pre(r) + "nic.read_response");
  k.nic.append_payload_read(path, r, target(k, c, t, r));
  network(path, r);
  k.nic.append_rx_pipeline(path, s);
  k.nic.append_payload_write(path, s, target(k, c, t, s));
  path.merge(s, pre(s) + "nic.reassemble");
  rdma_completion(path, k, c, t, s, true);
  if (!t.zero_copy) k.mem.append_copies(path, s, c.profile.host.rx_copies, pre(s) + "copy.from_bounce");
}

// Segments per super-packet of `limit` bytes (GRO/TSO); 0 = off: one per segment.
std::int32_t batch_segments(Bytes limit, Bytes mss) {
  if (limit.count() == 0) return 1;
  return static_cast<std::int32_t>(std::max<std::int64_t>(1, limit.count() / mss.count()));
}

// Kernel TCP one way. `bulk` (the fabric stream of `bw --transport tcp`): TSO/GRO batching —
// the stack's per-packet work per super-packet (KernelStack::append_tx_batch/append_rx_batch),
// the driver's per frame; otherwise (ping-pong latency) the stack per message, and per segment
// the TSO'd transmit work and the GRO'd, NAPI-polled receive work (tcp.tso, tcp.gro; 0: every
// segment on its own, each with its interrupt).
void tcp_one_way(PathSpec& path, const Components& k, const LatConfig& c, const ResolvedToggles& t, int s,
                 const NetworkAppender& network = {}, bool bulk = false) {
  const int r = 1 - s;
  const Profile& p = c.profile;
  if (staged(c, t, s)) k.gpu.append_copy(path, s, CopyDir::d2h, pre(s) + "gpu.d2h_copy");
  k.kernel.append_syscall(path, s, "kernel.send");
  k.mem.append_copies(path, s, p.host.tx_copies, pre(s) + "copy.user_to_kernel");
  if (!bulk) k.kernel.append_tx_stack(path, s);
  if (p.nic.tx_jitter > Time::zero()) {
    Cost j;
    j.jitter = p.nic.tx_jitter;
    path.delay(s, Category::queue, pre(s) + "nic.tx_jitter", j);
  }
  path.split(s, SplitSpec{p.tcp.mss, FrameKind::tcp_segment, LinkLayer::roce, false}, pre(s) + "kernel.segment");
  if (bulk)
    k.kernel.append_tx_batch(path, s, batch_segments(p.tcp.tso, p.tcp.mss), p.tcp.mss);
  else
    k.kernel.append_tx_per_packet(path, s, batch_segments(p.tcp.tso, p.tcp.mss), p.tcp.mss);
  k.nic.append_eth_tx_packet(path, s);
  if (network) {
    network(path, s);
    path.mark_last_network(NetRole::tcp_data);
  } else {
    k.link.append(path, s);
  }
  k.nic.append_rx_pipeline(path, r);
  k.nic.append_payload_write(path, r);
  if (bulk) {
    k.kernel.append_rx_batch(path, r, t.busy_poll, t.interrupt_coalescing, p.nic, batch_segments(p.tcp.gro, p.tcp.mss),
                             p.tcp.mss);
    path.merge(r, pre(r) + "kernel.reassemble");
  } else {
    k.kernel.append_rx_per_packet(path, r, t.busy_poll, t.interrupt_coalescing, p.nic,
                                  batch_segments(p.tcp.gro, p.tcp.mss), p.tcp.mss);
    path.merge(r, pre(r) + "kernel.reassemble");
    k.kernel.append_rx_stack(path, r);
    k.kernel.append_notify(path, r, t.busy_poll);
  }
  k.mem.append_copies(path, r, p.host.rx_copies, pre(r) + "copy.kernel_to_user");
  if (!bulk) k.kernel.append_syscall(path, r, "kernel.recv_return");
  if (staged(c, t, r)) k.gpu.append_copy(path, r, CopyDir::h2d, pre(r) + "gpu.h2d_copy");
}

// Kernel TCP between two processes on one host over the loopback device: the same software
// path without NIC, PCIe or wire. The loopback xmit hands each segment to the receive softirq
// directly (no hard interrupt), processed here on the receiving side's core.
void tcp_loopback_one_way(PathSpec& path, const Components& k, const LatConfig& c, int s) {
  const int r = 1 - s;
  const Profile& p = c.profile;
  k.kernel.append_syscall(path, s, "kernel.send");
  k.mem.append_copies(path, s, p.host.tx_copies, pre(s) + "copy.user_to_kernel");
  k.kernel.append_tx_stack(path, s);
  path.split(s, SplitSpec{p.tcp.loopback_mss, FrameKind::tcp_segment, LinkLayer::roce, false}, pre(s) + "kernel.segment");
  k.kernel.append_tx_per_packet(path, s);
  k.kernel.append_rx_per_packet(path, r, /*busy_poll=*/true, false, p.nic);
  path.merge(r, pre(r) + "kernel.reassemble");
  k.kernel.append_rx_stack(path, r);
  k.kernel.append_notify(path, r, c.toggles.busy_poll.value_or(false));
  k.mem.append_copies(path, r, p.host.rx_copies, pre(r) + "copy.kernel_to_user");
  k.kernel.append_syscall(path, r, "kernel.recv_return");
}

}  // namespace

std::string route_names(const Topology& t, const FabricPath& p) {
  std::string s;
  for (int n : p.nodes) s += (s.empty() ? "" : " -> ") + t.nodes()[static_cast<std::size_t>(n)].name;
  return s;
}

std::shared_ptr<const Topology> FabricNetwork::make_topology(const LatConfig& c) {
  TopologyParams tp;
  tp.name = c.fabric.topology;
  tp.k = c.fabric.k;
  tp.hosts = c.fabric.hosts;
  tp.leaves = c.fabric.leaves;
  tp.spines = c.fabric.spines;
  tp.hosts_per_leaf = c.fabric.hosts_per_leaf;
  tp.switches = c.fabric.switches;
  tp.hosts_per_switch = c.fabric.hosts_per_switch;
  tp.servers = c.fabric.servers;
  if (c.fabric.nics_per_server > 0) tp.nics_per_server = c.fabric.nics_per_server;  // else the builders' default
  tp.servers_per_su = c.fabric.servers_per_su;
  tp.planes = c.fabric.planes;
  tp.file_name = c.fabric.topology_file;
  tp.file_text = c.fabric.topology_text;
  tp.velocity_mps = c.profile.link.velocity_mps;
  tp.ring_routing = c.fabric.ring_routing;
  tp.host_rate = tp.fabric_rate = c.profile.link.rate;
  tp.host_length_mm = c.profile.link.length_mm;
  tp.fabric_length_mm = c.profile.sw.fabric_length_mm;
  Topology t = build_topology(tp);
  if (c.fabric.loss > 0)
    for (std::size_t i = 0; i < t.cables().size(); ++i) t.set_loss(static_cast<int>(i), c.fabric.loss);
  for (const LinkFault& f : c.fabric.faults) {
    const int cable = t.find_cable(f.a, f.b);
    if (cable < 0)
      throw std::invalid_argument("link fault: no cable between \"" + f.a + "\" and \"" + f.b + "\" in this " +
                                  t.name + " (`rdmasim topo` lists the nodes)");
    if (f.rate.bits_per_sec() > 0) t.degrade(cable, f.rate);
    if (f.loss > 0) t.set_loss(cable, f.loss);
    const Cable& cb = t.cables()[static_cast<std::size_t>(cable)];
    const int from = t.nodes()[static_cast<std::size_t>(cb.a)].name == f.a ? cb.a : cb.b;
    if (!f.drop_frames.empty()) t.drop_frames(cable, from, f.drop_frames);
    for (const auto& [w_from, w_to] : f.drop_windows) t.drop_window(cable, from, DropWindow{w_from, w_to});
  }
  for (const LinkOutage& o : c.fabric.outages) {
    const int cable = t.find_cable(o.a, o.b);
    if (cable < 0)
      throw std::invalid_argument("--link-down: no cable between \"" + o.a + "\" and \"" + o.b + "\" in this " + t.name +
                                  " (`rdmasim topo` lists the nodes)");
    const Cable& cb = t.cables()[static_cast<std::size_t>(cable)];
    if (t.nodes()[static_cast<std::size_t>(cb.a)].kind != NodeKind::switch_ ||
        t.nodes()[static_cast<std::size_t>(cb.b)].kind != NodeKind::switch_)
      throw std::invalid_argument("--link-down: " + o.a + "-" + o.b + " is a host's link; only links between switches go down");
    if (o.up <= o.down) throw std::invalid_argument("--link-down: " + o.a + "-" + o.b + " must come back up after it goes down");
    if (cb.down_at != Time::max()) throw std::invalid_argument("--link-down: " + o.a + "-" + o.b + " given twice");
    t.set_outage(cable, o.down, o.up);
  }
  return std::make_shared<Topology>(std::move(t));
}

FabricOptions fabric_options(const LatConfig& c) {
  FabricOptions o;
  o.sw = c.profile.sw;
  o.velocity_mps = c.profile.link.velocity_mps;
  o.layer = c.link_layer;
  o.routing = c.fabric.routing;
  o.cc = c.fabric.cc;
  o.tcp_cc = c.fabric.tcp_cc;
  o.max_frame = frame_wire_bytes(FrameKind::roce_write, FramePos::first, c.mtu, c.link_layer);
  o.classes = static_cast<std::uint8_t>(1u << c.profile.sw.data_tc);
  if (rate_control(o.cc).cnps) o.classes |= static_cast<std::uint8_t>(1u << c.profile.dcqcn.cnp_tc);
  if (c.transport == Transport::tcp) o.classes |= static_cast<std::uint8_t>(1u << c.profile.tcp.tc);
  return o;
}

FabricNetwork::FabricNetwork(const LatConfig& c)
    : FabricNetwork(make_topology(c), c.profile, fabric_options(c), c.fabric.from, c.fabric.to, c.fabric.udp_sport) {}

FabricNetwork::FabricNetwork(std::shared_ptr<const Topology> topo, const Profile& p, const FabricOptions& o, int a,
                             int b, std::uint16_t sport)
    : topology(std::move(topo)) {
  const Topology& t = *topology;
  if (a < 0 || a >= t.host_count() || b < 0 || b >= t.host_count())
    throw std::invalid_argument("--from/--to: hosts are h0..h" + std::to_string(t.host_count() - 1));
  const Node& na = t.nodes()[static_cast<std::size_t>(t.host_node(a))];
  const Node& nb = t.nodes()[static_cast<std::size_t>(t.host_node(b))];
  if (na.plane != nb.plane)
    throw std::invalid_argument("no path from " + na.name + " to " + nb.name + ": they are on different planes (plane " +
                                std::to_string(na.plane) + " and " + std::to_string(nb.plane) +
                                "; each plane is a fabric of its own)");
  const FabricPath fwd = ecmp_route(t, a, b, roce_flow(a, b, sport));
  FabricPath rev = ecmp_route(t, b, a, roce_flow(b, a, sport));
  routes = {route_names(t, fwd), route_names(t, rev)};
  const LoadBalancerSpec& lb = load_balancer(o.routing);
  if (lb.per_packet_paths) {
    const std::size_t n = equal_cost_paths(t, a, b, 4096).size();
    routes = {lb.route_note + " over " + std::to_string(n) + " equal-cost paths", lb.route_note + " (reverse direction)"};
  } else {
    routes[0] = lb.route_note + routes[0];
    routes[1] = lb.route_note + routes[1];
  }
  forward_path = fwd;
  std::reverse(rev.nodes.begin(), rev.nodes.end());  // FabricRoute wants side 0 -> side 1
  std::reverse(rev.cables.begin(), rev.cables.end());
  forward = std::make_shared<FabricRoute>(t, fwd, p, o.layer == LinkLayer::ib);
  reverse = std::make_shared<FabricRoute>(t, rev, p, o.layer == LinkLayer::ib);
  const auto profile = std::make_shared<const Profile>(p);
  forward_flow = std::make_shared<NetworkSpec>(NetworkSpec{topology, a, b, roce_flow(a, b, sport), o, p.rc, profile, p.tcp});
  reverse_flow = std::make_shared<NetworkSpec>(NetworkSpec{topology, b, a, roce_flow(b, a, sport), o, p.rc, profile, p.tcp});
}

NetworkAppender FabricNetwork::appender() const {
  // The stage shares ownership of the topology, routes and flows: valid after this object.
  return [f = forward, r = reverse, ff = forward_flow, rf = reverse_flow](PathSpec& p, int s) {
    StageSpec st;
    st.kind = StageKind::network;
    st.side = s;
    st.network = s == 0 ? ff : rf;
    st.ack_network = s == 0 ? rf : ff;
    st.label = s == 0 ? "fabric.forward" : "fabric.reverse";
    PathSpec sub;
    (s == 0 ? *f : *r).append(sub, s);
    st.expansion.push_back(std::move(sub));
    p.stages.push_back(std::move(st));
  };
}

ExchangePaths build_exchange(const LatConfig& c) {
  validate(c);
  if (c.topology == LatTopology::fabric && load_balancer(c.fabric.routing).per_packet_paths)
    throw std::invalid_argument("--routing " + c.fabric.routing + " is for bw (lat and budget follow the flow's ECMP route)");
  ExchangePaths e;
  e.toggles = resolve(c);
  const bool read = c.transport == Transport::rdma && c.test == TestKind::read;
  e.rtt_factor = read ? 1 : 2;
  if (c.topology == LatTopology::fabric) {
    if (c.transport == Transport::tcp)
      throw std::invalid_argument("over a switched topology `lat` runs RDMA (its TCP ping-pong is back-to-back; "
                                  "kernel TCP across a fabric runs in `rdmasim bw --transport tcp`)");
    const FabricNetwork net(c);
    e.routes = net.routes;
    e.forward = build_path(c, e.toggles, 0, net.appender());
    if (!read) e.reverse = build_path(c, e.toggles, 1, net.appender());
    return e;
  }
  e.forward = build_path(c, e.toggles, 0);
  if (!read) e.reverse = build_path(c, e.toggles, 1);
  return e;
}

PathSpec build_path(const LatConfig& c, const ResolvedToggles& t, int from) {
  const Components k(c.profile);
  PathSpec path;
  if (c.topology == LatTopology::loopback)
    tcp_loopback_one_way(path, k, c, from);
  else if (c.transport == Transport::tcp)
    tcp_one_way(path, k, c, t, from);
  else if (c.test == TestKind::read)
    rdma_read(path, k, c, t, from, [&](PathSpec& p, int s) { k.link.append(p, s); });
  else
    rdma_one_way(path, k, c, t, from, [&](PathSpec& p, int s) { k.link.append(p, s); });
  return path;
}

PathSpec build_tcp_stream_path(const LatConfig& c, const ResolvedToggles& t, const NetworkAppender& network) {
  if (c.transport != Transport::tcp || !network) throw std::invalid_argument("TCP stream paths cross a fabric");
  const Components k(c.profile);
  PathSpec path;
  tcp_one_way(path, k, c, t, 0, network, /*bulk=*/true);
  return path;
}

PathSpec build_acked_path(const LatConfig& c, const ResolvedToggles& t, const NetworkAppender& network) {
  if (c.transport != Transport::rdma || c.test == TestKind::read)
    throw std::invalid_argument("acknowledged paths are built for RDMA WRITE and SEND");
  const Components k(c.profile);
  PathSpec path;
  if (network)
    rdma_acked(path, k, c, t, 0, network);
  else
    rdma_acked(path, k, c, t, 0, [&](PathSpec& p, int s) { k.link.append(p, s); });
  return path;
}

PathSpec build_receive_path(const LatConfig& c, const ResolvedToggles& t, bool completion) {
  const Components k(c.profile);
  const int r = 1;
  PathSpec path;
  if (completion) rdma_completion(path, k, c, t, r, c.test == TestKind::send);
  if (!t.zero_copy) k.mem.append_copies(path, r, c.profile.host.rx_copies, pre(r) + "copy.from_bounce");
  // A chunk-staged receiver launches each chunk's copy as the chunk lands (off the ACK path,
  // counted from placement: GpuCopyEngine::append_chunked_h2d).
  if (chunked(c, t, r)) {
    k.gpu.append_chunked_h2d(path, r, pre(r) + "gpu.h2d_chunks", *c.gpu.staging_chunk);
  } else if (staged(c, t, r)) {
    k.gpu.append_copy(path, r, CopyDir::h2d, pre(r) + "gpu.h2d_copy");
  }
  return path;
}

PostListPaths build_post_list_paths(const LatConfig& c, const ResolvedToggles& t, const NetworkAppender& network,
                                    int list) {
  if (c.transport != Transport::rdma || c.test == TestKind::read)
    throw std::invalid_argument("post lists are built for RDMA WRITE and SEND");
  if (list < 1) throw std::invalid_argument("a post list has at least one WQE");
  const Components k(c.profile);
  PostListPaths p;
  rdma_post(p.post, k, c, t, 0, list);
  const NetworkAppender cable = [&](PathSpec& path, int s) { k.link.append(path, s); };
  rdma_acked_send(p.send, k, c, t, 0, network ? network : cable);
  return p;
}

PathSpec build_path(const LatConfig& c, const ResolvedToggles& t, int from, const NetworkAppender& network) {
  if (c.transport != Transport::rdma) throw std::invalid_argument("fabric paths are built for RDMA");
  const Components k(c.profile);
  PathSpec path;
  if (c.test == TestKind::read)
    rdma_read(path, k, c, t, from, network);
  else
    rdma_one_way(path, k, c, t, from, network);
  return path;
}

}  // namespace rdmasim
