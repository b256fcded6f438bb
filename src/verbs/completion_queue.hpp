// CompletionQueue: the CQ a NIC writes completions (CQEs) into and an application polls.
//
// A fixed ring of `cqe` entries, oldest first. A completion that finds the ring full is an
// overrun (a real CQ then raises IBV_EVENT_CQ_ERR): it is dropped and counted, never written
// past the ring. At most one application coroutine busy-polls a CQ at a time; it is told when
// the first completion arrives. Each entry keeps the time it was written so the poller can
// charge the wait in the CQ to its ledger.
#pragma once

#include <coroutine>
#include <cstdint>
#include <vector>

#include "rdmasim/verbs.hpp"

namespace rdmasim::verbs {

class CompletionQueue : public ibv_cq {
 public:
  /// Calls the waiter when a completion arrives while somebody polls.
  class Waiter {
   public:
    virtual void completion_arrived(CompletionQueue& cq, void* cookie) = 0;

   protected:
    ~Waiter() = default;
  };

  CompletionQueue(ibv_context* ctx, int capacity);

  /// The NIC writes one completion at time `at`. False (and counted) when the CQ is full.
  bool push(const ibv_wc& wc, Time at);
  /// Pops up to n completions into wc; each one's ledger gets `queue` for its wait from being
  /// written until the poll that found it started at `polled_at`, then `extra` (that poll's own
  /// ledger), so its total runs from the post to the end of the poll.
  int pop(int n, ibv_wc* wc, Time polled_at, const Ledger& extra);
  int size() const { return size_; }
  std::uint64_t overruns() const { return overruns_; }

  void set_waiter(Waiter* w, void* cookie) { waiter_ = w; cookie_ = cookie; }
  Waiter* waiter() const { return waiter_; }

  bool alive = true;
  int users = 0;  // QPs using it

 private:
  struct Entry {
    ibv_wc wc;
    Time at;
  };
  std::vector<Entry> ring_;
  int head_ = 0, size_ = 0;
  std::uint64_t overruns_ = 0;
  Waiter* waiter_ = nullptr;
  void* cookie_ = nullptr;
};

}  // namespace rdmasim::verbs
