// Fabric: the packet-level network between the hosts' NICs — every cable's two transmitters,
// every switch's buffer, queues, flow control, ECN marking and forwarding decision.
//
// A port is one end of a cable (id = cable * 2 + 0 at node a, + 1 at node b; the peer port is
// id ^ 1). Each port transmits to its peer from 8 egress queues (traffic
// classes), one frame at a time at the cable's rate; a frame reaches the peer after the
// propagation delay. A switch forwards a frame after its pipeline latency to the egress port
// its routing picks among the equal-cost next hops: ECMP (the flow's 5-tuple hash), spray
// (the sender gives each packet the next entropy value, as SRD-style multipath NICs do, and
// the switches map it so consecutive packets cover every equal-cost path), or adaptive (the
// next hop with the least queued bytes, ties broken by the ECMP hash). ECMP and spray depend
// only on the packet, so while no link fault can change the tables the egress at the next
// switch is chosen when a frame leaves (the same choice, made earlier; adaptive routing looks at
// the queues on arrival). Cut-through: when no next hop is faster than the ingress cable, the
// upstream transmitter hands the frame on after `switch.cut_through_bytes` (it stays busy
// for the whole frame).
//
// Buffers: each switch has `switch.buffer` bytes shared by all ports, minus the PFC
// headroom reserved per (ingress port, lossless priority). RoCE lossless class: bytes are
// accounted to their ingress port; above `pfc_xoff` (or when the shared buffer is full) the
// port sends a PAUSE (XOFF) for that priority to the upstream transmitter, which stops after
// the frame in flight; frames still arriving use the headroom; below `xoff - xon_delta` with
// empty headroom it sends XON. Pause frames leave after the frame being sent on that port and
// take a 64 B frame's serialization plus propagation to act (they do not occupy the
// transmitter). Lossy class: the switch's buffer policy (`switch.buffer_policy`,
// rdmasim/buffer_policy.hpp; by default dynamic thresholds) admits the frame to its egress
// queue, else it is dropped there. InfiniBand: per-VL credits — a port
// sends only while the peer's input buffer for that VL (`ib_vl_buffer`) has room; credits
// return when the frame leaves the peer, after the reverse propagation. ECN (RoCE): on enqueue
// a frame is marked CE with probability 0 below Kmin, Pmax*(q-Kmin)/(Kmax-Kmin) up to Kmax,
// 1 above (q = the egress queue's bytes ahead of it). A cable with `loss` corrupts each frame
// with that probability; the receiving port discards it (rx_errors), in any class.
//
// A host's NIC port arbitrates between its flows (QPs) round robin, one packet at a time, as
// NIC send schedulers do; a switch port serves its traffic classes in strict priority (inline)
// or by its queue scheduler (`switch.scheduler`, rdmasim/queue_scheduler.hpp: ETS), FIFO within
// a class.
//
// Ledger: queue (waiting at an egress queue, paused or out of credits, unless it continues
// its message's critical path — sim/critical_path.hpp), transmit (serialization up to
// hand-on), propagate, switch (pipeline). Invariants: injected = delivered + dropped +
// in_flight() at every instant; a lossless class never drops (lossless_drops() == 0 unless
// headroom was configured too small) except by an enabled PFC watchdog, counted apart
// (watchdog_drops()). Hosts' NICs receive without limit.
//
// PFC pathologies (fabric_pfc.cpp): pauses spread upstream hop by hop; with a cyclic buffer
// dependency (a ring whose routing wraps around, a routing loop) the paused queues can wait
// for each other forever. Deadlock detection (`switch.deadlock_detect`): while any switch
// queue is paused, a check runs at the latest when the next pause reaches the threshold (and
// at most a threshold apart); it builds the waits-for graph (sim/waits_for.hpp) of the queues
// paused at least that long and holding frames — an edge from a paused (port, priority) to each
// paused queue at the downstream switch holding frames it sent, i.e. behind the XOFF'ing
// ingress — and a cycle there is a deadlock: reported (its ports and priorities), counted, and
// the run stops (Scheduler::stop; partitioned, the check runs between windows, at the end of
// the first one past its time, with every LP stopped there, and the run ends after it). PFC watchdog (`switch.pfc_watchdog`): a switch queue
// paused that long while holding frames goes into drop mode for `switch.pfc_watchdog_restore`:
// its frames and every frame routed to it are dropped (freeing the upstream ingress, which
// sends XON), then it obeys pause again.
//
// Link faults (fabric_links.cpp, a cable's down_at/up_at): a switch-to-switch link going down
// loses the frames queued on its two ports, the frames on its wire and every frame routed to it
// until the switches' routing converges `switch.route_convergence` later (next-hop tables
// recomputed without the down links; a destination left unreachable loses its frames); PFC
// state on the link is cleared. Coming back up, it carries traffic once routing converges again.
//
// Partitioned (Fabric::partition): each node's ports run on the scheduler of one logical
// process of a ParallelRun (core/parallel_run.hpp). A frame or a PFC / credit frame for a port
// of another LP leaves as a crossing, due when it would have arrived (at least one cable's
// propagation later, the run's lookahead); everything a port does otherwise stays in its LP.
// Counters are kept per LP and summed. A lost frame is counted where it is lost; its client (the
// transport) hears of it in its destination host's LP, the longest cable's propagation later
// whether partitioned or not (Fabric::hand_back). Deadlock detection looks at every LP between
// windows. A link fault is known before the run: each end of the cable changes in its own LP at the
// same instant (a frame arriving at a down end is lost), and every LP switches at each convergence
// to a next-hop table planned before the run (with faults, flows keep no route memo). What reaches
// across LPs at once is refused: a balancer that reads the queues or the time, the trace, the
// capture and the PFC log. In-band telemetry from another LP's switch reaches its sender between
// windows (stamp_telemetry). Over MPI ranks (the run's ParallelRun::ranks()), a frame for an LP
// another process runs crosses as bytes (sim/packet_transfer.hpp) and is made again there from
// that LP's pool; each rank counts what its LPs did, and merge_ranks() joins the counts after the
// run; the deadlock check gathers every rank's paused queues; a switch's telemetry for a
// sender another rank runs travels there between windows (hand_over_hops). The switches of a
// flow's path may run at
// once, so a flow's route memo is filled for its whole path when the flow is added (ECMP: one
// path) and only read in the run; under spray each hop looks its next hops up.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <atomic>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/parallel_run.hpp"
#include "core/random.hpp"
#include "core/scheduler.hpp"
#include "net/ecmp.hpp"
#include "net/fabric_options.hpp"
#include "net/next_hops.hpp"
#include "net/packet.hpp"
#include "net/topology.hpp"
#include "rdmasim/buffer_policy.hpp"
#include "rdmasim/fabric_stats.hpp"
#include "rdmasim/queue_scheduler.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/load_balancer.hpp"
#include "rdmasim/rate_control.hpp"
#include "sim/telemetry_sink.hpp"
#include "rdmasim/profile.hpp"
#include "sim/critical_path.hpp"
#include "sim/packet_transfer.hpp"
#include "sim/tracer.hpp"
#include "sim/waits_for.hpp"
#include "sim/wire_tap.hpp"

