// AllReduceSchedule: senders and receivers agree step by step, every rank ends with every
// chunk summed over all ranks, and each rank sends 2(n-1) chunks (ring and halving-doubling).
#include "workload/allreduce_schedule.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

using namespace rdmasim;

namespace {

// Replays the schedule step by step on sets of contributing ranks.
void check_schedule(AllReduceAlgo algo, int n) {
  const auto s = allreduce_schedule(algo, n);
  ASSERT_EQ(static_cast<int>(s.size()), n);
  const std::size_t steps = s[0].size();
  std::vector<std::vector<std::set<int>>> have(static_cast<std::size_t>(n), std::vector<std::set<int>>(static_cast<std::size_t>(n)));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) have[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] = {r};
  std::vector<int> sent(static_cast<std::size_t>(n), 0);
  for (std::size_t k = 0; k < steps; ++k) {
    auto next = have;
    for (int r = 0; r < n; ++r) {
      const CollStep& st = s[static_cast<std::size_t>(r)][k];
      const CollStep& peer = s[static_cast<std::size_t>(st.send_to)][k];
      ASSERT_EQ(peer.recv_from, r);
      ASSERT_EQ(peer.recv_lo, st.send_lo);
      ASSERT_EQ(peer.recv_hi, st.send_hi);
      sent[static_cast<std::size_t>(r)] += st.send_hi - st.send_lo;
      for (int c = st.send_lo; c < st.send_hi; ++c) {
        auto& dst = next[static_cast<std::size_t>(st.send_to)][static_cast<std::size_t>(c)];
        const auto& src = have[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
        if (peer.reduce) {
          for (int x : src) ASSERT_TRUE(dst.insert(x).second) << "rank " << x << " summed twice";
        } else {
          dst = src;
        }
      }
    }
    have = next;
  }
  std::set<int> all;
  for (int r = 0; r < n; ++r) all.insert(r);
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(sent[static_cast<std::size_t>(r)], 2 * (n - 1));
    for (int c = 0; c < n; ++c) EXPECT_EQ(have[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)], all);
  }
}

}  // namespace

TEST(AllReduceSchedule, RingIsCorrectAndHas2nMinus2Steps) {
  for (int n : {2, 3, 5, 8, 12}) {
    SCOPED_TRACE(n);
    check_schedule(AllReduceAlgo::ring, n);
    EXPECT_EQ(allreduce_schedule(AllReduceAlgo::ring, n)[0].size(), static_cast<std::size_t>(2 * (n - 1)));
  }
}

TEST(AllReduceSchedule, HalvingDoublingIsCorrectAndHas2Log2nSteps) {
  for (int n : {2, 4, 8, 16}) {
    SCOPED_TRACE(n);
    check_schedule(AllReduceAlgo::halving_doubling, n);
    int log = 0;
    while ((1 << log) < n) ++log;
    EXPECT_EQ(allreduce_schedule(AllReduceAlgo::halving_doubling, n)[0].size(), static_cast<std::size_t>(2 * log));
  }
  EXPECT_THROW(allreduce_schedule(AllReduceAlgo::halving_doubling, 6), std::invalid_argument);
  EXPECT_THROW(allreduce_schedule(AllReduceAlgo::ring, 1), std::invalid_argument);
}
