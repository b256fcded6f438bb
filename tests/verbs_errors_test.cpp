// Every error case of the verbs API produces the real completion statuses and
// QP states (REFERENCE.md §6), with the timers in simulated time.
#include <gtest/gtest.h>

#include <vector>

#include "../examples/verbs_common.hpp"
#include "sim/rnr_timer.hpp"

namespace rdmasim::verbs {
namespace {
using namespace example;

struct Pair {
  explicit Pair(const QpOptions& o = {}) : c(ClusterConfig{}) {
    a = make_endpoint(c.open_device(0), nullptr, o);
    b = make_endpoint(c.open_device(1), nullptr, o);
    connect_pair(a, b, o);
    amr = ibv_reg_mr(a.pd, abuf.data(), abuf.size(), IBV_ACCESS_LOCAL_WRITE);
    bmr = ibv_reg_mr(b.pd, bbuf.data(), bbuf.size(),
                     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
  }
  std::vector<ibv_wc> drain(ibv_cq* cq) {
    std::vector<ibv_wc> out;
    ibv_wc wc;
    while (ibv_poll_cq(cq, 1, &wc) == 1) out.push_back(wc);
    return out;
  }
  std::uint64_t b_addr(std::size_t off = 0) { return addr(bbuf.data() + off); }
  Cluster c;
  Endpoint a, b;
  std::vector<std::uint8_t> abuf = std::vector<std::uint8_t>(4096, 0xaa), bbuf = std::vector<std::uint8_t>(4096, 0);
  ibv_mr* amr = nullptr;
  ibv_mr* bmr = nullptr;
};

TEST(VerbsErrors, BadLkeyIsLocalProtectionErrorAndFlushesTheRest) {
  Pair p;
  ASSERT_EQ(post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), 64, p.amr->lkey + 1, p.b_addr(), p.bmr->rkey,
                  IBV_SEND_SIGNALED, 1), 0);
  ASSERT_EQ(post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), 64, p.amr->lkey, p.b_addr(), p.bmr->rkey, 0, 2), 0);
  ASSERT_EQ(post1(p.a.qp, IBV_WR_SEND, p.abuf.data(), 64, p.amr->lkey, 0, 0, IBV_SEND_SIGNALED, 3), 0);
  p.c.run();
  const auto wcs = p.drain(p.a.send_cq);
  ASSERT_EQ(wcs.size(), 3u);  // the unsignaled WR 2 completes too: in error
  EXPECT_EQ(wcs[0].wr_id, 1u);
  EXPECT_EQ(wcs[0].status, IBV_WC_LOC_PROT_ERR);
  EXPECT_STREQ(ibv_wc_status_str(wcs[0].status), "local protection error");
  EXPECT_EQ(wcs[1].wr_id, 2u);
  EXPECT_EQ(wcs[1].status, IBV_WC_WR_FLUSH_ERR);
  EXPECT_EQ(wcs[2].wr_id, 3u);
  EXPECT_EQ(wcs[2].status, IBV_WC_WR_FLUSH_ERR);
  EXPECT_EQ(qp_state(p.a.qp), IBV_QPS_ERR);
  EXPECT_EQ(qp_state(p.b.qp), IBV_QPS_RTS);  // nothing reached the responder
  EXPECT_EQ(p.bbuf[0], 0);
}

TEST(VerbsErrors, LocalSgeOutsideItsRegionAndReadIntoReadOnlyRegion) {
  Pair p;
  ASSERT_EQ(post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data() + 4000, 200, p.amr->lkey, p.b_addr(), p.bmr->rkey), 0);
  p.c.run();
  auto w = p.drain(p.a.send_cq);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].status, IBV_WC_LOC_PROT_ERR);
  // A READ's target needs local write.
  Pair q;
  std::vector<std::uint8_t> ro(64);
  ibv_mr* romr = ibv_reg_mr(q.a.pd, ro.data(), ro.size(), 0);
  ASSERT_NE(romr, nullptr);
  ASSERT_EQ(post1(q.a.qp, IBV_WR_RDMA_READ, ro.data(), 64, romr->lkey, q.b_addr(), q.bmr->rkey), 0);
  q.c.run();
  w = q.drain(q.a.send_cq);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].status, IBV_WC_LOC_PROT_ERR);
}