namespace rdmasim {

struct Route;
struct SimContext;

struct PortCounters {  // like `ethtool -S` / `perfquery` for one port
  std::uint64_t tx_packets = 0, tx_bytes = 0, rx_packets = 0, rx_bytes = 0;
  std::int64_t max_queue_bytes = 0;
  double queue_byte_ps = 0;      // integral of the egress queue's bytes over time
  std::uint64_t drops = 0;       // frames discarded at this port's egress queue
  std::uint64_t rx_errors = 0;   // frames received corrupted (the cable's loss) and discarded
  std::uint64_t ecn_marked = 0;  // frames marked CE on enqueue here
  std::uint64_t pause_tx = 0;    // PFC frames (XOFF + XON) this port sent to its peer
  std::uint64_t pause_rx = 0;    // PFC frames this port received (its transmitter obeys)
  std::uint64_t watchdog_drops = 0;   // lossless frames the PFC watchdog dropped at this egress
  std::uint64_t watchdog_storms = 0;  // times the watchdog put one of its queues into drop mode
  std::uint64_t nak_tx = 0, cnp_tx = 0;  // RC control frames it transmitted: NAKs, DCQCN CNPs
  std::uint64_t link_drops = 0;          // frames lost because its link was down
  Time paused{};                 // time its transmitter had frames it was not allowed to send
};

class FabricClient {
 public:
  /// A packet of the flow reached its destination host's NIC.
  virtual void arrived(Packet& p) = 0;
  /// A packet of the flow was discarded in the fabric; the client owns it again.
  virtual void dropped(Packet& p) = 0;

