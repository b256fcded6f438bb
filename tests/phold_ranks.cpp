// phold_ranks: the PHOLD-like model of tests/phold_model.hpp on ParallelRun, on threads or,
// under mpirun, over MPI ranks (apps/rdmasim/mpi_world.hpp); rank 0 prints every LP's event
// count and hash in LP order, then the windows. tests/mpi_parallel_test.sh checks that the
// output is the same for any number of threads and ranks.
// Usage: phold_ranks [--threads N] [--lps 12] [--tokens 8] [--until-us 20]
#include <cstdio>
#include <exception>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include "mpi_world.hpp"
#include "phold_model.hpp"

int main(int argc, char** argv) {
  int threads = 1, lps = 12, tokens = 8, until_us = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view a = argv[i];
    int& v = a == "--threads" ? threads : a == "--lps" ? lps : a == "--tokens" ? tokens : until_us;
    if (a != "--threads" && a != "--lps" && a != "--tokens" && a != "--until-us") {
      std::fprintf(stderr, "phold_ranks: unknown option %s\n", argv[i]);
      return 2;
    }
    v = std::stoi(argv[i + 1]);
  }
  try {
    rdmasim::cli::MpiWorld world;
    rdmasim::phold::Model m(lps, tokens);
    const auto results = m.run(threads, rdmasim::Time::us(until_us), &world);
    std::ostringstream mine;
    for (int lp = 0; lp < lps; ++lp)
      if (m.engine().runs_here(lp))
        mine << lp << ' ' << results[static_cast<std::size_t>(lp)].events << ' ' << results[static_cast<std::size_t>(lp)].hash << '\n';
    const auto all = world.gather(mine.str());
    if (world.rank() != 0) return 0;
    std::map<int, std::string> lines;  // by LP
    for (const std::string& part : all) {
      std::istringstream in(part);
      for (std::string line; std::getline(in, line);) lines[std::stoi(line)] = line;
    }
    for (const auto& [lp, line] : lines) std::printf("lp %s\n", line.c_str());
    std::printf("windows %llu\n", static_cast<unsigned long long>(m.engine().windows()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "phold_ranks: %s\n", e.what());
    return 2;
  }
  return 0;
}
