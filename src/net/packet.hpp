// Message and Packet: what moves through the simulated data path.
//
// A Message is one application-level transfer (a WRITE, SEND or READ, or a TCP send()). It
// travels as a single token packet through the message-level stages (post, copies, syscalls),
// is split into MTU-sized packets at the NIC, and is merged back into a token when its last
// packet arrives; the token then runs the receiver's message-level stages.
//
// Invariant: `stamp` is the time up to which the packet's ledger is accounted; every stage
// charges `now - stamp` to one category when it hands the packet on, so at delivery
// `ledger.total() == now - message.posted` exactly.
#pragma once

#include <cstdint>

#include "rdmasim/ledger.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

class Stage;
class Tracer;
struct Route;
struct FabricFlow;
struct Packet;

/// Where a traced packet's time was spent (sim/tracer.hpp); 0 when tracing is off.
using TraceSite = std::uint32_t;
/// Records one step of a traced packet (trail >= 0) after `parent` and returns the new trail
/// (the parent itself for a zero duration). Defined in sim/tracer.cpp.
std::int32_t trace_step(const Packet& p, std::int32_t parent, TraceSite site, Category c, Time start, Time dur,
                        bool wait = false);

/// Told when a packet it emitted starts its transmission on the sending host's wire (the NIC's
/// transmit window: the split stage fetches a QP's packets only so far ahead of the wire).
class TxPacer {
 public:
  virtual void transmitting(const Packet& p) = 0;

 protected:
  ~TxPacer() = default;
};

struct Message {
  std::uint64_t id = 0;
  Bytes size{};
  Time posted{};
  std::int32_t packets = 0;   // set when the message is split
  std::uint32_t splits = 0;   // splits so far (the data's, its ACK's...): the later split's `packets` holds
  std::int32_t arrived = 0;   // packets merged so far
  std::int32_t next_index = 0;  // merge: one past the highest packet index seen
  std::uint64_t tag = 0;      // owner's cookie (workload iteration, direction)
  // Tracing (sim/tracer.hpp): the tracer and its per-message buffer, when this message is traced.
  Tracer* tracer = nullptr;
  std::int32_t trace_slot = -1;
  // Wire identity of the current split's frames, stamped only while a capture is attached
  // (sim/wire_tap.hpp): PSN of packet 0, PSN of the last data packet (what its ACK carries),
  // message sequence number, destination QP and FrameKind.
  std::uint32_t psn = 0, acked_psn = 0, msn = 0, dest_qp = 0;
  std::uint8_t frame = 0;
  // RC transport (sim/rc_connection.hpp): the PSN of the message's last packet, set when it is
  // sent (and when), and how many of its packets the responder accepted CE-marked (its ACK carries the count).
  std::uint32_t rc_last_psn = 0;
  std::uint32_t rc_ce = 0;
  Time rc_last_sent{};  // when its last packet was first sent (negative once it was resent: no RTT sample)
  // RC copies and resends of its packets still held or in flight (sim/rc_connection.hpp), and
  // in the top bit (SimContext::kOrphaned) whether its owner released it: the message object
  // is recycled only when both are done (SimContext::release_message, unpin).
  std::uint32_t pins = 0;
  bool unsignaled = false;  // posted without IBV_SEND_SIGNALED: no CQE (bw --cq-mod)
  // A READ or atomic request is acknowledged by its response, not by a later ACK: its copy is
  // held until the requester marks it answered (RcConnection::answered).
  bool rc_await_response = false;
  bool rc_answered = false;
};

enum class FramePos : std::uint8_t { only, first, middle, last };

struct alignas(64) Packet {
  // Layout (4 cache lines; a pool hands out packets on line boundaries): what the fabric
  // touches per hop fills the first line; the ledger follows in the next two (the critical
  // path copies it at every resource), with the sending NIC port's pacer; the host stages'
  // fields come last.
  Message* msg = nullptr;
  Packet* next_in_queue = nullptr;  // link in whichever queue holds the packet
  FabricFlow* flow = nullptr;       // the fabric flow while it crosses a fabric
  Bytes wire{};                 // bytes the frame occupies on the wire (incl. preamble/IFG)
  Time stamp{};
  Time release{};               // scratch of the server or fabric port serving it: when in its service it moves on (<= service)
  std::int32_t fab_port = -1;   // port it was last transmitted from (arrival: the far side's port)
  std::int32_t trail = -1;      // traced: its last step in the message's trace buffer (-1: not traced)
  std::uint8_t tc = 0;          // traffic class / priority / virtual lane
  bool ce = false;              // ECN Congestion Experienced
  bool control = false;         // in a fabric: a transport's control frame (no route: a NAK or CNP)
  FramePos pos = FramePos::only;
  bool batch_head = true;       // first packet of an interrupt batch (pays the irq)
  bool pinned = false;          // an RC copy or resend: holds a pin on its message
  Category service_cat = Category::queue;  // scratch of the FIFO server serving it
  std::uint8_t hops = 0;        // in a fabric: switches that routed it so far (where its flow's route memo is)

  Ledger ledger;

  std::uint32_t entropy = 0;     // the flow's packet counter at injection (HopChoice::packet)
  std::uint32_t lb_carried = 1;  // the load balancer's word carried across switches (HopChoice::carried)
  TxPacer* pacer = nullptr;     // to tell when it starts on the sending host's wire (then cleared)
  const Route* route = nullptr;
  Bytes payload{};              // bytes of message data carried
  Time ts{};                    // TCP (sim/tcp_connection.hpp): a segment's send time; an ACK's echo of it
  Time service{};               // scratch of the FIFO server serving it
  Stage* service_owner = nullptr;
  std::int32_t index = 0;       // position in its message (0-based); in the low half of its word, so
                                // consecutive retransmission copies differ by 1 there (sim/copy_log.hpp)
  std::uint32_t spare = 0;      // unused: keeps `index` alone in its word with a constant (sim/copy_log.hpp)
  std::uint32_t psn = 0;        // RC: packet sequence number (sim/rc_connection.hpp); control: the PSN it names
  std::uint32_t sack = 0;       // RC selective repeat: a NACK's PSN the responder received out of order
  std::uint32_t spare_tail[2] = {};  // unused: the rest of the fourth line, so no byte is padding

  /// Tells the pacer (once) that this packet is starting on the sender's wire.
  void notify_pacer() {
    if (!pacer) return;
    TxPacer* t = pacer;
    pacer = nullptr;
    t->transmitting(*this);
  }

  /// Charges the time since `stamp` to `c`, spent at `site` (recorded when the packet is traced).
  void charge(Category c, Time now, TraceSite site = 0) {
    if (trail >= 0) [[unlikely]] trail = trace_step(*this, trail, site, c, stamp, now - stamp);
    ledger.add(c, now - stamp);
    stamp = now;
  }
};
static_assert(sizeof(Packet) == 256, "Packet: four cache lines, every byte a member (sim/copy_log.hpp reads its words)");

}  // namespace rdmasim