 protected:
  ~FabricClient() = default;
};

struct FabricFlow {
  // Layout: what routing a packet reads (the memo's bookkeeping) shares the first line with the
  // send queue; a hop then reads one memo entry (Packet::hops says which, on a fixed path).
  int src = 0, dst = 0;  // host indices
  int tc = -1;           // its packets' class when the sender names none (-1: the data class)
  FlowKey key;
  int memo_used = 0;
  std::uint32_t memo_epoch = 0;  // (the low bits of) the fabric's count of routing changes
  FabricClient* client = nullptr;
  // The source NIC's send queue of this flow (QP), in the port's round-robin ring when not empty.
  Packet* head = nullptr;
  Packet* tail = nullptr;
  FabricFlow* next_active = nullptr;
  std::uint64_t injected = 0, delivered = 0, dropped = 0, ce_marked = 0;
  // Routing memo (Fabric::route_memo): for each node this flow's packets were forwarded at, the
  // next hops towards `dst` (a view into the fabric's next-hop table) and the node's ECMP hash
  // of `key`, so a packet-hop neither re-hashes the 5-tuple nor walks the table. Valid while
  // `memo_epoch` equals the fabric's count of routing changes (a reroute rebuilds the table).
  // Filled in the order packets meet the nodes: on a fixed path, entry i is the i-th switch.
  struct RouteMemo {
    const std::int32_t* ports = nullptr;
    std::uint32_t count = 0;
    std::uint32_t hash = 0;  // ecmp_hash(key, node)
    std::int32_t node = -1;
    std::int64_t max_rate_bps = 0;
  };
  static constexpr int kMemoSlots = 6;  // a 3-tier fat-tree path crosses at most 5 switches
  std::array<RouteMemo, kMemoSlots> memo{};
  TelemetrySink* telemetry = nullptr;  // its packets' switch egresses go here (Fabric::stamp_telemetry)
  std::int32_t index = 0;              // in the fabric's flows (a crossing between ranks names it)
  const Route* route = nullptr;        // the route its routed packets follow (set_route; over ranks)
};

class Fabric {
 public:
  Fabric(Scheduler& s, std::shared_ptr<const Topology> t, const FabricOptions& o, std::uint64_t seed);
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;
  ~Fabric();

