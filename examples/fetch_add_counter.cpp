// A fetch-and-add counter shared by several clients: one server host holds an 8-byte counter
// registered for remote atomics; four client hosts (on one switch) each add 1 to it 250 times
// with ATOMIC_FETCH_AND_ADD. The counter ends at 1000 and the values fetched are exactly
// 0..999, each once: the NIC executes the atomics one at a time.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "verbs_common.hpp"

using namespace rdmasim;
using namespace rdmasim::verbs;
using namespace rdmasim::verbs::example;

namespace {
constexpr int kClients = 4, kAdds = 250;

Task client(Endpoint& e, std::uint64_t* result, ibv_mr* rmr, std::uint64_t counter, std::uint32_t rkey,
            std::vector<std::uint64_t>* fetched) {
  for (int i = 0; i < kAdds; ++i) {
    ibv_sge sge{addr(result), 8, rmr->lkey};
    ibv_send_wr wr;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.atomic.remote_addr = counter;
    wr.wr.atomic.rkey = rkey;
    wr.wr.atomic.compare_add = 1;
    ibv_send_wr* bad;
    if (ibv_post_send(e.qp, &wr, &bad)) die("post_send failed");
    ibv_wc wc;
    if (co_await poll(e.send_cq, 1, &wc) != 1 || wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_FETCH_ADD)
      die("fetch-and-add failed");
    fetched->push_back(*result);
  }
}
}  // namespace

int main() {
  ClusterConfig cc;
  cc.hosts = 1 + kClients;
  Cluster cluster(cc);
  alignas(8) std::uint64_t counter = 0;
  ibv_pd* spd = ibv_alloc_pd(cluster.open_device(0));
  ibv_mr* cmr = ibv_reg_mr(spd, &counter, 8, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
  std::vector<Endpoint> server(kClients), clients(kClients);
  std::vector<std::uint64_t> results(kClients);
  std::vector<std::vector<std::uint64_t>> fetched(kClients);
  for (int i = 0; i < kClients; ++i) {
    server[static_cast<std::size_t>(i)] = make_endpoint(cluster.open_device(0), spd);
    clients[static_cast<std::size_t>(i)] = make_endpoint(cluster.open_device(1 + i));
    connect_pair(server[static_cast<std::size_t>(i)], clients[static_cast<std::size_t>(i)]);
    ibv_mr* rmr = ibv_reg_mr(clients[static_cast<std::size_t>(i)].pd, &results[static_cast<std::size_t>(i)], 8,
                             IBV_ACCESS_LOCAL_WRITE);
    cluster.spawn(1 + i, client(clients[static_cast<std::size_t>(i)], &results[static_cast<std::size_t>(i)], rmr,
                                addr(&counter), cmr->rkey, &fetched[static_cast<std::size_t>(i)]));
  }
  if (!cluster.run()) die("a client did not finish");
  std::vector<std::uint64_t> all;
  for (const auto& f : fetched) all.insert(all.end(), f.begin(), f.end());
  std::sort(all.begin(), all.end());
  bool ok = counter == kClients * kAdds && all.size() == kClients * kAdds;
  for (std::size_t i = 0; ok && i < all.size(); ++i) ok = all[i] == i;
  std::printf("%d clients x %d fetch-and-adds: counter %llu in %.2f usec (%.3f usec per atomic per client)\n",
              kClients, kAdds, static_cast<unsigned long long>(counter), cluster.now().to_us(),
              cluster.now().to_us() / kAdds);
  if (!ok) die("counter mismatch");
  std::printf("data ok\n");
  return 0;
}
