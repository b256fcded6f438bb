// PathSpec: the data path of one message as an ordered list of stages, built from the
// component models (link, PCIe, memory, kernel stack, NIC, verbs) for a given configuration.
//
// One description, two evaluators: the event-driven simulator (sim/path_runner) instantiates
// the stages on per-host resources and moves packets through them with contention and
// randomness; the budget (model/budget) evaluates the same stages analytically for one
// uncontended message. Stage kinds:
//   delay    - fixed latency, no contention (propagation, pipelines, PCIe traversal)
//   serve    - FIFO single server shared by every stage bound to the same resource
//              (CPU core, PCIe direction, link transmitter)
//   split    - the message token becomes MTU-sized packets (frame sizes from WireFormat)
//   merge    - the packet completing the message continues as the token
//   moderate - interrupt moderation (rx-usecs / rx-frames) on the receiving host
//   network  - the switched fabric between the two NICs: the simulator hands the packet to
//              the packet-level fabric (sim/fabric.hpp: queues, PFC/ECN, routing); the
//              budget evaluates `expansion`, the flow's ECMP route hop by hop, unloaded
// Sides: 0 is host A (the client), 1 is host B.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "net/ecmp.hpp"
#include "net/fabric_options.hpp"
#include "net/routing.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/ledger.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

struct Packet;

enum class StageKind : std::uint8_t { delay, serve, split, merge, moderate, network };
/// A network stage's part in an acknowledged path: the data direction or its ACKs of an RDMA
/// path (both run by one RC transport, sim/rc_connection.hpp), the data direction of a TCP
/// connection (sim/tcp_connection.hpp; its ACKs travel the reverse flow, `ack_network`), or
/// neither (one-way paths).
enum class NetRole : std::uint8_t { plain, rc_data, rc_ack, tcp_data };
enum class ResourceKind : std::uint8_t { none, core, pcie_up, pcie_down, wire, moderator, gpu_copy, socket_up, socket_down };
/// Which byte count a stage's per-byte cost applies to.
enum class Basis : std::uint8_t { none, payload, message, wire };

struct Cost {
  Time fixed{};
  Rate rate{};               // per-byte cost; 0 = none
  Basis basis = Basis::none;
  Bytes bytes{};             // constant bytes added to the basis (e.g. a 64 B WQE)
  Bytes tlp_payload{};       // > 0: bytes are carried in PCIe TLPs of this max payload...
  Bytes tlp_overhead{};      // ...each adding this many bytes
  Time jitter{};             // uniform [0, jitter] extra delay (delay stages only)
  Time head_extra{};         // serve: extra service charged to head_cat (an interrupt)...
  Category head_cat = Category::interrupt;
  bool batch_head_only = false;  // ...paid only by the first packet of a moderation batch
  Bytes release_bytes{};     // serve: > 0 hands the packet on after this many bytes while the
                             // server stays busy for all of them (cut-through forwarding)
  std::int32_t chunk_packets = 0;  // > 0: a per-chunk cost (staging pipeline): packets are grouped
  Bytes chunk_segment{};           // in chunks of this many packets of `chunk_segment` payload; the
  bool chunk_at_end = false;       // chunk's first (or, with chunk_at_end, last) packet pays fixed +
                                   // chunk bytes / rate (and head_extra), the others nothing...
  Time per_packet{};               // ...but this, which every packet of a per-chunk cost pays

  bool operator==(const Cost&) const = default;

  Bytes bytes_for(Bytes payload, Bytes message, Bytes wire) const;
  /// Deterministic part of the cost for a packet with these byte counts.
  Time eval(Bytes payload, Bytes message, Bytes wire) const;
  /// The same for packet `index` of its message (differs from eval only for per-chunk costs).
  Time eval_at(std::int32_t index, Bytes payload, Bytes message, Bytes wire) const;
  /// Whether packet `index` pays the chunk's costs (always, for a cost that is not per chunk).
  bool chunk_payer(std::int32_t index, Bytes message) const;
};

/// When a serve stage hands the packet on: after `release_bytes` (cut-through), else at the end.
Time release_time(const Cost& c, Time service);

struct SplitSpec {
  Bytes segment{};           // payload per packet (RDMA path MTU or TCP MSS)
  FrameKind frame = FrameKind::roce_write;
  LinkLayer layer = LinkLayer::roce;
  bool header_only = false;  // one packet without payload (READ request)
  Bytes window{};            // > 0: at most this many frame bytes between the split and the
                             // start of their transmission on the wire (the NIC's transmit window)
};

struct ModerationSpec {
  Time usecs{};
  int frames = 1;
  bool adaptive = false;     // a packet arriving rx_usecs or more after the last interrupt fires at once
};

/// A flow across a switched fabric: from host `src` to host `dst` of `topology`.
struct NetworkSpec {
  std::shared_ptr<const Topology> topology;
  int src = 0, dst = 0;
  FlowKey key;
  FabricOptions options;
  // The RC transport of an acknowledged path (sim/rc_connection.hpp): its QP attributes, and
  // the profile its rate control (options.cc) reads its parameters from.
  RcParams rc;
  std::shared_ptr<const Profile> profile;
  TcpParams tcp;  // packet-level TCP (role tcp_data)
};

