// FifoServer: one resource that serves one packet at a time in arrival order — a CPU core, a
// PCIe direction, a link transmitter. Several stages may share one server (all the CPU work
// of a host), each giving the service time and ledger category of its turn.
//
// Ledger rule: sim/critical_path.hpp (a wait behind the same message's previous packet
// continues its critical path; any other wait is `queue`).
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

  bool busy() const { return busy_; }
  std::size_t queued() const { return queued_; }
  Time busy_time() const { return busy_time_; }
  std::uint64_t served() const { return served_; }

  void on_event(std::uint64_t arg) override;

 private:
  void start(Packet& p);

  Scheduler& sched_;
  Packet* head_ = nullptr;
  Packet* tail_ = nullptr;
  Packet* current_ = nullptr;
  bool released_ = false;          // current packet already handed on (cut-through)
  bool busy_ = false;
  std::size_t queued_ = 0;
  CriticalPath path_;
  Time busy_time_{};
  std::uint64_t served_ = 0;
};

}  // namespace rdmasim
