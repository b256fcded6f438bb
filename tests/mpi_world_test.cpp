// MpiWorld outside mpirun: a world of one that never initializes MPI, whose gather hands back
// its own share; launched_ranks reads the rank count launchers announce.
#include "mpi_world.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

using rdmasim::cli::launched_rank;
using rdmasim::cli::launched_ranks;
using rdmasim::cli::MpiWorld;

TEST(MpiWorld, OutsideMpirunIsOneRank) {
  ASSERT_EQ(std::getenv("OMPI_COMM_WORLD_SIZE"), nullptr);
  EXPECT_EQ(launched_ranks(), 1);
  const MpiWorld w;
  EXPECT_EQ(w.rank(), 0);
  EXPECT_EQ(w.size(), 1);
  EXPECT_EQ(w.gather("row"), std::vector<std::string>{"row"});
}

TEST(MpiWorld, ReadsTheRanksALauncherAnnounces) {
  ::setenv("PMI_SIZE", "3", 1);
  EXPECT_EQ(launched_ranks(), 3);
  ::setenv("OMPI_COMM_WORLD_SIZE", "4", 1);  // Open MPI's own first
  EXPECT_EQ(launched_ranks(), 4);
  ::setenv("OMPI_COMM_WORLD_SIZE", "x", 1);  // not a count: the next launcher's
  EXPECT_EQ(launched_ranks(), 3);
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  ::unsetenv("PMI_SIZE");
  EXPECT_EQ(launched_ranks(), 1);
}

TEST(MpiWorld, ReadsTheRankALauncherAnnounces) {  // rank 0 alone reports a bad command line
  EXPECT_EQ(launched_rank(), 0);
  ::setenv("PMI_RANK", "2", 1);
  EXPECT_EQ(launched_rank(), 2);
  ::setenv("OMPI_COMM_WORLD_RANK", "5", 1);  // Open MPI's own first
  EXPECT_EQ(launched_rank(), 5);
  ::setenv("OMPI_COMM_WORLD_RANK", "5x", 1);  // not a rank: the next launcher's
  EXPECT_EQ(launched_rank(), 2);
  ::unsetenv("OMPI_COMM_WORLD_RANK");
  ::unsetenv("PMI_RANK");
  EXPECT_EQ(launched_rank(), 0);
}
