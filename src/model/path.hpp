// The builders of the paths of a configuration (the path IR is path/path_spec.hpp): the
// exchange's paths, the fabric flows (NetworkSpec), the acknowledged, TCP stream and receive
// paths, and the post-list batches.
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
#include "path/path_spec.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/ledger.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

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
/// staged GPU receiver's H2D copy (whole message; with --staging-chunk the engine busy for the
/// message's bytes, the message handed on after its last chunk's). The responder's NIC acknowledges on placement,
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
/// The same with the cable replaced by `network` (RDMA).
PathSpec build_path(const LatConfig& c, const ResolvedToggles& t, int from, const NetworkAppender& network);

}  // namespace rdmasim
