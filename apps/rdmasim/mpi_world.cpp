#include "mpi_world.hpp"

#include <charconv>
#include <cstdint>
#include <string_view>
#include <cstdlib>
#include <stdexcept>

#ifdef RDMASIM_HAVE_MPI
#include <mpi.h>
#endif

namespace rdmasim::cli {

int launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"})
    if (const char* v = std::getenv(name)) {
      const int n = std::atoi(v);
      if (n >= 1) return n;
    }
  return 1;
}

int launched_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* v = std::getenv(name)) {
      const std::string_view text = v;
      int r = -1;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), r);
      if (ec == std::errc{} && end == text.data() + text.size() && r >= 0) return r;
    }
  return 0;
}

#ifdef RDMASIM_HAVE_MPI

MpiWorld::MpiWorld() {
  if (launched_ranks() <= 1) return;
  MPI_Init(nullptr, nullptr);
  initialized_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiWorld::~MpiWorld() {
  if (initialized_) MPI_Finalize();
}

std::vector<std::string> MpiWorld::gather(const std::string& mine) const {
  if (size_ == 1) return {mine};
  if (mine.size() > 0x7fffffffu) throw std::invalid_argument("MPI: a rank's share is over 2 GiB");
  const int len = static_cast<int>(mine.size());
  std::vector<int> lens(rank_ == 0 ? static_cast<std::size_t>(size_) : 0), offsets(lens.size());
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  long long total = 0;
  for (std::size_t r = 0; r < lens.size(); ++r) {
    offsets[r] = static_cast<int>(total);
    total += lens[r];
  }
  if (total > 0x7fffffff) throw std::invalid_argument("MPI: the ranks' shares are over 2 GiB together");
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lens.size(); ++r) out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lens[r])));
  return out;
}

void MpiWorld::exchange(const std::vector<std::vector<std::byte>>& out, std::vector<std::vector<std::byte>>& in) {
  if (size_ == 1) {
    in = out;
    return;
  }
  const auto n = static_cast<std::size_t>(size_);
  std::vector<int> send(n), recv(n), send_at(n), recv_at(n);
  std::vector<std::byte> all_out;
  for (std::size_t r = 0; r < n; ++r) {
    if (out[r].size() > 0x7fffffffu || all_out.size() + out[r].size() > 0x7fffffffu)
      throw std::invalid_argument("MPI: over 2 GiB of crossings in one window");
    send[r] = static_cast<int>(out[r].size());
    send_at[r] = static_cast<int>(all_out.size());
    all_out.insert(all_out.end(), out[r].begin(), out[r].end());
  }
  MPI_Alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, MPI_COMM_WORLD);
  long long total = 0;
  for (std::size_t r = 0; r < n; ++r) {
    recv_at[r] = static_cast<int>(total);
    total += recv[r];
  }
  if (total > 0x7fffffff) throw std::invalid_argument("MPI: over 2 GiB of crossings in one window");
  std::vector<std::byte> all_in(static_cast<std::size_t>(total));
  MPI_Alltoallv(all_out.data(), send.data(), send_at.data(), MPI_BYTE, all_in.data(), recv.data(), recv_at.data(), MPI_BYTE,
                MPI_COMM_WORLD);
  in.resize(n);
  for (std::size_t r = 0; r < n; ++r)
    in[r].assign(all_in.begin() + recv_at[r], all_in.begin() + recv_at[r] + recv[r]);
}

RankExchange::Agreement MpiWorld::agree(Time next, Time wake, bool failed) {
  if (size_ == 1) return {next, wake, failed};
  // One reduction: the earliest times, and (as 0) whether any rank failed.
  std::int64_t mine[3] = {next.count_ps(), wake.count_ps(), failed ? 0 : 1}, all[3] = {0, 0, 0};
  MPI_Allreduce(mine, all, 3, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  return {Time::ps(all[0]), Time::ps(all[1]), all[2] == 0};
}

#else

MpiWorld::MpiWorld() {
  if (const int n = launched_ranks(); n > 1)
    throw std::invalid_argument("started by mpirun with " + std::to_string(n) +
                                " ranks, but this rdmasim was built without MPI (cmake -DRDMASIM_MPI=ON with Open MPI's "
                                "libopenmpi-dev): run `sweep --shard I/N` in each process and `rdmasim merge` the parts");
}

MpiWorld::~MpiWorld() = default;

std::vector<std::string> MpiWorld::gather(const std::string& mine) const { return {mine}; }

// A world of one: ParallelRun never exchanges with it.
void MpiWorld::exchange(const std::vector<std::vector<std::byte>>& out, std::vector<std::vector<std::byte>>& in) { in = out; }

RankExchange::Agreement MpiWorld::agree(Time next, Time wake, bool failed) { return {next, wake, failed}; }

#endif

}  // namespace rdmasim::cli
