// PathSpec: the data path of one message as an ordered list of stages (the path IR). The
// component models (link, PCIe, memory, kernel stack, NIC, verbs) append stages to it; the
// builders (model/path.hpp) assemble a configuration's paths. It depends on net/ only for frame kinds.
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
#include <string>
#include <vector>

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
/// The server a serve stage queues on: one of its host's (core, PCIe directions, the GPU's
/// device-to-host copy engine gpu_copy and host-to-device gpu_copy_h2d, ...), or qp_engine, the
/// NIC's send engine of the path's own QP on that side (one per path instance).
enum class ResourceKind : std::uint8_t { none, core, pcie_up, pcie_down, wire, moderator, gpu_copy, gpu_copy_h2d, socket_up, socket_down, qp_engine, nic_engine };
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
  Time noise_mean{};         // delay stages: an exponential extra delay of this mean, and...
  std::int32_t spike_ppm = 0;  // ...this many times in a million an extra uniform [0, spike]
  Time spike{};
  Time head_extra{};         // serve: extra service charged to head_cat (an interrupt)...
  Category head_cat = Category::interrupt;
  bool batch_head_only = false;  // ...paid only by the first packet of a moderation batch (then
                                 // whatever its chunk), else by a chunk's paying packet
  Bytes release_bytes{};     // serve: > 0 hands the packet on after this many bytes while the
                             // server stays busy for all of them (cut-through forwarding)...
  bool release_last_chunk = false;  // ...or, set, after the message's last chunk of that many
                                    // bytes (a message that is not a whole number of chunks ends
                                    // with a shorter one: a chunk-pipelined copy)
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
  /// Whether packet `index` (`batch_head`: first of its moderation batch) pays head_extra.
  bool pays_head(std::int32_t index, Bytes message, bool batch_head) const {
    return batch_head_only ? batch_head : chunk_payer(index, message);
  }
  /// Whether a delay stage draws a random part (jitter, noise or spikes).
  bool random() const { return jitter > Time::zero() || noise_mean > Time::zero() || (spike_ppm > 0 && spike > Time::zero()); }
  /// The mean of the random part, for the budget: jitter / 2 + noise_mean + spike x ppm / 2e6
  /// (picoseconds, rounded down).
  Time random_mean() const {
    return jitter / 2 + noise_mean + Time::ps(spike.count_ps() / 2 * spike_ppm / 1'000'000);
  }
};

/// When a serve stage hands the packet on, for a packet of a `message`-byte message: after
/// `release_bytes` (cut-through) or the message's last chunk (release_last_chunk), else at the end.
Time release_time(const Cost& c, Time service, Bytes message);

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

struct NetworkSpec;  // model/path.hpp: a flow across the fabric (the builders' layer)

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
  std::shared_ptr<const NetworkSpec> network;  // network: the flow across the fabric
  std::shared_ptr<const NetworkSpec> ack_network;  // network: the reverse flow (TCP's ACKs)
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
  /// The last network stage (if there is one) carries `role` in an acknowledged path.
  void mark_last_network(NetRole role);
};

/// Appends the network between the two hosts for a message leaving side `from`.
using NetworkAppender = std::function<void(PathSpec& path, int from)>;

}  // namespace rdmasim
