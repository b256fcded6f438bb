// ParallelRun: conservative, window-synchronous parallel discrete-event simulation of a model
// split into a fixed set of logical processes (LPs), each with a Scheduler of its own.
//
// A window runs, in every LP, each event due before start + lookahead; the LPs run side by
// side on the worker threads (LP i on worker i mod threads). An LP reaches another only by
// send(): a crossing due at least `lookahead` after the sender's now (a cable's propagation
// delay, in a fabric), kept in the (sender, receiver) mailbox until the window ends. Between
// windows each LP takes the crossings sent to it, calling the addressed handler's accept(),
// which schedules what the crossing causes on that LP's scheduler, ordered by the tie the sender
// took (Scheduler::tie; a fabric tags it with the sending node): among the receiver's events due
// at the same time, it runs where one scheduler running the whole model would run it. Crossings
// are delivered in (sender, sender's order). The next window starts at the earliest event
// pending in any LP. No crossing can fall inside the window it was sent in, since it is due at
// or after the window's end.
//
// Over several processes (a RankExchange: MPI ranks, apps/rdmasim/mpi_world.hpp) every process
// builds the whole model and runs LP i when i mod ranks == its rank, one thread each; between
// windows the crossings for another rank's LPs travel to it in one exchange, and the next
// window's start, the earliest wake the hooks asked for and whether any rank failed in one
// reduction (RankExchange::agree).
//
// Determinism: an LP orders its events by its own scheduler (time, then tie), its incoming
// crossings by (sender, sender's order), and the windows follow from the LPs' pending events
// alone; so a run is the same, event for event, whatever the number of threads or ranks (one
// thread runs the same windows on the caller's). It is one scheduler's run of the whole model
// when the model tags its crossings so that a tag's ties are all taken in one LP, schedules
// nothing untagged across LPs (Scheduler's invariants), and its hooks between windows schedule
// what one scheduler would, when it would: the ties then order every event as they would in
// one scheduler, whichever LPs the model is cut into.
//
// Invariants (checked, std::logic_error): a crossing is due no sooner than lookahead after its
// sender's now, and addresses a registered handler; lookahead > 0. A handler that throws ends
// the run: every worker stops at the window's end and run() rethrows the first exception.
// Memory: a crossing costs 40 B of record plus its bytes in the mailbox, whose storage is kept
// from window to window (no allocation once the largest window has been seen). Two barriers
// per window: see bench/parallel_bench.cpp for what they cost.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

#include "core/scheduler.hpp"
#include "rdmasim/rank_exchange.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

/// The receiving end of crossings: told, between windows and on its LP's worker, of each
/// crossing addressed to it, with its due time (never before its LP's now), the tie its sender
/// took for it and the sender's bytes (valid during the call only).
class CrossingHandler {
 public:
  /// Schedules what the crossing causes at `at` with `tie` (the sender's).
  virtual void accept(Time at, Scheduler::Tie tie, std::span<const std::byte> bytes) = 0;

 protected:
  ~CrossingHandler() = default;
};

class ParallelRun {
 public:
  /// `lps` logical processes (>= 1), each with an empty scheduler; lookahead > 0.
  ParallelRun(int lps, Time lookahead);
  ParallelRun(const ParallelRun&) = delete;
  ParallelRun& operator=(const ParallelRun&) = delete;
  ~ParallelRun();

  int lps() const { return static_cast<int>(lps_.size()); }
  Time lookahead() const { return lookahead_; }
  Scheduler& scheduler(int lp) { return lps_.at(static_cast<std::size_t>(lp))->sched; }

  /// Registers `h` as a receiver in LP `lp`; the returned id addresses it in send().
  int add_handler(int lp, CrossingHandler& h);
  /// Called from an event of LP `from`: a crossing to handler `to`, due at `at` (at least
  /// lookahead after LP `from`'s now), ordered by `tie` (from LP `from`'s scheduler), carrying
  /// `bytes`.
  void send(int from, int to, Time at, Scheduler::Tie tie, std::span<const std::byte> bytes);

  /// Runs windows on `threads` workers (>= 1; the caller is worker 0) or, given `ranks` of more
  /// than one, on this rank's LPs (one thread each) until no LP has an event
  /// pending and no crossing is in flight, or until the next window would start after `until`
  /// (the last window runs whole, up to lookahead past `until`, so that a run resumed later
  /// keeps the same windows and equals one uninterrupted run).
  /// A rank whose LP throws rethrows it; the others throw std::runtime_error("another rank failed").
  void run(int threads, Time until = Time::max(), RankExchange* ranks = nullptr);