  /// The flow's packets enter at `src`'s NIC port and leave to `client` at `dst`'s.
  FabricFlow& add_flow(int src, int dst, const FlowKey& key, FabricClient& client);
  /// The route the flow's routed packets follow (one path's): a packet crossing to another rank
  /// is given it again there.
  static void set_route(FabricFlow& f, const Route& r) { f.route = &r; }
  /// The flow is done (none of its packets queued or in flight: std::logic_error otherwise): a
  /// later add_flow reuses its memory. Its packets' counts stay in the fabric's totals.
  /// `counted_over_ranks`: in a run over ranks this rank's copy holds its LPs' share of the
  /// counts only; the caller found them balanced over every rank.
  void release_flow(FabricFlow& f, bool counted_over_ranks = false);
  /// Appends every PFC frame a port receives from now on to `log` (null: stop).
  void log_pfc(std::vector<PfcFrame>* log);
  /// Every switch egress the flow's packets leave from reports to `sink` (HPCC's INT), which is
  /// its source host's (RC keeps a side table per PSN). Partitioned, an egress in another LP
  /// than that host's notes the report, and the notes reach their sinks between windows, in LP
  /// order: before the packet's ACK can reach the sender, since the ACK crosses back at least a
  /// lookahead after the last egress.
  void stamp_telemetry(FabricFlow& f, TelemetrySink& sink);
  /// `p` is ready at its source NIC's egress now (its ledger is accounted up to now), in traffic
  /// class `tc` (< 0: the data class, switch.data_tc).
  void inject(Packet& p, FabricFlow& f, int tc = -1);
  /// Optional observers (nullptr = off): the trace of the traced messages' steps and port
  /// queue depths, and the capture of frames starting on ports. Before the run.
  void attach(Tracer* tracer, WireTap* tap);
  /// Partitioned: the context (its pools) of each LP, by LP: where a frame from another rank is
  /// made again and where one leaving for another rank is freed. Before the run.
  void use_contexts(std::vector<SimContext*> by_lp) { contexts_ = std::move(by_lp); }
  /// After a run over ranks: every rank's counts joined into this one's (the ports, LP tallies
  /// and flow counts each rank's LPs kept), so stats() and check_invariants() speak of the
  /// whole fabric on every rank. Collective.
  void merge_ranks(RankExchange& ranks);
  /// Runs node n's ports on LP lp_of_node[n] of `run` (see the header comment), before
  /// anything is injected. std::invalid_argument naming what cannot be partitioned (a link
  /// balancer that reads queues or time, an observer) or a cable between two LPs
  /// shorter than the run's lookahead.
  void partition(ParallelRun& run, const std::vector<int>& lp_of_node);
  bool partitioned() const { return run_ != nullptr; }

  const Topology& topology() const { return *topo_; }
  const std::shared_ptr<const Topology>& topology_ptr() const { return topo_; }
  const FabricOptions& options() const { return opt_; }
  int port_count() const;
  /// What a port holds (bytes): its own lines and one line per traffic class frames may carry.
  std::size_t port_bytes() const;
  const PortCounters& counters(int port) const;
  /// "edge0.0->h1": the port's node and its peer.
  std::string port_name(int port) const;
  /// The port of host `host`'s NIC (its peer port, towards the host, is the id ^ 1).
  int host_port(int host) const { return hops_.host_port(host); }
  /// PFC headroom reserved at `port` (bytes) for the lossless class.
  std::int64_t headroom(int port) const;

  std::uint64_t injected() const { return total(&Tally::injected); }
  std::uint64_t delivered() const { return total(&Tally::delivered); }
  std::uint64_t dropped() const { return total(&Tally::dropped); }
  std::uint64_t lossless_drops() const { return total(&Tally::lossless_drops); }
  std::uint64_t watchdog_drops() const { return total(&Tally::watchdog_drops); }
  std::uint64_t watchdog_storms() const { return total(&Tally::watchdog_storms); }
  /// PFC deadlocks detected (the run stopped at the first; its report in stats()).
  std::uint64_t deadlocks() const { return static_cast<std::uint64_t>(deadlock_reports_.size()); }
  /// Frames inside the fabric now, counted by walking queues, transmitters and wires.
  std::uint64_t in_flight() const;
  /// Totals and the counters of every port that saw traffic; `span` is the run time that
  /// utilisation is measured against.
  FabricStats stats(Time span) const;
  /// Throws std::logic_error naming the counts when packets are not conserved (injected !=
  /// delivered + dropped + in flight) or a lossless class dropped a packet: every workload
  /// calls it when its run ends.
  void check_invariants() const;

