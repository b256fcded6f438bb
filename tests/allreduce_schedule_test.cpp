// AllReduceSchedule: senders and receivers agree step by step, every rank ends with every
// chunk summed over all ranks, and each rank sends 2(n-1) chunks (ring and halving-doubling).
#include "rdmasim/collective.hpp"
#include "rdmasim/scenario.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

using namespace rdmasim;

namespace {

// Replays the schedule step by step on sets of contributing ranks.
void check_schedule(const std::string& algo, int n) {
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
    check_schedule("ring", n);
    EXPECT_EQ(allreduce_schedule("ring", n)[0].size(), static_cast<std::size_t>(2 * (n - 1)));
  }
}

TEST(AllReduceSchedule, HalvingDoublingIsCorrectAndHas2Log2nSteps) {
  for (int n : {2, 4, 8, 16}) {
    SCOPED_TRACE(n);
    check_schedule("halving-doubling", n);
    int log = 0;
    while ((1 << log) < n) ++log;
    EXPECT_EQ(allreduce_schedule("halving-doubling", n)[0].size(), static_cast<std::size_t>(2 * log));
  }
  EXPECT_THROW(allreduce_schedule("halving-doubling", 6), std::invalid_argument);
  EXPECT_THROW(allreduce_schedule("ring", 1), std::invalid_argument);
}

// An algorithm registered from outside the library (the ring with its ranks relabelled
// r -> n-1-r: it runs the other way round) passes the same checks and runs from a scenario.
TEST(AllReduceSchedule, ARegisteredAlgorithmRunsFromAScenario) {
  const std::vector<const CollectiveSpec*> registered = collectives();
  if (std::none_of(registered.begin(), registered.end(), [](const CollectiveSpec* c) { return c->name == "reverse-ring"; }))
    register_collective({"reverse-ring", "the ring, the other way round", "a test", [](int n) {
                           const CollSchedule ring = collective("ring").schedule(n);
                           CollSchedule s(static_cast<std::size_t>(n));
                           for (int r = 0; r < n; ++r) {
                             s[static_cast<std::size_t>(r)] = ring[static_cast<std::size_t>(n - 1 - r)];
                             for (CollStep& st : s[static_cast<std::size_t>(r)]) {
                               st.send_to = n - 1 - st.send_to;
                               st.recv_from = n - 1 - st.recv_from;
                             }
                           }
                           return s;
                         }});
  for (int n : {2, 3, 8}) check_schedule("reverse-ring", n);
  EXPECT_EQ(allreduce_schedule("reverse-ring", 4)[0][0].send_to, 3);  // rank r sends to r - 1 (the ring: r + 1)
  Scenario s = make_scenario(Command::allreduce);
  for (const char* a : {"workload.algo=reverse-ring", "network.hosts=4", "workload.min_bytes=1M", "workload.max_bytes=1M",
                        "workload.iters=2"})
    apply_override(s, a);
  const RunResult r = run(s);
  EXPECT_EQ(r.failure, "");
  EXPECT_EQ(r.metric("wrong"), 0);
  EXPECT_EQ(r.metric("ranks"), 4);
  try {
    collective("tree");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown collective \"tree\" (valid: ring, halving-doubling", 0), 0u) << e.what();
  }
}
