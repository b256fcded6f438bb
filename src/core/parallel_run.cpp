#include "core/parallel_run.hpp"

#include "core/byte_io.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <condition_variable>
#include <thread>

namespace rdmasim {

// A reusable barrier for the run's workers: spins briefly (the windows of a busy model are
// microseconds long), then yields, then sleeps, so more workers than free cores still make
// progress without taking turns at yielding.
class ParallelRun::Barrier {
 public:
  // Loads, then yields, before sleeping (no pause: in a VM it may exit to the hypervisor). A
  // sleeper waits on a condition variable until the last arrival wakes it, so workers that
  // outnumber the free cores (another process busy on one) stop yielding to each other in turn.
  static constexpr int kSpins = 1 << 12, kYields = 256;

  explicit Barrier(int n) : n_(n) {}
  /// Waits for every worker; the last to arrive runs `last()` before any is released.
  template <class F>
  void arrive_and_wait(F&& last) {
    const std::uint32_t gen = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_) {
      last();
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_seq_cst);
      if (sleepers_.load(std::memory_order_seq_cst) > 0) {  // a sleeper counted itself before its last look
        const std::lock_guard lock(mutex_);
        wake_.notify_all();
      }
      return;
    }
    for (int spins = 0; generation_.load(std::memory_order_acquire) == gen; ++spins) {
      if (spins < kSpins) continue;
      if (spins < kSpins + kYields) {
        std::this_thread::yield();
        continue;
      }
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return generation_.load(std::memory_order_seq_cst) != gen; });
      }
      sleepers_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  void arrive_and_wait() {
    arrive_and_wait([] {});
  }

 private:
  const int n_;
  alignas(64) std::atomic<int> arrived_{0};
  alignas(64) std::atomic<std::uint32_t> generation_{0};
  alignas(64) std::atomic<int> sleepers_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
};

ParallelRun::ParallelRun(int lps, Time lookahead) : lookahead_(lookahead), words_((static_cast<std::size_t>(std::max(lps, 0)) + 63) / 64) {
  if (lps < 1) throw std::invalid_argument("ParallelRun: at least one logical process");
  if (lookahead <= Time::zero()) throw std::invalid_argument("ParallelRun: the lookahead must be positive");
  lps_.reserve(static_cast<std::size_t>(lps));
  // An LP schedules about 1/lps of the events, so a smaller wheel holds them as densely as one
  // scheduler's holds all (2^12 buckets from 8 LPs on: 1 us ahead, the rest in the heap). Its
  // buckets then stay in cache: a fat-tree's pods on one thread ran 12-16 % faster than with
  // every LP on the full 2^15 at k=12, 5-8 % at k=16; 2^10 was slower again (more events in
  // the heap).
  const unsigned shrink = lps >= 8 ? 3u : lps >= 4 ? 2u : lps >= 2 ? 1u : 0u;
  for (int i = 0; i < lps; ++i) {
    lps_.push_back(std::make_unique<Lp>(Scheduler::kWheelBits - shrink));
    lps_.back()->out.resize(static_cast<std::size_t>(lps));
    lps_.back()->senders = std::make_unique<std::atomic<std::uint64_t>[]>(words());
  }
}

ParallelRun::~ParallelRun() = default;

int ParallelRun::add_handler(int lp, CrossingHandler& h) {
  if (lp < 0 || lp >= lps()) throw std::out_of_range("ParallelRun::add_handler: no LP " + std::to_string(lp));
  handlers_.emplace_back(lp, &h);
  return static_cast<int>(handlers_.size()) - 1;
}