void expect_remote_access_error(Pair& p) {
  ASSERT_EQ(recv1(p.b.qp, p.bbuf.data(), 64, p.bmr->lkey, 77), 0);
  p.c.run();
  const auto wa = p.drain(p.a.send_cq);
  ASSERT_EQ(wa.size(), 2u);
  EXPECT_EQ(wa[0].status, IBV_WC_REM_ACCESS_ERR);
  EXPECT_STREQ(ibv_wc_status_str(wa[0].status), "remote access error");
  EXPECT_EQ(wa[1].status, IBV_WC_WR_FLUSH_ERR);
  EXPECT_EQ(qp_state(p.a.qp), IBV_QPS_ERR);
  EXPECT_EQ(qp_state(p.b.qp), IBV_QPS_ERR);
  const auto wb = p.drain(p.b.recv_cq);  // the responder's posted receive is flushed
  ASSERT_EQ(wb.size(), 1u);
  EXPECT_EQ(wb[0].wr_id, 77u);
  EXPECT_EQ(wb[0].status, IBV_WC_WR_FLUSH_ERR);
}

TEST(VerbsErrors, BadRkeyRangeOrRightIsRemoteAccessErrorBothQpsToErr) {
  {
    Pair p;  // bad rkey
    post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), 64, p.amr->lkey, p.b_addr(), p.bmr->rkey ^ 0x100);
    post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), 64, p.amr->lkey, p.b_addr(), p.bmr->rkey, 0);
    expect_remote_access_error(p);
    EXPECT_EQ(p.bbuf[0], 0);
  }
  {
    Pair p;  // remote range past the end of the MR
    post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), 64, p.amr->lkey, p.b_addr(4090), p.bmr->rkey);
    post1(p.a.qp, IBV_WR_RDMA_READ, p.abuf.data(), 64, p.amr->lkey, p.b_addr(), p.bmr->rkey, 0);
    expect_remote_access_error(p);
  }
  {
    Pair p;  // MR without REMOTE_ATOMIC
    ibv_sge sge{addr(p.abuf.data()), 8, p.amr->lkey};
    ibv_send_wr wr;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.atomic.remote_addr = p.b_addr();
    wr.wr.atomic.rkey = p.bmr->rkey;
    wr.wr.atomic.compare_add = 1;
    ibv_send_wr* bad;
    ASSERT_EQ(ibv_post_send(p.a.qp, &wr, &bad), 0);
    post1(p.a.qp, IBV_WR_SEND, p.abuf.data(), 8, p.amr->lkey, 0, 0, 0);
    expect_remote_access_error(p);
  }
  {
    Pair p;  // read-only MR written to
    std::vector<std::uint8_t> ro(64);
    ibv_mr* romr = ibv_reg_mr(p.b.pd, ro.data(), ro.size(), IBV_ACCESS_REMOTE_READ);
    post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), 8, p.amr->lkey, addr(ro.data()), romr->rkey);
    post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), 8, p.amr->lkey, p.b_addr(), p.bmr->rkey, 0);
    expect_remote_access_error(p);
    EXPECT_EQ(ro[0], 0);
  }
}

