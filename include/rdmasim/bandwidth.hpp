// The bandwidth experiment (perftest ib_write_bw / ib_read_bw / ib_send_bw look-alike): each of
// the client's `qps` QPs keeps up to `tx_depth` messages in flight (READ: at most
// `outstanding_reads`) and posts a new one at each completion (WRITE/SEND: the responder's ACK
// written back as a CQE; READ: the last response placed). perftest's figures: BW average =
// size x messages / (last completion - first post); MsgRate = messages / that time; BW peak =
// the best rate over windows of qps x tx_depth consecutive messages (the minimum over i of
// (t_completed[i+w-1] - t_posted[i]) / w, posts in post order and completions in completion
// order, as perftest indexes them across QPs). Also reported: the ideal goodput of the path's
// bottleneck link, B x payload / bytes on the wire (B: the slowest cable on the route), which
// the classic "raise the MTU" advice moves.
//
// QPs (-q): every QP posts `iters` messages (perftest: iters x qps in all); over a fabric each
// QP is its own RC connection with its own UDP source port (sport, sport + 1, ...), so ECMP
// may route them apart. Bidirectional (-b): as many QPs again from B to A, on the same hosts and
// wires; as perftest adds the server's report to the client's, BW and MsgRate are the sums of
// the two directions' figures. Duration (-D): each QP posts until `duration` of simulated time
// has passed; the figures count the messages completed in [margin, duration - margin] over that
// window (perftest -f), and #iterations is that count.
//
// Connections (base.conn): with --conn-reuse N (--connect-per-msg: N = 1) each connection's
// first message is posted through the setup path (model/connection.hpp: rdma_cm exchange, QP
// transitions, MR pinning, all `setup` in its ledger) and the connection's other messages are
// posted once it is established; a connection's QP is torn down when its messages completed,
// and only then is the next one set up (so with N = 1 every message pays L_setup + L_message).
// --qp-pool: connected before the timed loop; the result says what one setup cost.
//
// The receiver (when it has work to do): at placement in its memory the responder's NIC
// acknowledges (the ACK never waits for the application), and the receiving application's
// completion runs on its own (model/path.hpp build_receive_path: CQE, poll, bounce copies, a
// staged GPU receiver's H2D copy). rx_* report those completions. With rx_depth (SEND over a
// switched topology) the responder has rx_depth receives posted; the application reposts one
// recv_delay after each receive completion, and a SEND finding none is answered with an RNR
// NAK (sim/rc_connection.hpp; rc.min_rnr_timer, rc.rnr_retry).
//
// --transport tcp: kernel TCP send() of each message to its recv() at the far side across the
// fabric (a back-to-back cable is the one-cable topology), carried by packet-level TCP
// (sim/tcp_connection.hpp); a message completes when recv() returns, with `tx_depth` sends
// outstanding (the socket buffer).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "rdmasim/fabric_stats.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/rc_stats.hpp"
#include "rdmasim/tcp_stats.hpp"

namespace rdmasim {

struct BwConfig {
  LatConfig base;            // test (write|send), size, iters, link layer, MTU, profile, topology
  int tx_depth = 128;        // perftest -t
  int post_list = 1;         // perftest -l/--post_list: WQEs posted with one doorbell (<= tx_depth)
  int cq_mod = 1;            // perftest -Q/--cq-mod: every Nth WQE signaled (<= tx_depth)
  int rx_depth = 0;          // perftest -r/--rx-depth: receives posted (SEND, fabric); 0 = always ready
  Time recv_delay{};         // the receiving application's processing before it reposts a receive
  int qps = 1;               // perftest -q: QPs per direction, each with its own window
  int cores = 1;             // the QPs' processes on this many cores of each host: QP q on core q mod cores
  bool bidirectional = false;  // perftest -b: the same QPs from B to A as well
  Time duration{};           // perftest -D: post for this long (simulated); zero = iters messages per QP
  Time margin{};             // perftest -f: with duration, completions this close to either end are not counted
  int outstanding_reads = 16;  // perftest -o: RDMA READs in flight per QP (the QP's max_rd_atomic)
};

/// One direction's perftest figures (bidirectional runs report their sum).
struct BwDirection {
  std::int64_t completed = 0;  // messages counted (duration: completed inside the window)
  double seconds = 0, bw_avg_bps = 0, bw_peak_bps = 0, msg_rate_mpps = 0;
};

/// Host A's (the client's) servers: busy time per completed message, in picoseconds — the
/// cost that bounds the message rate (the busiest one is the bottleneck).
struct ClientCost {
  double cpu_ps = 0, pcie_down_ps = 0, pcie_up_ps = 0, wire_ps = 0;
  double engine_ps = 0;  // the NIC's engines per message: nic.wqe_process over the QPs (each has its own) or the
                         // adapter's shared nic.adapter_wqe, whichever is longer
  /// The message rate the busiest of them allows, Mpps.
  double bound_mpps() const;
};

struct BwResult {
  BwConfig config;
  double seconds = 0;              // last completion - first post
  double bw_avg_bps = 0;           // payload bits per second
  double bw_peak_bps = 0;
  double msg_rate_mpps = 0;
  double ideal_bps = 0;            // link rate x payload / wire bytes
  Bytes wire_bytes_per_message{};
  std::int32_t packets_per_message = 0;
  std::int64_t completed = 0;      // messages completed and counted (< iters x qps x directions only when a QP failed)
  std::vector<BwDirection> directions;  // A->B, then B->A with bidirectional (their sums are above)
  std::uint64_t events = 0;
  std::int64_t invariant_violations = 0;
  std::vector<std::string> routes;
  std::optional<FabricStats> fabric;   // over a switched topology: the fabric's counters
  std::optional<RcStats> rc;           // over a switched topology: the QPs' RC transports (summed; accumulate())
  std::optional<TcpStats> tcp;         // --transport tcp: the packet-level TCP connection
  ClientCost cost;                     // per message, measured on host A's servers
  Ledger wqe_ledger_sum;               // every WQE's ledger (post to send completion), summed
  std::int64_t lists = 0;              // doorbells rung (lists posted)
  std::int64_t signaled = 0;           // CQEs the client polled
  /// With config.base.record_samples: each message's post and completion, in post order.
  std::vector<std::int64_t> posted_ps, completed_ps;
  HostCounters hosts[2];               // CPU accounting and interrupts per host (A, B)
  Time setup{};                        // one connection's setup (closed form), with base.conn
  std::int64_t connections = 0;        // setups inside the timed loop
  std::int64_t rx_completed = 0;       // receiver: messages its application completed (0: not modelled)
  double rx_bw_avg_bps = 0;            // receiver: payload bits / (its last completion - first post)
  Ledger rx_ledger_sum;                // receiver: every message's ledger, post to the app's completion
  /// With config.base.record_samples: each message's receiver completion, in order.
  std::vector<std::int64_t> rx_completed_ps;
  Time simulated{};
};

/// Throws std::invalid_argument for bad input (READ over a fabric, TCP with post lists, tx_depth < 1, a post list or CQ
/// moderation larger than the SQ depth, ...).
/// `exports` (optional, rdmasim/exports.hpp): trace and capture the run.
BwResult run_bandwidth(const BwConfig& c, Exports* exports = nullptr);
/// run_bandwidth's checks, before anything runs: std::invalid_argument naming the option.
void validate(const BwConfig& c);

}  // namespace rdmasim
