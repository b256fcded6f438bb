// READ of a remote table: the server registers a table of 1024 records for remote read and
// does nothing else; the client RDMA-READs records at random, a few at once, and checks each
// against what the server wrote. The server's CPU stays at zero: READs never wake it.
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "verbs_common.hpp"

using namespace rdmasim;
using namespace rdmasim::verbs;
using namespace rdmasim::verbs::example;

namespace {
constexpr int kRecords = 1024, kReads = 400, kBatch = 8;
struct Record {
  std::uint64_t key;
  std::uint64_t value[7];
};
Record make_record(int i) {
  Record r{static_cast<std::uint64_t>(i), {}};
  for (int k = 0; k < 7; ++k) r.value[k] = static_cast<std::uint64_t>(i) * 1'000'003u + static_cast<std::uint64_t>(k);
  return r;
}
bool g_ok = true;

Task reader(Endpoint& e, std::vector<Record>& local, ibv_mr* lmr, const Record* table, std::uint32_t rkey) {
  std::mt19937 rng(42);
  std::vector<int> want(kBatch);
  for (int done = 0; done < kReads; done += kBatch) {
    for (int b = 0; b < kBatch; ++b) {
      want[static_cast<std::size_t>(b)] = static_cast<int>(rng() % kRecords);
      post1(e.qp, IBV_WR_RDMA_READ, &local[static_cast<std::size_t>(b)], sizeof(Record), lmr->lkey,
            addr(&table[want[static_cast<std::size_t>(b)]]), rkey, IBV_SEND_SIGNALED, static_cast<std::uint64_t>(b));
    }
    for (int got = 0; got < kBatch;) {
      ibv_wc wc[kBatch];
      const int n = co_await poll(e.send_cq, kBatch, wc);
      for (int i = 0; i < n; ++i) {
        if (wc[i].status != IBV_WC_SUCCESS || wc[i].byte_len != sizeof(Record)) g_ok = false;
        const Record expect = make_record(want[wc[i].wr_id]);
        const Record& r = local[wc[i].wr_id];
        if (r.key != expect.key || std::memcmp(r.value, expect.value, sizeof r.value) != 0) g_ok = false;
      }
      got += n;
    }
  }
}
}  // namespace

int main() {
  Cluster cluster{ClusterConfig{}};
  Endpoint c = make_endpoint(cluster.open_device(0)), s = make_endpoint(cluster.open_device(1));
  connect_pair(c, s);
  std::vector<Record> table(kRecords), local(kBatch);
  for (int i = 0; i < kRecords; ++i) table[static_cast<std::size_t>(i)] = make_record(i);
  ibv_mr* tmr = ibv_reg_mr(s.pd, table.data(), table.size() * sizeof(Record), IBV_ACCESS_REMOTE_READ);
  ibv_mr* lmr = ibv_reg_mr(c.pd, local.data(), local.size() * sizeof(Record), IBV_ACCESS_LOCAL_WRITE);
  if (!tmr || !lmr) die("reg_mr failed");
  cluster.spawn(0, reader(c, local, lmr, table.data(), tmr->rkey));
  if (!cluster.run()) die("the client did not finish");
  std::printf("read %d records of %zu B in %.2f usec (%.3f usec each); server CPU %.3f usec\n", kReads,
              sizeof(Record), cluster.now().to_us(), cluster.now().to_us() / kReads, cluster.cpu(1).total().to_us());
  if (cluster.cpu(1).total() != Time::zero()) die("the server's CPU was used");
  if (!g_ok) die("data mismatch");
  std::printf("data ok\n");
  return 0;
}
