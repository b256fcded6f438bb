// The verbs API on the packet-level RC transport: a program on a lossy fabric completes every
// work request with the right bytes (the transport resends, go-back-N), READs and atomics
// included (an atomic is never applied twice); when the retries run out the QP fails with
// IBV_WC_RETRY_EXC_ERR at the time the timers say; the fabric's rate control paces its QPs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <vector>

#include "../examples/verbs_common.hpp"

namespace rdmasim::verbs {
namespace {
using namespace example;

constexpr std::uint32_t kMsg = 64 * 1024;  // 16 packets of 4 KiB
constexpr int kWrites = 200;

ClusterConfig switched(double loss) {
  ClusterConfig c;
  FabricConfig f;
  f.topology = "single-switch";
  f.hosts = 2;
  f.loss = loss;
  c.fabric = f;
  c.seed = 7;
  return c;
}

struct Pair {
  Pair(const ClusterConfig& cc, const QpOptions& o, std::size_t bytes) : c(cc), abuf(bytes), bbuf(bytes) {
    a = make_endpoint(c.open_device(0), nullptr, o);
    b = make_endpoint(c.open_device(1), nullptr, o);
    connect_pair(a, b, o);
    for (std::size_t i = 0; i < bytes; ++i) abuf[i] = static_cast<std::uint8_t>(i * 7 + i / 4096);
    const unsigned all = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
                         IBV_ACCESS_REMOTE_ATOMIC;
    amr = ibv_reg_mr(a.pd, abuf.data(), bytes, all);
    bmr = ibv_reg_mr(b.pd, bbuf.data(), bytes, all);
  }
  std::vector<ibv_wc> drain(ibv_cq* cq) {
    std::vector<ibv_wc> out;
    ibv_wc wc;
    while (ibv_poll_cq(cq, 1, &wc) == 1) out.push_back(wc);
    return out;
  }
  Cluster c;
  Endpoint a, b;
  std::vector<std::uint8_t> abuf, bbuf;
  ibv_mr* amr = nullptr;
  ibv_mr* bmr = nullptr;
};

// kWrites WRITEs of kMsg bytes from A's buffer into the same place of B's; returns A's completions.
std::vector<ibv_wc> write_all(Pair& p) {
  for (int i = 0; i < kWrites; ++i) {
    const std::size_t off = static_cast<std::size_t>(i) * kMsg;
    EXPECT_EQ(post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data() + off, kMsg, p.amr->lkey, addr(p.bbuf.data() + off),
                    p.bmr->rkey, IBV_SEND_SIGNALED, static_cast<std::uint64_t>(i)),
              0);
  }
  p.c.run();
  return p.drain(p.a.send_cq);
}

TEST(VerbsOnLoss, EveryWriteCompletesWithTheRightBytesAndTheResendsAreCounted) {
  QpOptions o;
  o.depth = kWrites;
  o.timeout = 10;  // 4.2 ms
  Pair clean(switched(0), o, std::size_t{kWrites} * kMsg);
  const std::vector<ibv_wc> ok = write_all(clean);
  Pair lossy(switched(1e-3), o, std::size_t{kWrites} * kMsg);
  const std::vector<ibv_wc> wcs = write_all(lossy);
  ASSERT_EQ(wcs.size(), static_cast<std::size_t>(kWrites));
  for (int i = 0; i < kWrites; ++i) {
    EXPECT_EQ(wcs[static_cast<std::size_t>(i)].status, IBV_WC_SUCCESS) << i;
    EXPECT_EQ(wcs[static_cast<std::size_t>(i)].wr_id, static_cast<std::uint64_t>(i));
  }
  EXPECT_EQ(lossy.bbuf, lossy.abuf);
  const RcStats lost = lossy.c.transport(lossy.a.qp), none = clean.c.transport(clean.a.qp);
  // 3,200 packets over two cables at 1e-3 each: some are lost, and go-back-N resends them.
  EXPECT_EQ(none.sent, std::uint64_t{kWrites} * 16);
  EXPECT_EQ(none.retransmitted, 0u);
  EXPECT_EQ(lost.sent, none.sent);
  EXPECT_GT(lost.retransmitted, 0u);
  EXPECT_GT(lost.naks + lost.timeouts, 0u);
  EXPECT_EQ(lost.status, "ok");
  EXPECT_GT(lossy.c.now(), clean.c.now());
  // Every completion's ledger adds up to its time: posted at 0, polled now. (Each verbs message
  // has its own id: a wait behind another message's packet is `queue`, not its critical path.)
  Time recovery{};
  for (const ibv_wc& wc : wcs) {
    EXPECT_EQ(wc.ledger.total(), lossy.c.now()) << wc.wr_id;
    recovery += wc.ledger[Category::recovery];
  }
  for (const ibv_wc& wc : ok) {
    EXPECT_EQ(wc.ledger.total(), clean.c.now()) << wc.wr_id;
    EXPECT_EQ(wc.ledger[Category::recovery], Time::zero());
  }
  EXPECT_GT(recovery, Time::zero());
}

TEST(VerbsOnLoss, ALinkThatLosesEverythingExhaustsTheRetriesAndTheQpFails) {
  ClusterConfig cc = switched(0);
  LinkFault f;  // the receiver's cable drops every frame for a second
  f.a = "h0";
  f.b = "sw0";
  f.drop_windows.emplace_back(Time::zero(), Time::us(1'000'000));
  cc.fabric->faults.push_back(f);
  QpOptions o;
  o.timeout = 8;    // 4.096 us x 2^8 = 1.048576 ms
  o.retry_cnt = 3;  // one try and three resends
  Pair p(cc, o, 2 * kMsg);
  post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), kMsg, p.amr->lkey, addr(p.bbuf.data()), p.bmr->rkey,
        IBV_SEND_SIGNALED, 1);
  post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data() + kMsg, kMsg, p.amr->lkey, addr(p.bbuf.data() + kMsg), p.bmr->rkey,
        IBV_SEND_SIGNALED, 2);
  p.c.run();
  const std::vector<ibv_wc> wcs = p.drain(p.a.send_cq);
  ASSERT_EQ(wcs.size(), 2u);
  EXPECT_EQ(wcs[0].wr_id, 1u);
  EXPECT_EQ(wcs[0].status, IBV_WC_RETRY_EXC_ERR);
  EXPECT_STREQ(ibv_wc_status_str(wcs[0].status), "transport retry counter exceeded");
  EXPECT_EQ(wcs[1].status, IBV_WC_WR_FLUSH_ERR);
  EXPECT_EQ(qp_state(p.a.qp), IBV_QPS_ERR);
  const RcStats s = p.c.transport(p.a.qp);
  EXPECT_EQ(s.status, "RETRY_EXC_ERR");
  EXPECT_EQ(s.timeouts, 3u);
  // Four timeouts after the last packet went out (each resend restarts the clock).
  const Time timeout = Time::ps(4'096'000) * 256;
  EXPECT_GE(p.c.now(), timeout * 4);
  EXPECT_LT(p.c.now(), timeout * 4 + Time::us(100));
  EXPECT_TRUE(std::all_of(p.bbuf.begin(), p.bbuf.end(), [](std::uint8_t b) { return b == 0; }));
}

