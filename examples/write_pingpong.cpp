// WRITE ping-pong, perftest's ib_write_lat method: each side RDMA-WRITEs its whole buffer into
// the peer's, the last byte carrying the iteration number, and spins on the last byte of its
// own receive buffer. Prints the one-way latency (RTT/2) and where it went; checks every byte.
#include <cstdio>
#include <vector>

#include "verbs_common.hpp"

using namespace rdmasim;
using namespace rdmasim::verbs;
using namespace rdmasim::verbs::example;

namespace {
constexpr std::uint32_t kSize = 64;
constexpr int kIters = 1000;

struct Side {
  Endpoint ep;
  std::vector<std::uint8_t> out = std::vector<std::uint8_t>(kSize), in = std::vector<std::uint8_t>(kSize);
  ibv_mr *out_mr = nullptr, *in_mr = nullptr;
};

bool g_ok = true;

Task pingpong(Side& me, Side& peer, bool client, Ledger* total) {
  for (int i = 1; i <= kIters; ++i) {
    const auto mark = static_cast<std::uint8_t>(i);
    if (!client) co_await poll_memory(me.ep.ctx, [&me, mark] { return me.in[kSize - 1] == mark; });
    for (std::uint32_t k = 0; k < kSize; ++k) me.out[k] = static_cast<std::uint8_t>(i + k);
    me.out[kSize - 1] = mark;
    if (post1(me.ep.qp, IBV_WR_RDMA_WRITE, me.out.data(), kSize, me.out_mr->lkey, addr(peer.in.data()),
              peer.in_mr->rkey, IBV_SEND_INLINE) != 0)
      die("post_send failed");
    if (client) total->add(co_await poll_memory(me.ep.ctx, [&me, mark] { return me.in[kSize - 1] == mark; }));
    for (std::uint32_t k = 0; k + 1 < kSize; ++k)
      if (me.in[k] != static_cast<std::uint8_t>(i + k)) g_ok = false;
  }
}
}  // namespace

int main() {
  Cluster cluster{ClusterConfig{}};
  Side a, b;
  a.ep = make_endpoint(cluster.open_device(0));
  b.ep = make_endpoint(cluster.open_device(1));
  connect_pair(a.ep, b.ep);
  for (Side* s : {&a, &b}) {
    s->out_mr = ibv_reg_mr(s->ep.pd, s->out.data(), kSize, 0);
    s->in_mr = ibv_reg_mr(s->ep.pd, s->in.data(), kSize, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
  }
  Ledger back;  // B's writes as A saw them
  cluster.spawn(0, pingpong(a, b, true, &back));
  cluster.spawn(1, pingpong(b, a, false, nullptr));
  if (!cluster.run()) die("a side did not finish");
  const double half_rtt_us = cluster.now().to_us() / kIters / 2;
  std::printf("WRITE ping-pong, %u B, %d iterations: %.3f usec one way (RTT/2)\n", kSize, kIters, half_rtt_us);
  std::printf("one direction's ledger (mean usec):");
  for (Category c : kAllCategories)
    if (back[c] > Time::zero()) std::printf(" %s %.3f", category_name(c).data(), back[c].to_us() / kIters);
  std::printf("\nCPU: host 0 %.1f us, host 1 %.1f us of %.1f us\n", cluster.cpu(0).total().to_us(),
              cluster.cpu(1).total().to_us(), cluster.now().to_us());
  if (!g_ok) die("data mismatch");
  std::printf("data ok\n");
  return 0;
}