struct StageSpec {
  StageKind kind = StageKind::delay;
  Category cat = Category::queue;
  int side = 0;
  ResourceKind res = ResourceKind::none;
  int instance = -1;         // wire resources of a fabric: one per cable direction (-1: the side's)
  Cost cost;
  SplitSpec split;
  ModerationSpec moderation;
  std::string label;         // "A.pcie.doorbell": for docs, traces and tests
  std::shared_ptr<const struct NetworkSpec> network;  // network: the flow across the fabric
  std::shared_ptr<const struct NetworkSpec> ack_network;  // network: the reverse flow (TCP's ACKs)
  std::vector<struct PathSpec> expansion;             // network: its unloaded route, stage by stage
  NetRole role = NetRole::plain;                      // network: RC data / ACK direction
  bool signaled_only = false;  // skipped by a message posted unsignaled (Message::unsignaled)
};

struct PathSpec {
  std::vector<StageSpec> stages;

  void delay(int side, Category cat, std::string label, Cost cost);
  void serve(int side, ResourceKind res, Category cat, std::string label, Cost cost);
  void split(int side, SplitSpec s, std::string label);
  void merge(int side, std::string label);
  void moderate(int side, ModerationSpec m, std::string label);
};

/// Appends the network between the two hosts for a message leaving side `from`.
using NetworkAppender = std::function<void(PathSpec& path, int from)>;

/// The paths of one perftest exchange: WRITE/SEND go A->B then B->A (RTT/2 reported); READ is
/// one round trip from A (RTT reported). Validates the configuration.
struct ExchangePaths {
  ResolvedToggles toggles;
  int rtt_factor = 2;
  PathSpec forward;
  std::optional<PathSpec> reverse;
  std::vector<std::string> routes;  // fabric routes, forward then reverse
};
ExchangePaths build_exchange(const LatConfig& c);
/// A switched topology from `c.fabric` with the flow's ECMP routes: side 0 -> side 1 and the
/// reply's own route back. The appender sends each direction along its route.
struct FabricNetwork {
  explicit FabricNetwork(const LatConfig& c);
  /// The flow from host `from` to host `to` with UDP source port `sport` on topology `t`.
  FabricNetwork(std::shared_ptr<const Topology> t, const Profile& p, const FabricOptions& o, int from, int to,
                std::uint16_t sport);
  /// The switched topology `c.fabric` describes, with the profile's link rates and lengths.
  static std::shared_ptr<const Topology> make_topology(const LatConfig& c);
  /// Valid after this object is gone (it shares ownership of the topology and routes).
  NetworkAppender appender() const;
  std::shared_ptr<const Topology> topology;
  std::shared_ptr<const class FabricRoute> forward, reverse;
  std::vector<std::string> routes;  // forward, reverse
  std::shared_ptr<const NetworkSpec> forward_flow, reverse_flow;
  FabricPath forward_path;          // the data direction's route (for link-sharing analysis)
};

/// "h0 -> edge0.0 -> agg0.1 -> ..." for reports.
std::string route_names(const Topology& t, const FabricPath& p);

/// The one-way path of a WRITE/SEND (or TCP send) from `from` to the other side, or for READ
/// the whole round trip (request out, response back) starting at `from`.
PathSpec build_path(const LatConfig& c, const ResolvedToggles& t, int from);
/// RDMA WRITE/SEND from side 0 until its send completion at side 0: delivery, the responder's
/// ACK back over the network, the requester's CQE (what a bandwidth test waits for). An empty
/// `network` means the back-to-back cable.
PathSpec build_acked_path(const LatConfig& c, const ResolvedToggles& t, const NetworkAppender& network);
/// Kernel TCP send() from side 0 to its recv() at side 1 across `network` (a fabric), the data
/// direction run by packet-level TCP (sim/tcp_connection.hpp), its ACKs on the reverse flow.
PathSpec build_tcp_stream_path(const LatConfig& c, const ResolvedToggles& t, const NetworkAppender& network);
/// The receiving application's side of an acknowledged WRITE/SEND (bw, allreduce): from the
/// payload placed in side 1's memory (the acked path's "B.nic.reassemble") to the application
/// holding it — the receive completion (a SEND's CQE, the poll), the bounce-buffer copies and a
/// staged GPU receiver's H2D copy (whole message; with --staging-chunk the chunks' copies one
/// after another, each paying gpu.copy_latency). The responder's NIC acknowledges on placement,
/// so the requester's completion never waits for these stages. Empty when there is nothing to
/// do (WRITE into host memory or GPUDirect, zero copy).
PathSpec build_receive_path(const LatConfig& c, const ResolvedToggles& t, bool completion);
/// bw --post-list / --cq-mod: the acknowledged WRITE/SEND cut after the post. `post` carries one
/// token per list (its size: the list's payload bytes) through the CPU, the doorbell and the
/// fetch of `list` WQEs (Nic::append_post_list); `send` carries each WQE from the NIC's send
/// pipeline to its send completion, with the requester's completion stages (CQE write, poll)
/// marked signaled_only. For list == 1, post + send is build_acked_path stage for stage.
struct PostListPaths {
  PathSpec post;
  PathSpec send;
};
PostListPaths build_post_list_paths(const LatConfig& c, const ResolvedToggles& t, const NetworkAppender& network,
                                    int list);
/// The same with the cable replaced by `network` (RDMA WRITE/SEND only).
PathSpec build_path(const LatConfig& c, const ResolvedToggles& t, int from, const NetworkAppender& network);

}  // namespace rdmasim