TEST(VerbsOnLoss, ReadsAndAtomicsAreResentAndAnAtomicIsAppliedOnce) {
  QpOptions o;
  o.timeout = 8;
  constexpr int kAdds = 300;
  Pair p(switched(2e-2), o, 4 * kMsg);
  std::uint64_t counter = 0;
  ibv_mr* cmr = ibv_reg_mr(p.b.pd, &counter, 8, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC);
  std::vector<std::uint64_t> old(kAdds);
  for (int i = 0; i < kAdds; ++i) {
    ibv_sge sge{addr(&old[static_cast<std::size_t>(i)]), 8, p.amr->lkey};
    ibv_mr* omr = ibv_reg_mr(p.a.pd, &old[static_cast<std::size_t>(i)], 8, IBV_ACCESS_LOCAL_WRITE);
    sge.lkey = omr->lkey;
    ibv_send_wr wr;
    wr.wr_id = static_cast<std::uint64_t>(i);
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.atomic.remote_addr = addr(&counter);
    wr.wr.atomic.rkey = cmr->rkey;
    wr.wr.atomic.compare_add = 1;
    ibv_send_wr* bad = nullptr;
    ASSERT_EQ(ibv_post_send(p.a.qp, &wr, &bad), 0);
    if (i % 16 == 15) p.c.run();  // stay within the send queue
  }
  // Then READ B's whole buffer (filled by B) into A's.
  for (std::size_t i = 0; i < p.bbuf.size(); ++i) p.bbuf[i] = static_cast<std::uint8_t>(i * 13 + 1);
  for (int i = 0; i < 4; ++i)
    post1(p.a.qp, IBV_WR_RDMA_READ, p.abuf.data() + i * kMsg, kMsg, p.amr->lkey, addr(p.bbuf.data() + i * kMsg),
          p.bmr->rkey, IBV_SEND_SIGNALED, 1000 + static_cast<std::uint64_t>(i));
  p.c.run();
  const std::vector<ibv_wc> wcs = p.drain(p.a.send_cq);
  for (const ibv_wc& wc : wcs) EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << wc.wr_id << " " << ibv_wc_status_str(wc.status);
  ASSERT_EQ(wcs.size(), static_cast<std::size_t>(kAdds + 4));
  EXPECT_EQ(counter, static_cast<std::uint64_t>(kAdds));  // never applied twice
  const std::set<std::uint64_t> seen(old.begin(), old.end());
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(kAdds));  // each add saw its own value: 0..kAdds-1
  EXPECT_EQ(*seen.rbegin(), static_cast<std::uint64_t>(kAdds - 1));
  EXPECT_EQ(p.abuf, p.bbuf);
  const RcStats s = p.c.transport(p.a.qp);
  EXPECT_EQ(s.status, "ok");
  EXPECT_GT(s.timeouts, 0u);       // a lost request or response: the requester's timer
  EXPECT_GT(s.duplicates, 0u);     // a resend of a request whose response was lost
}

