// Collective schedules: every registered algorithm of every operation, replayed on sets of
// contributing ranks with the simulator's rules (sends in step order, a send waiting for the
// receive of step k - after (none for 0), the i-th send from a to b meeting the i-th
// receive at b from a), ends with every chunk holding what chunk_after says, sums no rank twice,
// and sends bus_factor(op, n) x S bytes per rank. Also: the sizes, the steps per algorithm, and
// an algorithm registered from outside the library running from a scenario.
#include "rdmasim/collective.hpp"
#include "rdmasim/scenario.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>

using namespace rdmasim;

namespace {

using Sets = std::vector<std::vector<std::set<int>>>;  // [rank][chunk]
std::size_t at(int i) { return static_cast<std::size_t>(i); }

std::set<int> as_set(ChunkState st, int n) {
  std::set<int> s;
  if (st.data == ChunkData::rank) s.insert(st.rank);
  if (st.data == ChunkData::all)
    for (int r = 0; r < n; ++r) s.insert(r);
  return s;
}

struct Replay {
  Sets have;
  std::vector<int> chunks_sent;  // per rank
};

// Replays the schedule until nothing moves; fails the test on a deadlock or a double sum.
Replay replay(CollOp op, const CollSchedule& s, int n, int chunks) {
  Replay out;
  out.have.assign(at(n), std::vector<std::set<int>>(at(chunks)));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < chunks; ++c) out.have[at(r)][at(c)] = as_set(chunk_before(op, n, r, c), n);
  out.chunks_sent.assign(at(n), 0);
  std::vector<std::size_t> next(at(n), 0), next_recv(at(n), 0);
  std::vector<std::vector<char>> got(at(n));
  for (int r = 0; r < n; ++r) got[at(r)].assign(s[at(r)].size(), 0);
  std::map<std::pair<int, int>, std::deque<std::vector<std::set<int>>>> wire;  // (from, to) -> payloads in order
  for (bool moved = true; moved;) {
    moved = false;
    for (int r = 0; r < n; ++r) {
      const auto& steps = s[at(r)];
      for (std::size_t& k = next[at(r)]; k < steps.size(); ++k) {
        const CollStep& st = steps[k];
        const int w = static_cast<int>(k) - st.after;
        if (w >= 0 && w < static_cast<int>(k) && steps[at(w)].recv_from >= 0 && !got[at(r)][at(w)]) break;
        if (st.send_to >= 0) {
          std::vector<std::set<int>> payload(out.have[at(r)].begin() + st.send_lo, out.have[at(r)].begin() + st.send_hi);
          wire[{r, st.send_to}].push_back(std::move(payload));
          out.chunks_sent[at(r)] += st.send_hi - st.send_lo;
        }
        moved = true;
      }
    }
    for (int r = 0; r < n; ++r) {  // receives in step order, each when its sender's data is on the wire
      const auto& steps = s[at(r)];
      for (std::size_t& k = next_recv[at(r)]; k < steps.size(); ++k) {
        const CollStep& st = steps[k];
        if (st.recv_from < 0) continue;
        auto& q = wire[{st.recv_from, r}];
        if (q.empty()) break;
        const std::vector<std::set<int>> payload = std::move(q.front());
        q.pop_front();
        EXPECT_EQ(static_cast<int>(payload.size()), st.recv_hi - st.recv_lo) << "rank " << r << " step " << k;
        for (int c = st.recv_lo; c < st.recv_hi && c - st.recv_lo < static_cast<int>(payload.size()); ++c) {
          auto& dst = out.have[at(r)][at(c)];
          if (st.reduce) {
            for (int x : payload[at(c - st.recv_lo)]) EXPECT_TRUE(dst.insert(x).second) << "rank " << x << " summed twice";
          } else {
            dst = payload[at(c - st.recv_lo)];
          }
        }
        got[at(r)][k] = 1;
        moved = true;
      }
    }
  }
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(next[at(r)], s[at(r)].size()) << "rank " << r << " never sent every step";
    EXPECT_EQ(next_recv[at(r)], s[at(r)].size()) << "rank " << r << " never received every step";
  }
  for (const auto& [pair, q] : wire) EXPECT_TRUE(q.empty()) << pair.first << " -> " << pair.second << ": nobody received";
  return out;
}