TEST(VerbsErrors, ReceiveTooSmallIsLocalLengthThereRemoteInvalidRequestHere) {
  Pair p;
  ASSERT_EQ(recv1(p.b.qp, p.bbuf.data(), 32, p.bmr->lkey, 5), 0);
  ASSERT_EQ(recv1(p.b.qp, p.bbuf.data(), 32, p.bmr->lkey, 6), 0);
  ASSERT_EQ(post1(p.a.qp, IBV_WR_SEND, p.abuf.data(), 100, p.amr->lkey, 0, 0, IBV_SEND_SIGNALED, 9), 0);
  p.c.run();
  const auto wa = p.drain(p.a.send_cq);
  ASSERT_EQ(wa.size(), 1u);
  EXPECT_EQ(wa[0].wr_id, 9u);
  EXPECT_EQ(wa[0].status, IBV_WC_REM_INV_REQ_ERR);
  const auto wb = p.drain(p.b.recv_cq);
  ASSERT_EQ(wb.size(), 2u);
  EXPECT_EQ(wb[0].wr_id, 5u);
  EXPECT_EQ(wb[0].status, IBV_WC_LOC_LEN_ERR);
  EXPECT_EQ(wb[1].wr_id, 6u);
  EXPECT_EQ(wb[1].status, IBV_WC_WR_FLUSH_ERR);
  EXPECT_EQ(qp_state(p.a.qp), IBV_QPS_ERR);
  EXPECT_EQ(qp_state(p.b.qp), IBV_QPS_ERR);
}