  struct Handler final : EventHandler {
    Handler(Fabric& f, void (Fabric::*fn)(std::uint64_t)) : f_(f), fn_(fn) {}
    void on_event(std::uint64_t arg) override { (f_.*fn_)(arg); }
    Fabric& f_;
    void (Fabric::*fn_)(std::uint64_t);
  };

 private:
  struct Port;
  struct PortClass;
  // The fabric-wide counts, one set per LP (written by its own worker only), summed on reading.
  struct alignas(64) Tally {
    std::uint64_t injected = 0, delivered = 0, dropped = 0, lossless_drops = 0;
    std::uint64_t watchdog_drops = 0, watchdog_storms = 0, link_drops = 0;
    std::uint64_t link_changes = 0, reroutes = 0;  // (reroutes: LP 0's only, as every LP converges at once)
    std::int64_t in_transit = 0;  // frames on wires, sent from or arriving in this LP (the sum counts)
  };
  std::uint64_t total(std::uint64_t Tally::*m) const {
    std::uint64_t n = 0;
    for (const Tally& t : tally_) n += t.*m;
    return n;
  }
  Tally& tally(const Port& e);
  /// The scheduler of e's LP, and its now.
  Scheduler& sched(const Port& e);
  Time now_at(const Port& e) const;
  // What crosses to another LP (ParallelRun::send): a frame arriving (arg: the packet; to: the
  // egress chosen for it at departure, or -1) or a control frame (arg: on_control's word).
  // A lost frame's notice (arg: the packet) goes to its client, which runs in the flow's far host's LP.
  // kFromRank (or-ed in): the packet's image follows the crossing (send_away), not its address.
  enum : std::int32_t { kFrameCrossing = 0, kControlCrossing = 1, kLostCrossing = 2, kFromRank = 4 };
  struct Crossing {
    std::uint64_t arg;
    std::int32_t to;
    std::int32_t control;  // what it carries (kFrameCrossing, ...)
  };
  struct Inbox final : CrossingHandler {
    Inbox(Fabric& f, int lp) : f_(f), lp_(lp) {}
    void accept(Time at, Scheduler::Tie tie, std::span<const std::byte> bytes) override;
    Fabric& f_;
    int lp_;
    int id = -1;  // its handler id in the run
  };
  /// Schedules `h` (arg) for port `to`'s LP at `at`, sent from port `from`'s LP: an event there,
  /// or a crossing when the LPs differ (`crossing` is what the receiver schedules). Either way
  /// tied with from's node as tag (Scheduler::tie), so that it runs among the events due at one
  /// time in the same place whatever the cut.
  void reach(const Port& from, const Port& to, Time at, EventHandler& h, std::uint64_t arg, const Crossing& crossing);
  /// reach() for a frame whose LP another rank runs: its image crosses, and it is freed here.
  void send_away(const Port& from, const Port& to, Time at, Scheduler::Tie tie, const Crossing& crossing);
  /// The frame an image from another rank carries, made again in LP `lp`.
  Packet& receive_from_rank(int lp, std::span<const std::byte> image);
  /// The rank running host `host` (over ranks).
  int rank_of_host(int host) const;
  /// Partitioned: the flow's route memo, filled for its whole (ECMP) path before the run, so
  /// that the switches of the path, on their LPs' workers, only read it.
  void fill_memo(FabricFlow& f);
  /// `p` is lost at `at` (counted there) and handed back to its flow's client (an RC data flow's
  /// responder releases the packet, an ACK flow's requester keeps a lost ACK) the longest cable's
  /// propagation later (notice_delay_), tied to the losing node: partitioned, the client runs in
  /// the LP of the flow's destination host, so from another LP the notice crosses, and that delay
  /// is no shorter than any cut's lookahead.
  void hand_back(const Port& at, Packet& p);
  void on_lost(std::uint64_t arg);  // the client hears that the packet (arg) was lost
  struct SwitchState {
    std::int64_t shared_size = 0, shared_used = 0;
    std::vector<int> ports;  // the switch's own ports (ingress accounting, PFC)
  };