TEST(VerbsOnLoss, TheFabricsRateControlPacesTheQps) {
  // Two senders into one receiver: the switch marks, DCQCN cuts the senders' rates.
  ClusterConfig cc;
  FabricConfig f;
  f.topology = "single-switch";
  f.hosts = 3;
  f.cc = "dcqcn";
  cc.fabric = f;
  cc.hosts = 3;
  Cluster c(cc);
  QpOptions o;
  o.depth = 64;
  std::vector<std::uint8_t> src(kMsg, 1), dst(2 * kMsg);
  Endpoint r0 = make_endpoint(c.open_device(2), nullptr, o), r1 = make_endpoint(c.open_device(2), r0.pd, o);
  Endpoint s0 = make_endpoint(c.open_device(0), nullptr, o), s1 = make_endpoint(c.open_device(1), nullptr, o);
  connect_pair(s0, r0, o);
  connect_pair(s1, r1, o);
  ibv_mr* dmr = ibv_reg_mr(r0.pd, dst.data(), dst.size(), IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
  for (Endpoint* s : {&s0, &s1}) {
    ibv_mr* m = ibv_reg_mr(s->pd, src.data(), src.size(), 0);
    const std::uint64_t to = addr(dst.data() + (s == &s0 ? 0 : kMsg));
    for (int i = 0; i < 64; ++i) post1(s->qp, IBV_WR_RDMA_WRITE, src.data(), kMsg, m->lkey, to, dmr->rkey, 0);
  }
  c.run();
  for (Endpoint* s : {&s0, &s1}) {
    const RcStats st = c.transport(s->qp);
    EXPECT_EQ(st.sent, 64u * 16);
    EXPECT_GT(st.cnps, 0u);
    EXPECT_GT(st.final_rate_bps, 0.0);
    EXPECT_LT(st.final_rate_bps, 100e9);
  }
}

}  // namespace
}  // namespace rdmasim::verbs
