// RankExchange: the processes one simulation runs on (MPI ranks: `mpirun -np N rdmasim ...`).
// Every process builds the whole model and runs its share of the logical processes
// (core/parallel_run.hpp); between windows the processes swap what crossed between them and
// agree on the next window, and at the end they swap what each one's share counted.
// Every call is collective: every rank makes it, in the same order, or the run hangs.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "rdmasim/units.hpp"

namespace rdmasim {

class RankExchange {
 public:
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  /// Sends out[r] to each rank r (its own: empty) and returns in `in` what each rank sent
  /// this one, by rank.
  virtual void exchange(const std::vector<std::vector<std::byte>>& out, std::vector<std::vector<std::byte>>& in) = 0;
  /// What the ranks agree on between windows: the earliest of every rank's `next` (its LPs'
  /// next event, or its hooks' wake) and of every rank's `wake` (its hooks' wake), and whether
  /// any rank `failed`.
  struct Agreement {
    Time next;
    Time wake;
    bool failed;
  };
  virtual Agreement agree(Time next, Time wake, bool failed) = 0;

  /// Every rank's `mine`, by rank, at every rank (one exchange).
  std::vector<std::vector<std::byte>> all_gather(std::span<const std::byte> mine) {
    std::vector<std::vector<std::byte>> out(static_cast<std::size_t>(ranks()), std::vector<std::byte>(mine.begin(), mine.end()));
    out[static_cast<std::size_t>(rank())].clear();
    std::vector<std::vector<std::byte>> in;
    exchange(out, in);
    in.resize(static_cast<std::size_t>(ranks()));
    in[static_cast<std::size_t>(rank())].assign(mine.begin(), mine.end());
    return in;
  }

 protected:
  ~RankExchange() = default;
};

}  // namespace rdmasim