void check(const CollectiveSpec& spec, int n, int pieces = 1, int local = 1) {
  SCOPED_TRACE(std::string(coll_op_info(spec.op).name) + " " + spec.name + " n=" + std::to_string(n) +
               " pieces=" + std::to_string(pieces) + " local=" + std::to_string(local));
  // A size that cuts into whole chunks: every chunk of every operation the same size.
  const CollSizes z = coll_sizes(spec.op, n, std::int64_t{4} * n * pieces * 1024, pieces);
  const int chunks = static_cast<int>(z.chunk_elems.size());
  const CollSchedule s = collective_schedule(spec.op, spec.name, n, chunks, local);
  ASSERT_EQ(static_cast<int>(s.size()), n);
  const Replay out = replay(spec.op, s, n, chunks);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < chunks; ++c) {
      const ChunkState want = chunk_after(spec.op, n, r, c);
      if (want.data != ChunkData::any) {
        EXPECT_EQ(out.have[at(r)][at(c)], as_set(want, n)) << "rank " << r << " chunk " << c;
      }
    }
  // Bytes per rank: nccl-tests' bus factor x S (broadcast's last rank forwards nothing); a
  // tree's ranks send it on average.
  double sum = 0;
  for (int r = 0; r < n; ++r) {
    const double want = spec.op == CollOp::broadcast && r == n - 1 ? 0 : bus_factor(spec.op, n) * static_cast<double>(z.bytes);
    const double sent = static_cast<double>(out.chunks_sent[at(r)]) * static_cast<double>(z.chunk_elems[0]) * 4;
    sum += sent;
    if (spec.balanced) {
      EXPECT_DOUBLE_EQ(sent, want) << "rank " << r;
    }
  }
  if (!spec.balanced) {
    EXPECT_DOUBLE_EQ(sum, n * bus_factor(spec.op, n) * static_cast<double>(z.bytes));
  }
}

}  // namespace

TEST(CollectiveSchedule, EveryRegisteredAlgorithmEndsRightAndSendsTheBusFactor) {
  int checked = 0;
  for (const CollectiveSpec* spec : collectives())
    for (int n : {2, 3, 5, 8, 12, 16}) {
      try {
        collective_schedule(spec->op, spec->name, n, n);
      } catch (const std::invalid_argument&) {
        EXPECT_NE(n & (n - 1), 0) << spec->name << " refused a power of two";
        continue;
      }
      check(*spec, n);
      if (spec->pieces) check(*spec, n, 3);  // a pipeline of three pieces
      for (int local : {2, 4})                // servers of `local` GPUs
        if (spec->schedule_local && n % local == 0 && n > local) check(*spec, n, 1, local);
      ++checked;
    }
  EXPECT_GE(checked, 40);
}

TEST(CollectiveSchedule, StepsPerAlgorithm) {
  for (int n : {2, 4, 8, 16}) {
    int log = 0;
    while ((1 << log) < n) ++log;
    const auto steps = [n](CollOp op, const char* algo) { return collective_schedule(op, algo, n, n)[0].size(); };
    EXPECT_EQ(steps(CollOp::all_reduce, "ring"), at(2 * (n - 1)));
    EXPECT_EQ(steps(CollOp::all_reduce, "halving-doubling"), at(2 * log));
    EXPECT_EQ(steps(CollOp::all_gather, "ring"), at(n - 1));
    EXPECT_EQ(steps(CollOp::all_gather, "recursive-doubling"), at(log));
    EXPECT_EQ(steps(CollOp::reduce_scatter, "recursive-halving"), at(log));
    EXPECT_EQ(steps(CollOp::alltoall, "direct"), at(n - 1));
    EXPECT_EQ(steps(CollOp::sendrecv, "ring"), 1u);
  }
  EXPECT_EQ(collective_schedule(CollOp::broadcast, "ring", 4, 6)[0].size(), 7u);  // pieces + 1
  // Hierarchical on 4 servers of 8: 7 steps inside, 2 x 3 across, 7 inside; whole servers only.
  EXPECT_EQ(collective_schedule(CollOp::all_reduce, "hierarchical", 32, 32, 8)[0].size(), 7u + 6u + 7u);
  EXPECT_EQ(collective_schedule(CollOp::all_reduce, "hierarchical", 32, 32, 8)[0][7].send_to, 8);  // rail 0: server 1's GPU 0
  EXPECT_THROW(collective_schedule(CollOp::all_reduce, "hierarchical", 12, 12, 8), std::invalid_argument);
  EXPECT_THROW(collective_schedule(CollOp::all_reduce, "halving-doubling", 6, 6), std::invalid_argument);
  EXPECT_THROW(collective_schedule(CollOp::all_reduce, "ring", 1, 1), std::invalid_argument);
  // Direct alltoall posts every send at once; pairwise waits for each exchange.
  const CollSchedule direct = collective_schedule(CollOp::alltoall, "direct", 4, 8);
  const CollSchedule pairwise = collective_schedule(CollOp::alltoall, "pairwise", 4, 8);
  for (const CollStep& st : direct[1]) EXPECT_EQ(st.after, 0);
  for (const CollStep& st : pairwise[1]) EXPECT_EQ(st.after, 1);
}

