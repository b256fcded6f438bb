// MpiWorld: the ranks of `mpirun -np N rdmasim ...` (Open MPI), for commands that split their
// work over processes and machines (`sweep`: rank r runs share r + 1 of N, rank 0 gathers the
// shares and merges them; `bw --pattern`: one fabric run's LPs), and the exchange a parallel
// run over ranks needs (rdmasim/rank_exchange.hpp: MPI_Alltoall + MPI_Alltoallv,
// MPI_Allreduce). Built with RDMASIM_MPI (CMake option, on when Open MPI is found);
// a process not started by mpirun, or started with one rank, is a world of one and never
// initializes MPI. A build without MPI started by mpirun with several ranks refuses (each rank
// would otherwise do all of the work and write the same output).
#pragma once

#include <string>
#include <vector>

#include "core/parallel_run.hpp"

namespace rdmasim::cli {

class MpiWorld final : public RankExchange {
 public:
  /// Joins the ranks when started by mpirun with more than one; throws std::invalid_argument
  /// when this build has no MPI and there are several.
  MpiWorld();
  ~MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const override { return rank_; }
  int size() const { return size_; }
  int ranks() const override { return size_; }
  void exchange(const std::vector<std::vector<std::byte>>& out, std::vector<std::vector<std::byte>>& in) override;
  Agreement agree(Time next, Time wake, bool failed) override;
  /// Every rank's `mine`, in rank order, at rank 0 (empty at the others). Collective: every
  /// rank calls it once.
  std::vector<std::string> gather(const std::string& mine) const;

 private:
  int rank_ = 0, size_ = 1;
  bool initialized_ = false;
};

/// The rank count mpirun announces to this process (OMPI_COMM_WORLD_SIZE, or PMI_SIZE / PMIX
/// launchers'), 1 when none.
int launched_ranks();
/// This process's rank as mpirun announces it (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK), 0 when
/// none: the rank that reports a bad command line, which every rank finds alike.
int launched_rank();

}  // namespace rdmasim::cli
