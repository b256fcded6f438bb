// Randomized WRITE/READ/atomic workloads from several QPs on several hosts end
// with memory equal to a reference model of the same operations (fixed seed).
//
// Each client QP owns a region of the server's table (WRITE/READ/CAS there: RC executes one
// QP's requests in posting order, so the model applies them in that order) and all of them
// fetch-and-add shared counters (commutative: the final value is the sum, and the fetched
// values must be exactly the prefix sums of some order of the adds).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "../examples/verbs_common.hpp"

namespace rdmasim::verbs {
namespace {
using namespace example;

constexpr int kClients = 6;          // QPs, on hosts 1..3 (two per host)
constexpr std::size_t kRegion = 512;  // bytes of the server's table per client
constexpr int kCounters = 4;
constexpr int kOps = 300;

struct Op {
  ibv_wr_opcode opcode;
  std::size_t off = 0, len = 0;      // in the client's region
  std::uint64_t a = 0, b = 0;        // atomic operands
  int counter = -1;                  // FAA target
  std::vector<std::uint8_t> bytes;   // WRITE data
  std::vector<std::uint8_t> expect;  // READ / CAS: what the model says comes back
};

TEST(VerbsIntegrity, RandomWorkloadsEndEqualToTheReferenceModel) {
  ClusterConfig cc;
  cc.hosts = 4;  // on one switch
  Cluster c(cc);
  Endpoint server_eps[kClients], client_eps[kClients];
  std::vector<std::uint8_t> table(kClients * kRegion, 0);
  alignas(8) std::uint64_t counters[kCounters] = {};
  ibv_pd* spd = ibv_alloc_pd(c.open_device(0));
  ibv_mr* tmr = ibv_reg_mr(spd, table.data(), table.size(),
                           IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
                               IBV_ACCESS_REMOTE_ATOMIC);
  ibv_mr* cmr = ibv_reg_mr(spd, counters, sizeof counters,
                           IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
  std::vector<std::vector<std::uint8_t>> local(kClients, std::vector<std::uint8_t>(kOps * kRegion));
  std::vector<ibv_mr*> lmr(kClients);
  QpOptions o;
  o.depth = 512;
  for (int i = 0; i < kClients; ++i) {
    server_eps[i] = make_endpoint(c.open_device(0), spd, o);
    client_eps[i] = make_endpoint(c.open_device(1 + i / 2), nullptr, o);
    connect_pair(server_eps[i], client_eps[i], o);
    lmr[i] = ibv_reg_mr(client_eps[i].pd, local[i].data(), local[i].size(), IBV_ACCESS_LOCAL_WRITE);
  }

  // The workload and its reference model.
  std::mt19937_64 rng(20240601);
  std::vector<std::uint8_t> model = table;
  std::uint64_t model_counters[kCounters] = {};
  std::vector<std::vector<Op>> ops(kClients);
  for (int q = 0; q < kClients; ++q) {
    std::uint8_t* region = model.data() + q * kRegion;
    for (int k = 0; k < kOps; ++k) {
      Op op;
      const int kind = static_cast<int>(rng() % 4);
      if (kind == 0) {
        op.opcode = IBV_WR_RDMA_WRITE;
        op.len = 1 + rng() % kRegion;
        op.off = rng() % (kRegion - op.len + 1);
        for (std::size_t i = 0; i < op.len; ++i) op.bytes.push_back(static_cast<std::uint8_t>(rng()));
        std::copy(op.bytes.begin(), op.bytes.end(), region + op.off);
      } else if (kind == 1) {
        op.opcode = IBV_WR_RDMA_READ;
        op.len = 1 + rng() % kRegion;
        op.off = rng() % (kRegion - op.len + 1);
        op.expect.assign(region + op.off, region + op.off + op.len);
      } else if (kind == 2) {
        op.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
        op.off = 8 * (rng() % (kRegion / 8));
        op.len = 8;
        std::uint64_t cur;
        std::memcpy(&cur, region + op.off, 8);
        op.a = (rng() % 2) ? cur : cur + 1;  // half of them must fail
        op.b = rng();
        op.expect.resize(8);
        std::memcpy(op.expect.data(), &cur, 8);
        if (cur == op.a) std::memcpy(region + op.off, &op.b, 8);
      } else {
        op.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
        op.counter = static_cast<int>(rng() % kCounters);
        op.a = 1 + rng() % 1000;
        op.len = 8;
        model_counters[op.counter] += op.a;
      }
      ops[static_cast<std::size_t>(q)].push_back(std::move(op));
    }
  }

  // Every client posts its operations in bursts, polling between them.
  std::vector<std::vector<std::uint64_t>> fetched(kCounters);
  auto client = [&](int q) -> Task {
    Endpoint& e = client_eps[q];
    std::vector<Op>& list = ops[static_cast<std::size_t>(q)];
    int done = 0;
    for (int k = 0; k < kOps; ++k) {
      Op& op = list[static_cast<std::size_t>(k)];
      std::uint8_t* mine = local[q].data() + k * kRegion;
      if (!op.bytes.empty()) std::copy(op.bytes.begin(), op.bytes.end(), mine);
      ibv_sge sge{addr(mine), static_cast<std::uint32_t>(op.len), lmr[q]->lkey};
      ibv_send_wr wr;
      wr.wr_id = static_cast<std::uint64_t>(k);
      wr.sg_list = &sge;
      wr.num_sge = 1;
      wr.opcode = op.opcode;
      wr.send_flags = IBV_SEND_SIGNALED;
      const std::uint64_t raddr = op.counter >= 0 ? addr(&counters[op.counter]) : addr(table.data() + q * kRegion + op.off);
      wr.wr.rdma.remote_addr = wr.wr.atomic.remote_addr = raddr;
      wr.wr.rdma.rkey = wr.wr.atomic.rkey = op.counter >= 0 ? cmr->rkey : tmr->rkey;
      wr.wr.atomic.compare_add = op.a;
      wr.wr.atomic.swap = op.b;
      ibv_send_wr* bad;
      EXPECT_EQ(ibv_post_send(e.qp, &wr, &bad), 0);
      if (k % 16 == 15 || k == kOps - 1) {
        while (done <= k) {
          ibv_wc wc[8];
          const int n = co_await poll(e.send_cq, 8, wc);
          for (int i = 0; i < n; ++i) {
            EXPECT_EQ(wc[i].status, IBV_WC_SUCCESS);
            EXPECT_EQ(wc[i].wr_id, static_cast<std::uint64_t>(done));  // in posting order
            ++done;
          }
        }
      }
    }
  };
  for (int q = 0; q < kClients; ++q) c.spawn(q / 2 + 1, client(q));
  ASSERT_TRUE(c.run()) << c.waiting();

  EXPECT_EQ(table, model);
  for (int k = 0; k < kCounters; ++k) EXPECT_EQ(counters[k], model_counters[k]);
  for (int q = 0; q < kClients; ++q)
    for (int k = 0; k < kOps; ++k) {
      const Op& op = ops[static_cast<std::size_t>(q)][static_cast<std::size_t>(k)];
      const std::uint8_t* got = local[q].data() + k * kRegion;
      if (!op.expect.empty()) {
        EXPECT_TRUE(std::equal(op.expect.begin(), op.expect.end(), got)) << q << " " << k;
      }
      if (op.counter >= 0) {
        std::uint64_t v;
        std::memcpy(&v, got, 8);
        fetched[static_cast<std::size_t>(op.counter)].push_back(v);
      }
    }
  // The fetched values of each counter are the prefix sums of one serial order of its adds:
  // all distinct, the first 0, each next = previous + the add that returned the previous.
  std::map<std::uint64_t, std::uint64_t> add_of;  // fetched value -> its add
  for (int q = 0; q < kClients; ++q)
    for (int k = 0; k < kOps; ++k) {
      const Op& op = ops[static_cast<std::size_t>(q)][static_cast<std::size_t>(k)];
      if (op.counter < 0) continue;
      std::uint64_t v;
      std::memcpy(&v, local[q].data() + k * kRegion, 8);
      add_of[(static_cast<std::uint64_t>(op.counter) << 48) | v] = op.a;
    }
  for (int k = 0; k < kCounters; ++k) {
    auto& f = fetched[static_cast<std::size_t>(k)];
    std::sort(f.begin(), f.end());
    ASSERT_FALSE(f.empty());
    EXPECT_EQ(f[0], 0u);
    for (std::size_t i = 1; i < f.size(); ++i)
      EXPECT_EQ(f[i], f[i - 1] + add_of[(static_cast<std::uint64_t>(k) << 48) | f[i - 1]]);
  }
}

}  // namespace
}  // namespace rdmasim::verbs
