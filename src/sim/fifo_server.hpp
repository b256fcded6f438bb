// FifoServer: one resource that serves one packet at a time in arrival order — a CPU core, a
// PCIe direction, a link transmitter. Several stages may share one server (all the CPU work
// of a host), each giving the service time and ledger category of its turn.
//
// Ledger rule: sim/critical_path.hpp (a wait behind the same message's previous packet
// continues its critical path; any other wait is `queue`).
//
// Hand-on at the start: when a packet's whole turn is fixed as it starts (no early release,
// untraced) and its stage hands it to a constant delay (ServeStage::hands_on_at_start), the
// server charges the service, records the departure and passes the packet on as of the end of
// its service — all at the start, with no event for the end. The server then stays busy until
// `busy_until` without an event, and schedules one at that time only when a packet queues
// behind it. Packets start, wait and leave at the same instants as with an end event; only the
// scheduling order among events at one instant can differ.
#pragma once

#include <cstdint>

#include "core/scheduler.hpp"
#include "sim/critical_path.hpp"
#include "net/packet.hpp"

namespace rdmasim {

class ServeStage;

class FifoServer : public EventHandler {
 public:
  explicit FifoServer(Scheduler& s) : sched_(s) {}
  FifoServer(const FifoServer&) = delete;
  FifoServer& operator=(const FifoServer&) = delete;

  /// Queues `p` for `p.service` of service; `owner` is told when it is done.
  void enqueue(Packet& p, ServeStage& owner);

  bool busy() const { return end_pending_ || busy_until_ > sched_.now(); }
  std::size_t queued() const { return queued_; }
  Time busy_time() const { return busy_time_; }
  std::uint64_t served() const { return served_; }

  void on_event(std::uint64_t arg) override;

 private:
  void start(Packet& p);

  Scheduler& sched_;
  Packet* head_ = nullptr;
  Packet* tail_ = nullptr;
  Packet* current_ = nullptr;      // in service, ended by its own event (nullptr: none, or handed on)
  bool released_ = false;          // current packet already handed on (cut-through)
  bool ending_ = false;            // the pending end event finishes a service (else it only frees)
  bool end_pending_ = false;       // an event at busy_until_ ends the service in progress
  std::size_t queued_ = 0;
  CriticalPath path_;
  Time busy_until_{};              // end of the service in progress (or of the last one)
  Time busy_time_{};
  std::uint64_t served_ = 0;
};

}  // namespace rdmasim
