// FifoServer: one resource that serves one packet at a time in arrival order — a CPU core, a
// PCIe direction, a link transmitter. Several stages may share one server (all the CPU work
// of a host), each giving the service time and ledger category of its turn.
//
// Ledger rule (see rdmasim/ledger.hpp): the wait before service is split into time the server
// spent on packets of OTHER messages (charged to `queue`) and time it spent, without a break,
// on earlier packets of the SAME message (charged to the serving stage's category). The server
// tracks the current same-message run: (message id, time the run began).
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

  bool busy() const { return current_ != nullptr; }
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
  std::size_t queued_ = 0;
  std::uint64_t run_msg_ = ~std::uint64_t{0};
  Time run_start_{};
  Time last_done_ = Time::ps(-1);
  Time busy_time_{};
  std::uint64_t served_ = 0;
};

}  // namespace rdmasim