  /// What a hook between windows asks for: to end the run after this window (for good:
  /// halted()), or a window starting no later than `wake` even if no LP has an event by then.
  struct Between {
    bool halt = false;
    Time wake = Time::max();
  };
  /// Adds a hook called between windows, on one worker while the others wait, with the end of
  /// the window just run: every LP has run its events before it and none after, so a hook sees
  /// the whole model at one instant (a fabric's PFC deadlock check, the pools' balance). Hooks
  /// run in the order added; the run halts if any asks, and wakes at the earliest wake. A hook
  /// that schedules events must ask to wake no later than the earliest of them: the LPs' next
  /// events were taken before the hooks ran. Over ranks every rank runs its hooks, each seeing
  /// this rank's LPs only: a hook that needs the whole model gets the rest through ranks()
  /// (the same calls on every rank), and every rank's hooks must answer alike.
  void add_between_windows(std::function<Between(Time)> hook) { between_.push_back(std::move(hook)); }
  /// In a hook between windows: the earliest event pending in any LP (Time::max() if none),
  /// crossings just delivered included, taken before the hooks ran (over ranks: in this rank's).
  Time next_event() const {
    Time t = Time::max();
    for (std::size_t lp : here_) t = std::min(t, lps_[lp]->next);
    return t;
  }
  bool halted() const { return halted_; }
  /// In a hook between windows: the earliest wake any hook asked for between the last windows,
  /// on any rank (Time::max() if none).
  Time agreed_wake() const { return agreed_wake_; }
  /// During a run over ranks, the ranks (for a hook between windows); null otherwise.
  RankExchange* ranks() const { return exchange_; }

  /// Windows run so far and crossings delivered (all runs together; over ranks, to this
  /// rank's LPs).
  std::uint64_t windows() const { return windows_; }
  std::uint64_t crossings() const;
  /// Events run in every LP together (over ranks, in this rank's).
  std::uint64_t executed() const;
  /// Whether this process runs LP `lp` (always, unless run over ranks).
  bool runs_here(int lp) const { return rank_of(lp, ranks_) == rank_; }
  /// The rank that runs LP `lp` in a run over `ranks` (known before the run too).
  static int rank_of(int lp, int ranks) { return lp % ranks; }

 private:
  struct Record {  // 40 B; its index in the mailbox is its place in the sender's order
    std::int64_t at_ps;
    std::int64_t since_ps;  // the tie's
    std::uint64_t seq;
    std::uint32_t tag;
    std::uint32_t handler;
    std::uint32_t offset;  // of its bytes in the mailbox's (up to the next record's offset)
    std::uint32_t unused = 0;
  };
  struct Mailbox {
    std::vector<Record> records;
    std::vector<std::byte> bytes;
  };
  struct alignas(64) Lp {  // one cache line apart: written by its own worker only
    explicit Lp(unsigned wheel_bits) : sched(wheel_bits) {}
    Scheduler sched;
    std::vector<Mailbox> out;     // by receiving LP
    // Which LPs sent it crossings this window, a bit per sender (set by the senders, with their
    // first crossing to it; read and cleared by its own worker): delivery reads only the
    // mailboxes that hold something, not one per sender.
    std::unique_ptr<std::atomic<std::uint64_t>[]> senders;
    Time next{};                  // its earliest pending event after the last delivery
    std::uint64_t delivered = 0;  // crossings it took
  };
  class Barrier;

  std::size_t words() const { return words_; }
  void worker(int index, int threads, Time until, Barrier& barrier);
  /// Over ranks: sends this rank's LPs' crossings for other ranks' LPs and files the ones
  /// received in their senders' mailboxes (copies of the other ranks' LPs carry them here).
  void swap_crossings();
  void deliver(int lp);
  void fail(std::exception_ptr e);

  Time lookahead_;
  std::size_t words_;  // of a `senders` bit set
  std::vector<std::unique_ptr<Lp>> lps_;
  std::vector<std::pair<int, CrossingHandler*>> handlers_;  // id -> (LP, handler)
  std::uint64_t windows_ = 0;
  RankExchange* exchange_ = nullptr;  // during a run over ranks
  int rank_ = 0, ranks_ = 1;
  std::vector<std::size_t> here_;  // the LPs this process runs
  std::vector<std::vector<std::byte>> rank_out_, rank_in_;  // swap_crossings' buffers, by rank
  std::vector<std::function<Between(Time)>> between_;  // add_between_windows
  bool halted_ = false;                    // the hook ended the run
  Time wake_ = Time::max();                // the hook's next window, at the latest
  Time agreed_wake_ = Time::max();         // the earliest wake_ of every rank (agreed_wake)
  Time window_start_{};  // the window to run next (decided between windows)
  bool go_on_ = false;   // whether to run it
  std::atomic<bool> failed_{false};
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

}  // namespace rdmasim
