// Ring AllReduce on verbs: N hosts on one switch, each holding N chunks of integers, sum them
// so every host ends with the element-wise total. Reduce-scatter (N-1 steps): each host
// RDMA-WRITEs-with-immediate one chunk into its right neighbour's staging slot; the receive
// completion (RECV_RDMA_WITH_IMM) tells the neighbour to add it in. All-gather (N-1 steps):
// the reduced chunks are written straight into the neighbour's buffer. Checks every element.
#include <cstdio>
#include <vector>

#include "verbs_common.hpp"

using namespace rdmasim;
using namespace rdmasim::verbs;
using namespace rdmasim::verbs::example;

namespace {
constexpr int kHosts = 4;
constexpr std::size_t kChunk = 512;  // elements per chunk

struct Rank {
  Endpoint right, left;  // QP to the right neighbour, QP from the left one
  std::vector<std::uint64_t> data = std::vector<std::uint64_t>(kHosts * kChunk);
  std::vector<std::uint64_t> staging = std::vector<std::uint64_t>((kHosts - 1) * kChunk);
  ibv_mr *data_mr = nullptr, *staging_mr = nullptr;
};

int mod(int a) { return ((a % kHosts) + kHosts) % kHosts; }

void write_imm(Rank& me, const std::uint64_t* from, std::uint64_t* to, std::uint32_t rkey, std::uint32_t imm) {
  ibv_sge sge{addr(from), kChunk * 8, me.data_mr->lkey};
  ibv_send_wr wr;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
  wr.imm_data = imm;
  wr.wr.rdma.remote_addr = addr(to);
  wr.wr.rdma.rkey = rkey;
  ibv_send_wr* bad;
  if (ibv_post_send(me.right.qp, &wr, &bad)) die("post_send failed");
}

Task allreduce(std::vector<Rank>& ranks, int i) {
  Rank& me = ranks[static_cast<std::size_t>(i)];
  Rank& right = ranks[static_cast<std::size_t>(mod(i + 1))];
  ibv_wc wc;
  for (int s = 0; s < kHosts - 1; ++s) {  // reduce-scatter
    const int send = mod(i - s), recv = mod(i - 1 - s);
    write_imm(me, &me.data[send * kChunk], &right.staging[s * kChunk], right.staging_mr->rkey, static_cast<std::uint32_t>(s));
    if (co_await poll(me.left.recv_cq, 1, &wc) != 1 || wc.status != IBV_WC_SUCCESS ||
        wc.opcode != IBV_WC_RECV_RDMA_WITH_IMM || wc.imm_data != static_cast<std::uint32_t>(s))
      die("reduce-scatter: bad completion");
    for (std::size_t k = 0; k < kChunk; ++k) me.data[recv * kChunk + k] += me.staging[s * kChunk + k];
  }
  for (int s = 0; s < kHosts - 1; ++s) {  // all-gather
    const int send = mod(i + 1 - s);
    write_imm(me, &me.data[send * kChunk], &right.data[send * kChunk], right.data_mr->rkey,
              static_cast<std::uint32_t>(100 + s));
    if (co_await poll(me.left.recv_cq, 1, &wc) != 1 || wc.status != IBV_WC_SUCCESS ||
        wc.imm_data != static_cast<std::uint32_t>(100 + s))
      die("all-gather: bad completion");
  }
  // Unsignaled writes: drain nothing; the QP retires them as their ACKs arrive.
}
}  // namespace

int main() {
  ClusterConfig cc;
  cc.hosts = kHosts;
  Cluster cluster(cc);
  std::vector<Rank> ranks(kHosts);
  for (int i = 0; i < kHosts; ++i) {
    Rank& r = ranks[static_cast<std::size_t>(i)];
    ibv_context* ctx = cluster.open_device(i);
    ibv_pd* pd = ibv_alloc_pd(ctx);
    r.right = make_endpoint(ctx, pd);
    r.left = make_endpoint(ctx, pd);
    const unsigned rw = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    r.data_mr = ibv_reg_mr(pd, r.data.data(), r.data.size() * 8, rw);
    r.staging_mr = ibv_reg_mr(pd, r.staging.data(), r.staging.size() * 8, rw);
    for (std::size_t k = 0; k < r.data.size(); ++k) r.data[k] = static_cast<std::uint64_t>(i + 1) * 1000 + k;
  }
  for (int i = 0; i < kHosts; ++i)
    connect_pair(ranks[static_cast<std::size_t>(i)].right, ranks[static_cast<std::size_t>(mod(i + 1))].left);
  for (int i = 0; i < kHosts; ++i) {
    // WRITE_WITH_IMM consumes a receive: post one per step (no buffer needed).
    for (int s = 0; s < 2 * (kHosts - 1); ++s) {
      ibv_recv_wr wr;
      ibv_recv_wr* bad;
      if (ibv_post_recv(ranks[static_cast<std::size_t>(i)].left.qp, &wr, &bad)) die("post_recv failed");
    }
  }
  for (int i = 0; i < kHosts; ++i) cluster.spawn(i, allreduce(ranks, i));
  if (!cluster.run()) die("a rank did not finish");
  bool ok = true;
  for (const Rank& r : ranks)
    for (std::size_t k = 0; k < r.data.size(); ++k) {
      std::uint64_t want = 0;
      for (int i = 0; i < kHosts; ++i) want += static_cast<std::uint64_t>(i + 1) * 1000 + k;
      ok = ok && r.data[k] == want;
    }
  std::printf("ring allreduce of %zu x 8 B over %d hosts on one switch: %.2f usec\n", kHosts * kChunk, kHosts,
              cluster.now().to_us());
  if (!ok) die("data mismatch");
  std::printf("data ok\n");
  return 0;
}
