// ConnectionSetup: establishing one RC connection between the two hosts, as stages of a path
// from the client (A) back to the client, ready to post — everything charged to `setup`.
//
//   A: ibv_create_qp, RESET->INIT, ibv_reg_mr (fixed + pages x pin_per_page)
//   address/route resolution: a MAD A->B and its answer B->A            (1 RTT)
//   REQ A->B; B: create QP, INIT, RTR, reg_mr; REP B->A; A: RTR, RTS     (1 RTT)
//   (RTU A->B travels ahead of the first data and is off the critical path)
// Each MAD leg is the one-way path of a conn.mad_size SEND through the kernel (RDMA with kernel
// bypass off, completion by interrupt) plus conn.cm_process on the receiving core, with its
// costs fixed at the MAD's size: the legs run on the hosts' real resources (CPU time counts),
// independent of the data message they precede. L_setup ~ 2 RTT + QP transitions + pinning.
// Over a switched topology (`network`: the run's FabricNetwork appender) each MAD leg crosses
// the flow's route: its unloaded hops (serialization at the MAD's size with cut-through,
// propagation, switch pipelines) as fixed delays charged to `setup` — the MADs take the
// route's latency but do not queue in the packet-level fabric.
#pragma once

#include "model/path.hpp"
#include "rdmasim/latency.hpp"

namespace rdmasim {

/// The setup stages for a connection whose data buffers are `c.size` bytes (both sides register).
PathSpec build_setup_path(const LatConfig& c, const NetworkAppender& network = {});
/// One CM MAD from side 0 to side 1 (the kernel SEND path at conn.mad_size and, over a fabric,
/// the route's unloaded hops), without the receiving CM's conn.cm_process.
Time mad_one_way(const LatConfig& c, const NetworkAppender& network = {});
/// Pages a registration of `size` bytes pins.
std::int64_t pinned_pages(const ConnParams& p, Bytes size);

}  // namespace rdmasim