void ParallelRun::send(int from, int to, Time at, Scheduler::Tie tie, std::span<const std::byte> bytes) {
  if (to < 0 || static_cast<std::size_t>(to) >= handlers_.size())
    throw std::logic_error("ParallelRun::send: no handler " + std::to_string(to));
  Lp& sender = *lps_[static_cast<std::size_t>(from)];
  if (at < sender.sched.now() + lookahead_)
    throw std::logic_error("ParallelRun::send: a crossing due " + std::to_string((at - sender.sched.now()).count_ps()) +
                           " ps ahead, inside the lookahead of " + std::to_string(lookahead_.count_ps()) + " ps");
  const auto receiver = static_cast<std::size_t>(handlers_[static_cast<std::size_t>(to)].first);
  Mailbox& box = sender.out[receiver];
  if (box.records.empty())
    lps_[receiver]->senders[static_cast<std::size_t>(from) / 64].fetch_or(std::uint64_t{1} << (from % 64), std::memory_order_relaxed);
  if (box.bytes.size() + bytes.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("ParallelRun::send: more than 4 GiB of crossings in one window");
  box.records.push_back(Record{at.count_ps(), tie.since_ps, tie.seq, tie.tag, static_cast<std::uint32_t>(to), static_cast<std::uint32_t>(box.bytes.size())});
  box.bytes.insert(box.bytes.end(), bytes.begin(), bytes.end());
}

void ParallelRun::deliver(int lp) {
  Lp& me = *lps_[static_cast<std::size_t>(lp)];
  // By sender, then in its order: what a crossing causes takes its place among this LP's events
  // from its tie, so the order of delivery only has to be one no thread decides.
  for (std::size_t w = 0; w < words(); ++w)
    for (std::uint64_t bits = me.senders[w].exchange(0, std::memory_order_relaxed); bits != 0; bits &= bits - 1) {
      const std::size_t f = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
      const Mailbox& box = lps_[f]->out[static_cast<std::size_t>(lp)];
      for (std::size_t i = 0; i < box.records.size(); ++i) {
        const Record& r = box.records[i];
        const std::size_t end = i + 1 < box.records.size() ? box.records[i + 1].offset : box.bytes.size();
        handlers_[r.handler].second->accept(Time::ps(r.at_ps), Scheduler::Tie{r.tag, r.seq, r.since_ps},
                                            std::span<const std::byte>(box.bytes.data() + r.offset, end - r.offset));
      }
      me.delivered += box.records.size();
    }
}

void ParallelRun::fail(std::exception_ptr e) {
  const std::lock_guard lock(error_mutex_);
  if (!error_) error_ = e;
  failed_.store(true, std::memory_order_release);
}

void ParallelRun::worker(int index, int threads, Time until, Barrier& barrier) {
  // This worker's LPs: every threads-th of the LPs this process runs.
  std::vector<std::size_t> mine;
  for (std::size_t i = static_cast<std::size_t>(index); i < here_.size(); i += static_cast<std::size_t>(threads)) mine.push_back(here_[i]);
  // Decided by the last worker to reach the window's second barrier, read by all after it and
  // before any can reach the next one: every worker takes the same decision.
  auto decide = [&] {
    Time start = wake_;
    for (std::size_t lp : here_) start = std::min(start, lps_[lp]->next);
    bool failed = failed_.load(std::memory_order_acquire);
    agreed_wake_ = wake_;
    if (exchange_) {
      const RankExchange::Agreement a = exchange_->agree(start, wake_, failed);
      start = a.next;
      agreed_wake_ = a.wake;
      if (a.failed && !failed) fail(std::make_exception_ptr(std::runtime_error("another rank failed")));
      failed = a.failed;
    }
    window_start_ = start;
    go_on_ = !failed && !halted_ && start != Time::max() && start <= until;
    return failed;
  };
  if (index == 0) decide();
  barrier.arrive_and_wait();
  while (go_on_) {
    const Time limit = window_start_ + lookahead_ - Time::ps(1);
    try {
      for (std::size_t lp : mine) lps_[lp]->sched.run_until(limit);
    } catch (...) {
      fail(std::current_exception());
    }
    barrier.arrive_and_wait([&] {  // every crossing of the window is in its mailbox
      if (!exchange_) return;
      try {
        swap_crossings();
      } catch (...) {
        fail(std::current_exception());
      }
    });
    try {
      for (std::size_t lp : mine) {
        deliver(static_cast<int>(lp));
        lps_[lp]->next = lps_[lp]->sched.next_time();
      }
    } catch (...) {
      fail(std::current_exception());
    }
    barrier.arrive_and_wait([&] {  // every LP's next event is known; nobody reads a mailbox any more
      if (!between_.empty() && !failed_.load(std::memory_order_acquire)) {
        try {
          wake_ = Time::max();
          for (auto& hook : between_) {
            const Between b = hook(window_start_ + lookahead_);
            halted_ = halted_ || b.halt;
            wake_ = std::min(wake_, b.wake);
          }
        } catch (...) {
          fail(std::current_exception());
        }
      }
      if (!decide()) ++windows_;  // a window counts when it ran everywhere
    });
    // Each worker empties the mailboxes its LPs filled; over ranks (one worker), also the
    // copies of other ranks' LPs that carried crossings here.
    auto empty = [&](std::size_t lp) {
      for (Mailbox& box : lps_[lp]->out)
        if (!box.records.empty()) {
          box.records.clear();
          box.bytes.clear();
        }
    };
    if (exchange_)
      for (std::size_t lp = 0; lp < lps_.size(); ++lp) empty(lp);
    else
      for (std::size_t lp : mine) empty(lp);
  }
}

void ParallelRun::swap_crossings() {
  // A block per (sender here, receiver there) mailbox that holds crossings: sender, receiver,
  // record count, byte count (4 x u32), the records, the bytes.
  for (auto& o : rank_out_) o.clear();
  for (std::size_t f : here_)
    for (std::size_t t = 0; t < lps_.size(); ++t) {
      const Mailbox& box = lps_[f]->out[t];
      if (box.records.empty() || runs_here(static_cast<int>(t))) continue;
      ByteWriter o(rank_out_[t % static_cast<std::size_t>(ranks_)]);
      const std::uint32_t head[4] = {static_cast<std::uint32_t>(f), static_cast<std::uint32_t>(t),
                                     static_cast<std::uint32_t>(box.records.size()), static_cast<std::uint32_t>(box.bytes.size())};
      o.put(head);
      o.raw(box.records.data(), box.records.size() * sizeof(Record));
      o.raw(box.bytes.data(), box.bytes.size());
    }
  exchange_->exchange(rank_out_, rank_in_);
  for (const std::vector<std::byte>& in : rank_in_)
    for (std::size_t at = 0; at < in.size();) {
      std::uint32_t head[4];
      if (in.size() - at < sizeof head) throw std::logic_error("ParallelRun: a truncated crossing block from another rank");
      std::memcpy(head, in.data() + at, sizeof head);
      at += sizeof head;
      const std::size_t records = head[2] * sizeof(Record);
      if (head[0] >= lps_.size() || head[1] >= lps_.size() || !runs_here(static_cast<int>(head[1])) ||
          in.size() - at < records + head[3])
        throw std::logic_error("ParallelRun: a malformed crossing block from another rank");
      Mailbox& box = lps_[head[0]]->out[head[1]];
      box.records.resize(head[2]);
      std::memcpy(box.records.data(), in.data() + at, records);
      at += records;
      box.bytes.assign(in.begin() + static_cast<std::ptrdiff_t>(at), in.begin() + static_cast<std::ptrdiff_t>(at + head[3]));
      at += head[3];
      lps_[head[1]]->senders[head[0] / 64].fetch_or(std::uint64_t{1} << (head[0] % 64), std::memory_order_relaxed);
    }
}

void ParallelRun::run(int threads, Time until, RankExchange* ranks) {
  if (threads < 1) throw std::invalid_argument("ParallelRun::run: at least one thread");
  exchange_ = ranks && ranks->ranks() > 1 ? ranks : nullptr;
  rank_ = exchange_ ? exchange_->rank() : 0;
  ranks_ = exchange_ ? exchange_->ranks() : 1;
  if (exchange_ && threads > 1) throw std::invalid_argument("ParallelRun::run: over ranks, one thread per rank");
  if (halted_) return;
  here_.clear();
  for (int lp = 0; lp < lps(); ++lp)
    if (runs_here(lp)) here_.push_back(static_cast<std::size_t>(lp));
  rank_out_.assign(static_cast<std::size_t>(ranks_), {});
  threads = std::max(1, std::min(threads, static_cast<int>(here_.size())));
  failed_.store(false);
  error_ = nullptr;
  for (auto& lp : lps_) lp->next = lp->sched.next_time();
  Barrier barrier(threads);
  {
    std::vector<std::jthread> others;
    others.reserve(static_cast<std::size_t>(threads - 1));
    for (int w = 1; w < threads; ++w) others.emplace_back([this, w, threads, until, &barrier] { worker(w, threads, until, barrier); });
    worker(0, threads, until, barrier);
  }
  exchange_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

std::uint64_t ParallelRun::crossings() const {
  std::uint64_t n = 0;
  for (const auto& lp : lps_) n += lp->delivered;  // zero in the LPs another rank runs
  return n;
}

std::uint64_t ParallelRun::executed() const {
  std::uint64_t n = 0;
  for (const auto& lp : lps_) n += lp->sched.executed();
  return n;
}

}  // namespace rdmasim
