// FifoServer: one resource that serves one packet at a time in arrival order — a CPU core, a
// PCIe direction, a link transmitter. Several stages may share one server (all the CPU work
// of a host), each giving the service time and ledger category of its turn.
//
// Ledger rule (see rdmasim/ledger.hpp): a packet that waited for service takes the critical
// path into account. If the packet served just before it belongs to the SAME message, the
// waiting packet's path continues from that packet: it takes over the predecessor's ledger as
// it was at departure (which ends exactly at this start time). If the predecessor belongs to
// ANOTHER message, the wait is charged to `queue`. So for a message whose packets pile up at a
// bottleneck the ledger shows the pipeline fill plus the bottleneck's service of every packet
// (L_transmit = S/B for a link-bound message), and time lost to other traffic is queueing.
#pragma once

#include <cstdint>

#include "core/scheduler.hpp"
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

  bool busy() const { return busy_; }
  std::size_t queued() const { return queued_; }
  Time busy_time() const { return busy_time_; }
  std::uint64_t served() const { return served_; }

  void on_event(std::uint64_t arg) override;

 private:
  void start(Packet& p);
  void record_last(Packet& p);

  Scheduler& sched_;
  Packet* head_ = nullptr;
  Packet* tail_ = nullptr;
  Packet* current_ = nullptr;
  bool released_ = false;          // current packet already handed on (cut-through)
  bool busy_ = false;
  std::size_t queued_ = 0;
  std::uint64_t last_msg_ = ~std::uint64_t{0};  // message of the packet served last
  Ledger last_ledger_;                             // its ledger at departure
  Time last_done_ = Time::ps(-1);
  Time busy_time_{};
  std::uint64_t served_ = 0;
};

}  // namespace rdmasim
