// One-sided WRITE and READ consume no CPU time on the target host; SEND/RECV
// does (the far application posts receives and polls for them). Also what the account holds.
#include <gtest/gtest.h>

#include <vector>

#include "../examples/verbs_common.hpp"

namespace rdmasim::verbs {
namespace {
using namespace example;

struct Rig {
  Rig() : c(ClusterConfig{}) {
    a = make_endpoint(c.open_device(0));
    b = make_endpoint(c.open_device(1));
    connect_pair(a, b);
    amr = ibv_reg_mr(a.pd, abuf.data(), abuf.size(), IBV_ACCESS_LOCAL_WRITE);
    bmr = ibv_reg_mr(b.pd, bbuf.data(), bbuf.size(),
                     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
  }
  Cluster c;
  Endpoint a, b;
  std::vector<std::uint8_t> abuf = std::vector<std::uint8_t>(65536, 1), bbuf = std::vector<std::uint8_t>(65536, 2);
  ibv_mr *amr, *bmr;
};

Task one_sided(Rig& r, ibv_wr_opcode op, int n) {
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(post1(r.a.qp, op, r.abuf.data(), 4096, r.amr->lkey, addr(r.bbuf.data() + 4096 * (i % 16)), r.bmr->rkey), 0);
    ibv_wc wc;
    EXPECT_EQ(co_await poll(r.a.send_cq, 1, &wc), 1);
    EXPECT_EQ(wc.status, IBV_WC_SUCCESS);
  }
}

TEST(VerbsCpu, OneSidedWriteAndReadUseNoCpuOnTheTarget) {
  for (ibv_wr_opcode op : {IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ}) {
    Rig r;
    r.c.spawn(0, one_sided(r, op, 100));
    ASSERT_TRUE(r.c.run());
    const VerbsCpuUsage target = r.c.cpu(1), initiator = r.c.cpu(0);
    EXPECT_EQ(target.total(), Time::zero());
    EXPECT_EQ(target.post_sends + target.post_recvs + target.polls, 0u);
    EXPECT_EQ(initiator.post_sends, 100u);
    EXPECT_EQ(initiator.polls, 100u);
    const Profile p = make_profile("default");
    EXPECT_EQ(initiator.post_send, p.verbs.post * 100);
    EXPECT_EQ(initiator.poll, p.verbs.poll_detect * 100);
    EXPECT_GT(initiator.spin, Time::zero());  // busy-polling while the operation is in flight
    EXPECT_LE(initiator.total(), r.c.now());  // one core, never more than all the time
    if (op == IBV_WR_RDMA_WRITE) EXPECT_EQ(r.bbuf[0], 1);
    else EXPECT_EQ(r.abuf[0], 2);
  }
}

Task sender(Rig& r, int n) {
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(post1(r.a.qp, IBV_WR_SEND, r.abuf.data(), 4096, r.amr->lkey), 0);
    ibv_wc wc;
    EXPECT_EQ(co_await poll(r.a.send_cq, 1, &wc), 1);
  }
}

Task receiver(Rig& r, int n) {
  for (int i = 0; i < n; ++i) {
    ibv_wc wc;
    EXPECT_EQ(co_await poll(r.b.recv_cq, 1, &wc), 1);
    EXPECT_EQ(wc.status, IBV_WC_SUCCESS);
    EXPECT_EQ(wc.byte_len, 4096u);
    EXPECT_EQ(recv1(r.b.qp, r.bbuf.data(), 4096, r.bmr->lkey), 0);
  }
}

TEST(VerbsCpu, SendRecvUsesTheTargetsCpu) {
  Rig r;
  for (int i = 0; i < 4; ++i) ASSERT_EQ(recv1(r.b.qp, r.bbuf.data(), 4096, r.bmr->lkey), 0);
  r.c.spawn(0, sender(r, 100));
  r.c.spawn(1, receiver(r, 100));
  ASSERT_TRUE(r.c.run()) << r.c.waiting();
  const VerbsCpuUsage target = r.c.cpu(1);
  const Profile p = make_profile("default");
  EXPECT_EQ(target.post_recvs, 104u);
  EXPECT_EQ(target.polls, 100u);
  EXPECT_EQ(target.post_recv, p.verbs.post * 104);
  EXPECT_EQ(target.poll, p.verbs.poll_detect * 100);
  EXPECT_GT(target.spin, Time::zero());
  EXPECT_EQ(r.c.cpu(0).post_sends, 100u);
  EXPECT_EQ(r.bbuf[4095], 1);
}

}  // namespace
}  // namespace rdmasim::verbs
