// ThreadRanks: ranks as threads of one process, exchanging through shared buffers — the
// protocol of a run over MPI ranks (rdmasim/rank_exchange.hpp; apps/rdmasim/mpi_world.hpp
// implements it with MPI), without MPI, for tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <cstddef>
#include <exception>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "rdmasim/rank_exchange.hpp"

namespace rdmasim {

class ThreadRanks {
 public:
  explicit ThreadRanks(int n) : n_(n), sync_(n), boxes_(static_cast<std::size_t>(n * n)), next_(static_cast<std::size_t>(n)), wake_(static_cast<std::size_t>(n)),
                                failed_(static_cast<std::size_t>(n)) {}
  class Rank final : public RankExchange {
   public:
    Rank(ThreadRanks& all, int r) : all_(all), r_(r) {}
    int rank() const override { return r_; }
    int ranks() const override { return all_.n_; }
    void exchange(const std::vector<std::vector<std::byte>>& out, std::vector<std::vector<std::byte>>& in) override {
      EXPECT_TRUE(out[static_cast<std::size_t>(r_)].empty());
      for (int to = 0; to < all_.n_; ++to) all_.box(r_, to) = out[static_cast<std::size_t>(to)];
      all_.sync_.arrive_and_wait();
      in.assign(static_cast<std::size_t>(all_.n_), {});
      for (int from = 0; from < all_.n_; ++from) in[static_cast<std::size_t>(from)] = all_.box(from, r_);
      all_.sync_.arrive_and_wait();
    }
    Agreement agree(Time next, Time wake, bool failed) override {
      all_.next_[static_cast<std::size_t>(r_)] = next;
      all_.wake_[static_cast<std::size_t>(r_)] = wake;
      all_.failed_[static_cast<std::size_t>(r_)] = failed ? 1 : 0;
      all_.sync_.arrive_and_wait();
      const Agreement a{*std::min_element(all_.next_.begin(), all_.next_.end()),
                        *std::min_element(all_.wake_.begin(), all_.wake_.end()),
                        std::find(all_.failed_.begin(), all_.failed_.end(), 1) != all_.failed_.end()};
      all_.sync_.arrive_and_wait();
      return a;
    }

   private:
    ThreadRanks& all_;
    int r_;
  };

 private:
  std::vector<std::byte>& box(int from, int to) { return boxes_[static_cast<std::size_t>(from * n_ + to)]; }
  int n_;
  std::barrier<> sync_;
  std::vector<std::vector<std::byte>> boxes_;
  std::vector<Time> next_, wake_;
  std::vector<char> failed_;  // a byte per rank: the rank threads write theirs at once (not vector<bool>'s shared word)
};

/// What each of n ranks (threads of this process) returned from run(its RankExchange), or the
/// message of what it threw.
struct RankRuns {
  std::vector<std::string> reports, errors;
};
template <typename Run>
RankRuns run_on_thread_ranks(int n, const Run& run) {
  ThreadRanks all(n);
  RankRuns out{std::vector<std::string>(static_cast<std::size_t>(n)), std::vector<std::string>(static_cast<std::size_t>(n))};
  std::vector<std::thread> ranks;
  for (int r = 0; r < n; ++r)
    ranks.emplace_back([&, r] {
      ThreadRanks::Rank me(all, r);
      try {
        out.reports[static_cast<std::size_t>(r)] = run(me);
      } catch (const std::exception& e) {
        out.errors[static_cast<std::size_t>(r)] = e.what();
      }
    });
  for (std::thread& t : ranks) t.join();
  return out;
}

}  // namespace rdmasim