  // Event entry points (Handler arguments: a packet or an encoded control word). A port's
  // own events: a packet, that frame arrives at the switch whose egress `port` is, routed
  // there when it left the upstream port (static routes); odd (free_arg), its transmitter is
  // free.
  void on_arrive(std::uint64_t arg);
  void on_control(std::uint64_t arg);
  void on_port(Port& port, std::uint64_t arg);
  /// `p` reaches the far end of the cable it was sent on; `routed`: its egress there, chosen
  /// at departure (nullptr: chosen now, or a host).
  void arrive(Packet& p, Port* routed);

  /// The argument of e's transmitter-free event: odd, and the rest the frame it will most
  /// likely send next (nullptr: none queued), so that the scheduler starts loading that frame
  /// the event before (a hint only: arrivals and pauses until then may change the choice).
  static std::uint64_t free_arg(const Port& e);
  void try_start(Port& e);
  template <bool Observed>
  void start_next(Port& e);  // try_start with (Observed) or without a tracer / tap attached
  Packet* pick(Port& e);
  Packet* pick_scheduled(Port& e);      // a switch port with a queue scheduler
  Packet* pop_head(Port& e, unsigned tc);  // dequeues class tc's head frame
  bool sendable(const Port& e, const Packet& p) const;
  /// `p` enters switch `node` from `in_port`, to egress `routed` (nullptr: routed now).
  void admit(Packet& p, int node, int in_port, Port* routed);
  /// A frame from `tp` reaching `ip` is lost (link down, a scheduled drop, corruption): counted
  /// and handed back (true). Only for ports with `faulty` set.
  bool arrival_lost(Port& tp, Port& ip, Packet& p);
  /// A frame `ip` received is discarded (corrupt, or its egress is down or gone) before it takes
  /// input buffer: on InfiniBand its credit goes back to the sender, as the next flow-control
  /// packet's absolute credit limit would restore it (a link going down resets credits instead).
  void discarded(const Port& ip, const Packet& p);
  void release_buffer(int node, int in_port, std::uint8_t tc, std::int64_t bytes);
  /// The shared buffer of `node` has room again: every ingress port paused for class `q` that
  /// holds nothing in headroom and less than XOFF - delta resumes (a port paused because the
  /// shared buffer was full may have no bytes of its own left to release).
  void resume_paused(SwitchState& s, std::size_t q);
  void send_flow_control(int from_port, int kind, std::uint8_t tc, std::int64_t value);
  int route(Packet& p, int node, Time now) const;  // `now`: the node's (its LP's) time
  /// The load balancer's choice among the memo's next hops (not ECMP's: lb_ is set).
  std::uint32_t balance(Packet& p, int node, const FabricFlow::RouteMemo& m, Time now) const;
  /// The flow's next hops and ECMP hash at `node` (memoised in the flow, FabricFlow::RouteMemo),
  /// looked for first in entry `hint`.
  FabricFlow::RouteMemo route_memo(FabricFlow& f, int node, int hint = 0) const;
  FabricFlow::RouteMemo next_hops(const FabricFlow& f, int node, const NextHopTable& table) const;
  /// Routing has converged after a link change at least once (as `node`'s switch sees it).
  bool rerouted(int node) const;
  bool lossless(std::uint8_t tc) const { return opt_.layer == LinkLayer::roce && opt_.sw.lossless && tc == opt_.sw.data_tc; }
  bool is_switch(int node) const;
  // Trace sites of a port's transmitter (and its queue) and cable, and of a switch's pipeline.
  TraceSite tx_site(int port) const { return site_base_ + static_cast<TraceSite>(port * 2); }
  TraceSite cable_site(int port) const { return site_base_ + static_cast<TraceSite>(port * 2 + 1); }
  void traced_depth(const Port& e);
  void note_queue(Port& e);  // before `queued` changes: accumulates the time-weighted depth
  // PFC pathologies (fabric_pfc.cpp).
  void pause_started(Port& e, unsigned tc);  // a switch port's priority was paused now
  void check_deadlock();  // the unpartitioned check (an event)
  /// A switch queue paused now: when since, the bytes it holds and, once paused
  /// switch.deadlock_detect with frames, the port each of its frames came in from (in queue
  /// order): what the deadlock check reads of it.
  struct PausedQueue {
    std::int32_t port = 0, tc = 0;
    Time since{};
    std::int64_t qbytes = 0;
    std::vector<std::int32_t> from;
  };
  /// The paused switch queues of the ports this process runs, by port and priority.
  std::vector<PausedQueue> paused_queues(Time now) const;
  /// Builds the waits-for graph of the queues paused at least switch.deadlock_detect by `now`
  /// and files a report if it has a cycle; else the time of the next check (none: nothing
  /// paused, the next pause asks for one). `queues`: paused_queues(), every rank's over ranks.
  std::optional<Time> look_for_deadlock(Time now, const std::vector<PausedQueue>& queues);
  /// Partitioned: the deadlock check, between windows (ParallelRun::add_between_windows) once
  /// a pause has been held switch.deadlock_detect; a deadlock ends the run. Over ranks the
  /// check is due when the ranks agreed it is (ParallelRun::agreed_wake) and reads every rank's
  /// paused queues, so that every rank finds the same cycle and stops at the same window.
  ParallelRun::Between between_windows(Time end);
  /// Partitioned in-band telemetry: an egress's report for a sink in another LP, kept in the
  /// egress's LP until the window ends (hand_over_hops gives them to their sinks, in LP order;
  /// over ranks a note for a sink another rank runs crosses there, naming its flow).
  struct HopNote {
    std::int32_t flow;  // its index: the flow's telemetry is its sink
    std::uint32_t psn;
    HopTelemetry hop;
  };
  struct alignas(64) HopNotes {  // one LP's, written by its worker only
    std::vector<HopNote> notes;
  };
  std::vector<HopNotes> hop_notes_;
  void stamp_hop(const Port& e, const Packet& p, const HopTelemetry& h);
  ParallelRun::Between hand_over_hops();
  void on_watchdog(Port& e, unsigned tc, std::uint32_t epoch);
  void on_watchdog_restore(Port& e, unsigned tc);
  void schedule_pfc(Port& e, std::uint64_t kind, unsigned tc, std::uint32_t value, Time delay);
  void flush_queue(Port& e, unsigned tc);  // watchdog: drops every frame of the priority queued at e
  /// Takes every frame of priority `tc` out of e's queue (its buffer released, which may XON
  /// the upstream) and hands each to drop(packet).
  template <typename Drop>
  void drain_queue(Port& e, unsigned tc, Drop&& drop);
  void count_watchdog_drop(Port& e, Packet& p);
  bool watchdog_drop(Port& e, Packet& p);   // in drop mode for p's priority: drops p (true)
  // Link faults (fabric_links.cpp).
  void link_change(int cable, bool up);  // both ends, then routing converges later
  void link_side(Port& e, bool up);      // one end (partitioned: each in its LP, at the same time)
  void reroute();
  /// Partitioned: the next-hop tables after each convergence (known before the run, as the
  /// faults are), and on every LP an event switching its switches to each at its time.
  void plan_convergence();
  /// Lost to a down link at port `at` (no_route: no route left at its node, counted at no port).
  void link_drop(Port& at, Packet& p, bool no_route = false);

