// WRITEs across a lossy switch: host 0 RDMA-WRITEs 400 messages of 64 KiB into host 1 through
// one switch whose cables corrupt one frame in a thousand. The QP's RC transport resends what
// is lost (go-back-N), so every WRITE completes and every byte arrives; the program prints the
// goodput, the transport's counters (Cluster::transport) and where the time went.
#include <cstdio>
#include <vector>

#include "verbs_common.hpp"

using namespace rdmasim;
using namespace rdmasim::verbs;
using namespace rdmasim::verbs::example;

namespace {
constexpr std::uint32_t kSize = 64 * 1024;
constexpr int kWrites = 400;
constexpr int kDepth = 64;  // WRITEs in flight

Task writer(Endpoint& ep, std::vector<std::uint8_t>& src, ibv_mr* src_mr, std::uint64_t dst, std::uint32_t rkey,
            Ledger* total, int* completed) {
  int posted = 0;
  while (*completed < kWrites) {
    for (; posted < kWrites && posted - *completed < kDepth; ++posted) {
      const std::size_t off = static_cast<std::size_t>(posted) * kSize;
      if (post1(ep.qp, IBV_WR_RDMA_WRITE, src.data() + off, kSize, src_mr->lkey, dst + off, rkey, IBV_SEND_SIGNALED,
                static_cast<std::uint64_t>(posted)) != 0)
        die("post_send failed");
    }
    ibv_wc wc;
    if (co_await poll(ep.send_cq, 1, &wc) != 1) die("poll failed");
    if (wc.status != IBV_WC_SUCCESS) die(ibv_wc_status_str(wc.status));
    total->add(wc.ledger);
    ++*completed;
  }
}
}  // namespace

int main() {
  ClusterConfig cfg;
  FabricConfig f;
  f.topology = "single-switch";
  f.hosts = 2;
  f.loss = 1e-3;  // per frame, on every cable, both ways
  cfg.fabric = f;
  Cluster cluster(cfg);
  QpOptions o;
  o.depth = kDepth;
  o.timeout = 10;  // 4.2 ms
  Endpoint a = make_endpoint(cluster.open_device(0), nullptr, o), b = make_endpoint(cluster.open_device(1), nullptr, o);
  connect_pair(a, b, o);
  std::vector<std::uint8_t> src(std::size_t{kWrites} * kSize), dst(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::uint8_t>(i * 31 + i / kSize);
  ibv_mr* src_mr = ibv_reg_mr(a.pd, src.data(), src.size(), 0);
  ibv_mr* dst_mr = ibv_reg_mr(b.pd, dst.data(), dst.size(), IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
  Ledger total;
  int completed = 0;
  cluster.spawn(0, writer(a, src, src_mr, addr(dst.data()), dst_mr->rkey, &total, &completed));
  if (!cluster.run()) die("the writer did not finish");
  const RcStats s = cluster.transport(a.qp);
  const double secs = cluster.now().to_us() / 1e6;
  std::printf("%d WRITEs of %u B over a switch losing 1 frame in 1000: %d completed in %.1f us, %.2f Gb/s\n", kWrites,
              kSize, completed, cluster.now().to_us(), static_cast<double>(src.size()) * 8 / secs / 1e9);
  std::printf("transport: %llu packets sent, %llu resent, %llu NAKs, %llu timeouts, %llu ACKs lost\n",
              static_cast<unsigned long long>(s.sent), static_cast<unsigned long long>(s.retransmitted),
              static_cast<unsigned long long>(s.naks), static_cast<unsigned long long>(s.timeouts),
              static_cast<unsigned long long>(s.acks_lost));
  std::printf("mean ledger per WRITE (usec):");
  for (Category c : kAllCategories)
    if (total[c] > Time::zero()) std::printf(" %s %.3f", category_name(c).data(), total[c].to_us() / kWrites);
  std::printf("\n");
  if (dst != src) die("data mismatch");
  if (s.retransmitted == 0) die("no packet was resent: the fabric lost nothing");
  std::printf("data ok\n");
  return 0;
}