TEST(CollectiveSchedule, SizesAndCountsAsNcclTestsPrintThem) {
  // all_reduce: S = count x 4; all_gather / reduce_scatter / alltoall: S = per-rank count x n x 4,
  // rounded down; broadcast: pieces of 512 KiB; sendrecv: one send buffer and one receive buffer.
  CollSizes z = coll_sizes(CollOp::all_reduce, 3, 1000);
  EXPECT_EQ(z.bytes, 1000);
  EXPECT_EQ(z.count, 250);
  EXPECT_EQ(z.chunk_elems, (std::vector<std::int64_t>{84, 83, 83}));
  z = coll_sizes(CollOp::all_gather, 3, 1000);
  EXPECT_EQ(z.bytes, 996);
  EXPECT_EQ(z.count, 83);
  EXPECT_EQ(z.chunk_elems.size(), 3u);
  z = coll_sizes(CollOp::alltoall, 4, 1 << 20);
  EXPECT_EQ(z.count, (1 << 20) / 16);
  EXPECT_EQ(z.chunk_elems.size(), 8u);
  z = coll_sizes(CollOp::broadcast, 8, 4 << 20);
  EXPECT_EQ(z.chunk_elems.size(), 8u);  // 4 MiB / 512 KiB
  EXPECT_EQ(coll_sizes(CollOp::broadcast, 8, 1 << 30).chunk_elems.size(), 64u);
  EXPECT_EQ(coll_sizes(CollOp::broadcast, 8, 1000).chunk_elems.size(), 1u);
  z = coll_sizes(CollOp::sendrecv, 8, 4096);
  EXPECT_EQ(z.chunk_elems, (std::vector<std::int64_t>{1024, 1024}));
  EXPECT_DOUBLE_EQ(bus_factor(CollOp::all_reduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(bus_factor(CollOp::all_gather, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_factor(CollOp::reduce_scatter, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_factor(CollOp::alltoall, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_factor(CollOp::broadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(CollOp::sendrecv, 8), 1.0);
  EXPECT_EQ(coll_op("alltoall"), CollOp::alltoall);
  try {
    coll_op("all-reduce");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown collective \"all-reduce\" (valid: all_reduce, all_gather, reduce_scatter, alltoall, "
                           "broadcast, sendrecv)");
  }
}

// An algorithm registered from outside the library (the ring with its ranks relabelled
// r -> n-1-r: it runs the other way round) passes the same checks and runs from a scenario.
TEST(CollectiveSchedule, ARegisteredAlgorithmRunsFromAScenario) {
  const std::vector<const CollectiveSpec*> registered = collectives(CollOp::all_reduce);
  if (std::none_of(registered.begin(), registered.end(), [](const CollectiveSpec* c) { return c->name == "reverse-ring"; }))
    register_collective({"reverse-ring", "the ring, the other way round", "a test", CollOp::all_reduce, [](int n, int chunks) {
                           const CollSchedule ring = collective(CollOp::all_reduce, "ring").schedule(n, chunks);
                           CollSchedule s(at(n));
                           for (int r = 0; r < n; ++r) {
                             s[at(r)] = ring[at(n - 1 - r)];
                             for (CollStep& st : s[at(r)]) {
                               st.send_to = n - 1 - st.send_to;
                               st.recv_from = n - 1 - st.recv_from;
                             }
                           }
                           return s;
                         }});
  for (int n : {2, 3, 8}) check(collective(CollOp::all_reduce, "reverse-ring"), n);
  EXPECT_EQ(collective_schedule(CollOp::all_reduce, "reverse-ring", 4, 4)[0][0].send_to, 3);  // r sends to r - 1
  Scenario s = make_scenario(Command::allreduce);
  for (const char* a : {"workload.algo=reverse-ring", "network.hosts=4", "workload.min_bytes=1M", "workload.max_bytes=1M",
                        "workload.iters=2"})
    apply_override(s, a);
  const RunResult r = run(s);
  EXPECT_EQ(r.failure, "");
  EXPECT_EQ(r.metric("wrong"), 0);
  EXPECT_EQ(r.metric("ranks"), 4);
  try {
    collective(CollOp::all_reduce, "trie");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown all_reduce algorithm \"trie\" (valid: ring, halving-doubling, tree, hierarchical, nvls", 0), 0u)
        << e.what();
  }
  EXPECT_THROW(register_collective({"direct", "taken", "", CollOp::alltoall, nullptr}), std::invalid_argument);
}