  Scheduler& sched_;
  std::shared_ptr<const Topology> topo_;
  NextHopTable hops_;
  FabricOptions opt_;
  // Per port, so a port's draws follow its own frames alone (empty when nothing draws): RED
  // marks at egress, and the cable's corruption on arrival at the receiving port.
  std::vector<RandomStream> ecn_rng_;
  std::vector<RandomStream> loss_rng_;
  std::vector<Port> ports_;  // by id, contiguous
  // The ports' traffic-class lines (Port::Classes): for each port, one per class frames may
  // carry (FabricOptions::classes), the lowest class first; by class, its line's index (kNoClass: none).
  std::vector<PortClass> class_store_;
  std::array<std::uint8_t, 8> class_slot_{};
  std::size_t port_classes_ = 0;  // lines per port
  /// Port e's line of class tc, from e's address (not its contents: a prefetch need not wait).
  const PortClass* class_line(const Port& e, unsigned tc) const;
  std::vector<std::unique_ptr<QueueScheduler>> schedulers_;  // by port: a switch port's (null: strict priority, Fabric::pick)
  std::vector<SwitchState> switches_;       // per node (hosts unused)
  std::deque<FabricFlow> flows_;
  std::vector<FabricFlow*> free_flows_;  // released, for add_flow to reuse
  std::vector<PfcFrame>* pfc_log_ = nullptr;
  std::vector<std::int32_t> if_index_;     // per port: its interface index on its node (log_pfc)
  void note_pfc(const Port& e, unsigned tc, bool pause);
  Handler arrive_{*this, &Fabric::on_arrive};
  Handler control_{*this, &Fabric::on_control};
  Handler lost_{*this, &Fabric::on_lost};
  Time notice_delay_{};  // a lost frame's notice to its client: the longest cable's propagation
  std::vector<Tally> tally_ = std::vector<Tally>(1);  // by LP
  bool faults_ = false;  // some cable goes down or up during the run
  // Partitioned with link faults: the next-hop tables in convergence order (0: every link up)
  // and, by LP, the one its switches route by now; the LP of every node.
  std::vector<NextHopTable> routing_;
  std::vector<std::uint32_t> lp_routing_;
  std::vector<int> node_lp_;
  ParallelRun* run_ = nullptr;                   // partitioned: the run its LPs belong to
  std::vector<Scheduler*> lp_sched_;             // by LP (unpartitioned: the one scheduler)
  std::vector<std::unique_ptr<Inbox>> inboxes_;  // by LP
  std::vector<SimContext*> contexts_;            // by LP (use_contexts)
  std::unique_ptr<PacketTransfer> transfer_;     // over ranks: frames to and from other ranks
  std::vector<std::byte> image_;                 // send_away's scratch (one worker per rank)
  std::uint64_t queued_elsewhere_ = 0;           // merge_ranks: frames other ranks' queues hold
  bool memo_ = true;  // flows keep their route memo (not partitioned)
  // Partitioned: when the next deadlock check is due (ps; max: none), the earliest any LP's
  // pause asked for.
  std::atomic<std::int64_t> check_due_ps_{std::numeric_limits<std::int64_t>::max()};
  // Routing never changes during the run (no link faults) and depends only on the packet (not
  // adaptive): a frame's egress at the next switch is chosen when it leaves, and its arrival
  // is an event of that egress port, which the scheduler then starts loading with the packet.
  bool static_routes_ = false;
  bool hash_only_ = true;              // the balancer is ECMP's: no call per hop
  bool telemetry_ = false;  // some flow wants its switch egresses (stamp_telemetry)
  Time pipeline_{};  // a switch's forwarding pipeline: switch.pipeline, or switch.ib_pipeline on InfiniBand
  std::unique_ptr<BufferPolicy> buffer_policy_;  // lossy admission (rdmasim/buffer_policy.hpp)
  std::unique_ptr<LoadBalancer> lb_;   // otherwise this one chooses (rdmasim/load_balancer.hpp)
  bool check_pending_ = false;  // a deadlock check is scheduled
  WaitsForGraph waits_for_;     // rebuilt by every check
  std::vector<PfcDeadlock> deadlock_reports_;
  Tracer* tracer_ = nullptr;
  WireTap* tap_ = nullptr;
  bool observed_ = false;  // tracer_, tap_ or telemetry_
  TraceSite site_base_ = 0, node_site_base_ = 0;
};

}  // namespace rdmasim