TEST(VerbsErrors, NoReceiveRetriesAfterTheRnrTimerThenRnrRetryExceeded) {
  QpOptions o;
  o.min_rnr_timer = 14;  // 1.28 ms
  o.rnr_retry = 2;
  Pair p(o);
  ASSERT_EQ(post1(p.a.qp, IBV_WR_SEND, p.abuf.data(), 16, p.amr->lkey, 0, 0, IBV_SEND_SIGNALED, 4), 0);
  ASSERT_EQ(post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), 16, p.amr->lkey, p.b_addr(), p.bmr->rkey, 0, 5), 0);
  p.c.run();
  const auto wa = p.drain(p.a.send_cq);
  ASSERT_EQ(wa.size(), 2u);
  EXPECT_EQ(wa[0].status, IBV_WC_RNR_RETRY_EXC_ERR);
  EXPECT_STREQ(ibv_wc_status_str(wa[0].status), "RNR retry counter exceeded");
  EXPECT_EQ(wa[1].wr_id, 5u);
  EXPECT_EQ(wa[1].status, IBV_WC_WR_FLUSH_ERR);
  // One try and two retries, each NAKed; two waits of the 1.28 ms timer between them.
  const Time waits = rnr_timer_delay(14) * 2;
  EXPECT_EQ(waits, Time::ps(2'560'000'000));
  EXPECT_GE(p.c.now(), waits);
  EXPECT_LT(p.c.now(), waits + Time::us(10));
  EXPECT_GE(wa[0].ledger[Category::queue], waits);
  EXPECT_EQ(qp_state(p.a.qp), IBV_QPS_ERR);
  EXPECT_EQ(qp_state(p.b.qp), IBV_QPS_RTS);  // RNR is not an error at the responder
  EXPECT_EQ(p.bbuf[0], 0);                   // the WRITE behind the SEND never executed
}

TEST(VerbsErrors, RnrRetrySucceedsOnceAReceiveIsPosted) {
  QpOptions o;
  o.min_rnr_timer = 1;  // 10 us
  o.rnr_retry = 7;      // forever
  Pair p(o);
  post1(p.a.qp, IBV_WR_SEND, p.abuf.data(), 16, p.amr->lkey, 0, 0, IBV_SEND_SIGNALED, 4);
  p.c.run_until(Time::us(95));
  EXPECT_TRUE(p.drain(p.a.send_cq).empty());
  ASSERT_EQ(recv1(p.b.qp, p.bbuf.data(), 64, p.bmr->lkey, 8), 0);
  p.c.run();
  const auto wa = p.drain(p.a.send_cq);
  ASSERT_EQ(wa.size(), 1u);
  EXPECT_EQ(wa[0].status, IBV_WC_SUCCESS);
  const auto wb = p.drain(p.b.recv_cq);
  ASSERT_EQ(wb.size(), 1u);
  EXPECT_EQ(wb[0].byte_len, 16u);
  EXPECT_EQ(p.bbuf[15], 0xaa);
  EXPECT_EQ(p.c.now(), wa[0].ledger.total());  // ledger from the post at 0 covers every retry
  EXPECT_GE(p.c.now(), Time::us(100));
}

TEST(VerbsErrors, RnrRetryZeroFailsOnTheFirstNak) {
  QpOptions o;
  o.rnr_retry = 0;
  Pair p(o);
  post1(p.a.qp, IBV_WR_SEND, p.abuf.data(), 16, p.amr->lkey);
  p.c.run();
  const auto wa = p.drain(p.a.send_cq);
  ASSERT_EQ(wa.size(), 1u);
  EXPECT_EQ(wa[0].status, IBV_WC_RNR_RETRY_EXC_ERR);
  EXPECT_LT(p.c.now(), Time::us(5));
}

TEST(VerbsErrors, EveryLaterWorkRequestIsFlushedToo) {
  Pair p;
  post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), 64, 0xdead00, p.b_addr(), p.bmr->rkey);
  p.c.run();
  ASSERT_EQ(qp_state(p.a.qp), IBV_QPS_ERR);
  // Posting on a QP in ERR is accepted and completes flushed, unsignaled or not.
  EXPECT_EQ(post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), 64, p.amr->lkey, p.b_addr(), p.bmr->rkey, 0, 11), 0);
  EXPECT_EQ(recv1(p.a.qp, p.abuf.data(), 64, p.amr->lkey, 12), 0);
  p.c.run();
  auto w = p.drain(p.a.send_cq);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[1].wr_id, 11u);
  EXPECT_EQ(w[1].status, IBV_WC_WR_FLUSH_ERR);
  w = p.drain(p.a.recv_cq);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].wr_id, 12u);
  EXPECT_EQ(w[0].status, IBV_WC_WR_FLUSH_ERR);
  // modify_qp to ERR flushes as well; RESET clears and the QP can be connected again.
  Pair q;
  recv1(q.b.qp, q.bbuf.data(), 64, q.bmr->lkey, 3);
  ibv_qp_attr a;
  a.qp_state = IBV_QPS_ERR;
  EXPECT_EQ(ibv_modify_qp(q.b.qp, &a, IBV_QP_STATE), 0);
  q.c.run();
  w = q.drain(q.b.recv_cq);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].status, IBV_WC_WR_FLUSH_ERR);
  a.qp_state = IBV_QPS_RESET;
  EXPECT_EQ(ibv_modify_qp(q.b.qp, &a, IBV_QP_STATE), 0);
  connect(q.b, q.a);
  a.qp_state = IBV_QPS_RESET;
  ibv_modify_qp(q.a.qp, &a, IBV_QP_STATE);
  connect(q.a, q.b);
  post1(q.a.qp, IBV_WR_RDMA_WRITE, q.abuf.data(), 64, q.amr->lkey, q.b_addr(), q.bmr->rkey);
  q.c.run();
  w = q.drain(q.a.send_cq);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].status, IBV_WC_SUCCESS);
  EXPECT_EQ(q.bbuf[63], 0xaa);
}

TEST(VerbsErrors, PeerGoneIsTransportRetryExceededAfterTheAckTimeouts) {
  QpOptions o;
  o.timeout = 10;  // 4.096 us x 2^10 = 4.194 ms
  o.retry_cnt = 3;
  Pair p(o);
  ASSERT_EQ(ibv_destroy_qp(p.b.qp), 0);
  post1(p.a.qp, IBV_WR_RDMA_WRITE, p.abuf.data(), 64, p.amr->lkey, p.b_addr(), p.bmr->rkey);
  p.c.run();
  const auto w = p.drain(p.a.send_cq);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].status, IBV_WC_RETRY_EXC_ERR);
  const Time t = *ack_timeout(10) * 4;  // first try + 3 retries, each timed out
  EXPECT_GE(p.c.now(), t);
  EXPECT_LT(p.c.now(), t + Time::us(5));
  EXPECT_EQ(p.bbuf[0], 0);
}

}  // namespace
}  // namespace rdmasim::verbs
