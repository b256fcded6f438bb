// mpi_window_bench: what one window's synchronization costs between MPI ranks — the exchange
// a window-synchronous parallel run over MPI needs between windows (core/parallel_run.hpp runs
// the same protocol on threads): the crossings' byte counts to every rank (MPI_Alltoall), the
// crossings themselves (MPI_Alltoallv of `bytes` per rank pair) and the earliest pending event
// of every rank (MPI_Allreduce, MIN).
//
// Run under mpirun (e.g. `mpirun --oversubscribe -np 2 mpi_window_bench`); rank 0 prints one line
// per crossing volume: microseconds per window (best of `--repeat` rounds of `--windows`).
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int windows = 20000, repeat = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view a = argv[i];
    if (a == "--windows") windows = std::max(1, std::atoi(argv[i + 1]));
    else if (a == "--repeat") repeat = std::max(1, std::atoi(argv[i + 1]));
  }
  if (rank == 0)
    std::printf("# mpi_window_bench: %d ranks, %d windows per round, best of %d rounds\n%12s %14s\n", size, windows, repeat,
                "bytes/pair", "us/window");
  const auto n = static_cast<std::size_t>(size);
  for (const int bytes : {0, 256, 4096, 65536}) {
    std::vector<int> counts(n, bytes), their(n), displs(n);
    for (std::size_t r = 0; r < n; ++r) displs[r] = static_cast<int>(r) * bytes;
    std::vector<char> out(n * static_cast<std::size_t>(bytes) + 1, 1), in(out.size());
    double best = 1e300;
    for (int round = 0; round < repeat; ++round) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      std::int64_t next = rank;
      for (int w = 0; w < windows; ++w) {
        MPI_Alltoall(counts.data(), 1, MPI_INT, their.data(), 1, MPI_INT, MPI_COMM_WORLD);
        MPI_Alltoallv(out.data(), counts.data(), displs.data(), MPI_CHAR, in.data(), their.data(), displs.data(), MPI_CHAR,
                      MPI_COMM_WORLD);
        std::int64_t start = 0;
        MPI_Allreduce(&next, &start, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
        next = start + 1 + rank;
      }
      double t = (MPI_Wtime() - t0) / windows;
      MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      best = std::min(best, t);
    }
    if (rank == 0) std::printf("%12d %14.3f\n", bytes, best * 1e6);
  }
  MPI_Finalize();
  return 0;
}
