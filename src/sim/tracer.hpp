// Tracer: the simulation's optional trace hook (SimContext::tracer; nullptr = off). It traces
// the first `max_messages` messages posted and writes, at each one's delivery, its critical
// path as Chrome trace-event slices (sim/trace_writer.hpp; opens in ui.perfetto.dev).
//
// Recording: a traced message's packets carry a `trail`, the index of their last step in a
// buffer owned by the tracer for that message (a tree: each step points at its parent). Every
// place that charges a packet's ledger also records the step (site, category, start, duration),
// and wherever the ledger is copied or inherited (split, the critical-path rule of
// sim/critical_path.hpp, merge) the trail goes with it. So at delivery the token's trail, read
// back to the root, is exactly the sequence of steps its ledger sums: contiguous slices from the
// post to the delivery whose durations add up to the end-to-end time to the picosecond. Steps
// of zero duration are not recorded. When off, each charge costs one branch on `Packet::trail`;
// when on, steps go into per-message vectors that are reused, so nothing is allocated per event
// once the buffers have grown.
//
// Output, per traced message: one slice per step on the track of the component where it
// happened, named by the stage label (StageSpec::label) or, in a fabric, "edge0.0->agg0.1
// transmit" / "... queue" / "... propagate" and "agg0.1 pipeline"; args msg, pkt (packet index,
// 0 for the message token), cat (ledger category), start_ps and dur_ps (exact picoseconds);
// flow arrows between consecutive steps; and a summary slice "msg N" on the "messages" process
// with e2e_ps and the ledger in ps per category. Processes: "messages", one per host ("host A",
// "host B" back to back, "h3" in a fabric) with threads per component (CPU core, PCIe down/up,
// PCIe latency, NIC, interrupts, wire, cable, fabric port tracks, each with a "queue" track for
// waits), one per switch with threads per port (transmit, queue, cable) and its pipeline.
// Overlapping slices on one component (other messages) go to extra lanes "NIC #2", ...
// Counters "queue X->Y" (bytes waiting at each fabric port) while traced messages are in
// flight: a change is written if the last sample is at least `counter_interval` old (the latest
// held-back value is written before the next one), at most `max_counter_samples` in all.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "net/packet.hpp"
#include "rdmasim/exports.hpp"
#include "rdmasim/ledger.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

class TraceWriter;
class Fabric;
struct HostResources;
struct StageSpec;

class Tracer {
 public:
  struct Options {
    std::int64_t max_messages = 100;
    Time counter_interval = Time::us(1);
    std::int64_t max_counter_samples = 100000;
  };
  enum PortPart : int { port_transmit = 0, port_cable = 1 };

  Tracer(TraceWriter& out, Options o);
  ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  // Set-up, before the paths are built. `host`: 0/1 back to back, the topology's host index in
  // a fabric (its process is then the host's node in the fabric).
  void add_host(const HostResources& h, int host, std::string name);
  TraceSite stage_site(const HostResources& h, const StageSpec& s);
  /// Registers the fabric's ports and switches (processes, tracks, sites).
  void attach(const Fabric& f);
  TraceSite port_site(int port, PortPart part) const { return port_base_ + static_cast<TraceSite>(port * 2 + part); }
  TraceSite pipeline_site(int node) const { return node_base_ + static_cast<TraceSite>(node); }

  // Run.
  /// A message is posted; its token `t` starts the trail if the message is traced.
  void posted(Message& m, Packet& t);
  std::int32_t add(const Packet& p, std::int32_t parent, TraceSite site, Category c, Time start, Time dur, bool wait);
  /// The traced message's token reached the end of its route at `now`: writes its critical path.
  void delivered(const Packet& token, Time now);
  void queue_depth(int port, Time now, std::int64_t bytes);
  /// Writes held-back counter samples.
  void finish();

  /// One hop of the traced messages' critical paths — a host stage (its label), a fabric port
  /// ("edge0.0->agg0.1": queue, transmit, propagate) or a switch's pipeline ("agg0.1") — and
  /// the ledger its steps add up to over every message written.
  using HopRow = HopLedgerRow;
  /// The hops in the order the messages' paths first reached them (the rows add up to the sum
  /// of the written messages' end-to-end times).
  std::vector<HopRow> hop_ledger() const;

  std::int64_t messages_traced() const { return traced_; }
  std::int64_t messages_written() const { return written_; }
  /// Delivered traced messages whose steps did not add up to their end-to-end time (must be 0).
  std::int64_t violations() const { return violations_; }

 private:
  struct Track {
    int pid = 0, ordinal = 0;
    std::string name;
    std::vector<Time> lane_end;    // per lane: end of its last slice
    std::vector<bool> named;       // per lane: thread_name written
  };
  struct Site {
    std::string name, wait_name;
    std::uint32_t track = 0, wait_track = 0;
    std::int32_t hop = 0;  // its row in hops_
  };
  struct Node {
    std::int32_t parent;
    TraceSite site;
    std::int32_t index;
    Category cat;
    bool wait;
    Time start, dur;
  };
  struct PortCounter {
    std::string name;
    int pid = 0;
    bool emitted = false, pending = false;
    Time last{}, pend_t{};
    std::int64_t pend_v = 0;
  };
  struct HostEntry {
    const HostResources* res;
    int host;
    std::string name;
    std::vector<std::uint32_t> tracks;  // its host tracks, made on its first stage
  };

  std::uint32_t track(int pid, int ordinal, const std::string& name);
  TraceSite site(std::string name, std::string wait_name, std::uint32_t track, std::uint32_t wait_track,
                 const std::string& hop);
  int host_pid(const HostResources& h) const;
  /// The lane a slice [start, end) fits on (a new one if none), and its thread id.
  std::int64_t place(std::uint32_t track, Time start, Time end);
  void name_process(int pid, const std::string& name);
  void emit_counter(PortCounter& c, Time at, std::int64_t v);

  TraceWriter& out_;
  Options opt_;
  std::vector<HostEntry> hosts_;
  std::vector<int> node_pid_;                  // fabric node -> process
  std::vector<std::string> pid_names_;         // by pid ("" = none)
  std::vector<bool> pid_named_;
  std::vector<Track> tracks_;
  std::vector<Site> sites_;
  TraceSite port_base_ = 0, node_base_ = 0;
  std::vector<PortCounter> counters_;
  std::vector<std::vector<Node>> slots_;       // per traced message in flight
  std::vector<std::int32_t> free_slots_;
  std::vector<std::int32_t> chain_;            // reused at delivery
  std::vector<HopRow> hops_;                   // by hop id (sites of one hop share it)
  std::vector<std::int32_t> hop_order_;        // hop ids in the order delivered paths reached them
  std::vector<bool> hop_seen_;
  std::unordered_map<std::string, std::int32_t> hop_ids_;  // hop name -> id
  std::uint32_t messages_track_ = 0;
  std::int64_t traced_ = 0, live_ = 0, written_ = 0, violations_ = 0, counters_left_ = 0;
  std::uint64_t next_flow_ = 1;
};

}  // namespace rdmasim
