// API misuse that would crash a real program (use after dereg, post on a
// destroyed QP, out-of-range sizes, null and dead objects) gives a defined error. The suite
// runs under ASan/UBSan in `make test-sanitize`.
#include <gtest/gtest.h>

#include <cerrno>
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
    bmr = ibv_reg_mr(b.pd, bbuf.data(), bbuf.size(), IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                                                          IBV_ACCESS_REMOTE_READ);
  }
  ibv_wc one(ibv_cq* cq) {
    ibv_wc wc;
    wc.status = IBV_WC_GENERAL_ERR;
    EXPECT_EQ(ibv_poll_cq(cq, 1, &wc), 1);
    return wc;
  }
  Cluster c;
  Endpoint a, b;
  std::vector<std::uint8_t> abuf = std::vector<std::uint8_t>(256, 7), bbuf = std::vector<std::uint8_t>(256, 0);
  ibv_mr *amr, *bmr;
};

TEST(VerbsMisuse, UseAfterDeregIsAProtectionOrAccessError) {
  Rig r;
  const std::uint32_t lkey = r.amr->lkey;
  ASSERT_EQ(ibv_dereg_mr(r.amr), 0);
  EXPECT_EQ(ibv_dereg_mr(r.amr), EINVAL);  // twice
  // Re-registering reuses the slot with a new key: the stale key still finds nothing.
  ibv_mr* again = ibv_reg_mr(r.a.pd, r.abuf.data(), r.abuf.size(), IBV_ACCESS_LOCAL_WRITE);
  ASSERT_NE(again, nullptr);
  EXPECT_NE(again->lkey, lkey);
  post1(r.a.qp, IBV_WR_RDMA_WRITE, r.abuf.data(), 64, lkey, addr(r.bbuf.data()), r.bmr->rkey);
  r.c.run();
  EXPECT_EQ(r.one(r.a.send_cq).status, IBV_WC_LOC_PROT_ERR);

  Rig s;  // the far region deregistered
  const std::uint32_t rkey = s.bmr->rkey;
  ASSERT_EQ(ibv_dereg_mr(s.bmr), 0);
  post1(s.a.qp, IBV_WR_RDMA_WRITE, s.abuf.data(), 64, s.amr->lkey, addr(s.bbuf.data()), rkey);
  s.c.run();
  EXPECT_EQ(s.one(s.a.send_cq).status, IBV_WC_REM_ACCESS_ERR);
  EXPECT_EQ(s.bbuf[0], 0);

  Rig t;  // the READ's target deregistered while the READ is in flight
  post1(t.a.qp, IBV_WR_RDMA_READ, t.abuf.data(), 64, t.amr->lkey, addr(t.bbuf.data()), t.bmr->rkey);
  t.c.run_until(Time::ns(600));
  ASSERT_EQ(ibv_dereg_mr(t.amr), 0);
  t.c.run();
  EXPECT_EQ(t.one(t.a.send_cq).status, IBV_WC_LOC_PROT_ERR);
  EXPECT_EQ(t.abuf[0], 7);
}

TEST(VerbsMisuse, DestroyedAndNullObjects) {
  Rig r;
  ASSERT_EQ(ibv_destroy_qp(r.a.qp), 0);
  EXPECT_EQ(ibv_destroy_qp(r.a.qp), EINVAL);
  EXPECT_EQ(post1(r.a.qp, IBV_WR_RDMA_WRITE, r.abuf.data(), 8, r.amr->lkey, addr(r.bbuf.data()), r.bmr->rkey), EINVAL);
  EXPECT_EQ(recv1(r.a.qp, r.abuf.data(), 8, r.amr->lkey), EINVAL);
  ibv_qp_attr a;
  a.qp_state = IBV_QPS_RESET;
  EXPECT_EQ(ibv_modify_qp(r.a.qp, &a, IBV_QP_STATE), EINVAL);
  EXPECT_EQ(ibv_post_send(nullptr, nullptr, nullptr), EINVAL);
  ibv_send_wr* bad = nullptr;
  EXPECT_EQ(ibv_post_send(r.b.qp, nullptr, &bad), EINVAL);
  EXPECT_EQ(ibv_poll_cq(nullptr, 1, nullptr), -EINVAL);
  EXPECT_EQ(ibv_dereg_mr(nullptr), EINVAL);
  EXPECT_EQ(ibv_reg_mr(nullptr, r.abuf.data(), 8, 0), nullptr);
  // Objects in use cannot go; once their users are gone they can, and stay dead.
  EXPECT_EQ(ibv_destroy_cq(r.b.send_cq), EBUSY);
  EXPECT_EQ(ibv_dealloc_pd(r.b.pd), EBUSY);
  EXPECT_EQ(ibv_destroy_cq(r.a.send_cq), 0);
  EXPECT_EQ(ibv_poll_cq(r.a.send_cq, 1, nullptr), -EINVAL);
  EXPECT_EQ(ibv_dealloc_pd(r.a.pd), EBUSY);  // its MR is still registered
  ASSERT_EQ(ibv_dereg_mr(r.amr), 0);
  EXPECT_EQ(ibv_dealloc_pd(r.a.pd), 0);
  EXPECT_EQ(ibv_reg_mr(r.a.pd, r.abuf.data(), 8, 0), nullptr);
  EXPECT_EQ(errno, EINVAL);
  // The destroyed QP's peer: its requests are dropped, then the retries run out.
  post1(r.b.qp, IBV_WR_RDMA_WRITE, r.bbuf.data(), 8, r.bmr->lkey, addr(r.abuf.data()), 0);
  r.c.run();
  EXPECT_EQ(r.one(r.b.send_cq).status, IBV_WC_RETRY_EXC_ERR);
}

TEST(VerbsMisuse, OutOfRangeSizesAndBadRequests) {
  Rig r;
  ibv_pd* pd = r.a.pd;
  EXPECT_EQ(ibv_reg_mr(pd, r.abuf.data(), 0, IBV_ACCESS_LOCAL_WRITE), nullptr);
  EXPECT_EQ(ibv_reg_mr(pd, r.abuf.data(), 8, IBV_ACCESS_REMOTE_WRITE), nullptr);  // needs local write
  EXPECT_EQ(ibv_reg_mr(pd, r.abuf.data(), 8, IBV_ACCESS_REMOTE_ATOMIC), nullptr);
  EXPECT_EQ(errno, EINVAL);
  EXPECT_EQ(ibv_reg_mr(pd, reinterpret_cast<void*>(UINTPTR_MAX - 4), 8, 0), nullptr);  // wraps
  EXPECT_EQ(ibv_create_cq(r.a.ctx, 0), nullptr);
  EXPECT_EQ(ibv_create_cq(r.a.ctx, 1 << 30), nullptr);
  ibv_qp_init_attr qa;
  qa.send_cq = qa.recv_cq = r.a.send_cq;
  qa.cap = ibv_qp_cap{1u << 20, 16, 1, 1, 0};
  EXPECT_EQ(ibv_create_qp(pd, &qa), nullptr);
  qa.cap = ibv_qp_cap{16, 16, 99, 1, 0};
  EXPECT_EQ(ibv_create_qp(pd, &qa), nullptr);
  qa.cap = ibv_qp_cap{16, 16, 1, 1, 1u << 20};
  EXPECT_EQ(ibv_create_qp(pd, &qa), nullptr);
  qa.cap = ibv_qp_cap{16, 16, 1, 1, 0};
  qa.qp_type = IBV_QPT_UD;
  EXPECT_EQ(ibv_create_qp(pd, &qa), nullptr);
  EXPECT_EQ(errno, EOPNOTSUPP);

  // Posting: inline longer than max_inline_data (64), too many SGEs, an atomic not 8 bytes,
  // an unknown opcode, a null SGE list: EINVAL and *bad_wr names the WR.
  std::vector<std::uint8_t> big(100);
  EXPECT_EQ(post1(r.a.qp, IBV_WR_SEND, big.data(), 100, 0, 0, 0, IBV_SEND_INLINE), EINVAL);
  ibv_sge sges[5];
  ibv_send_wr wr;
  wr.sg_list = sges;
  wr.num_sge = 5;
  ibv_send_wr* bad = nullptr;
  EXPECT_EQ(ibv_post_send(r.a.qp, &wr, &bad), EINVAL);
  EXPECT_EQ(bad, &wr);
  EXPECT_EQ(post1(r.a.qp, IBV_WR_ATOMIC_FETCH_AND_ADD, r.abuf.data(), 4, r.amr->lkey, addr(r.bbuf.data()), 0), EINVAL);
  EXPECT_EQ(post1(r.a.qp, static_cast<ibv_wr_opcode>(42), r.abuf.data(), 4, r.amr->lkey), EINVAL);
  EXPECT_EQ(post1(r.a.qp, IBV_WR_RDMA_READ, r.abuf.data(), 4, r.amr->lkey, 0, 0, IBV_SEND_INLINE), EINVAL);
  wr.sg_list = nullptr;
  wr.num_sge = 1;
  EXPECT_EQ(ibv_post_send(r.a.qp, &wr, &bad), EINVAL);
  // A list stops at the first bad WR; the ones before it are posted.
  ibv_sge ok{addr(r.abuf.data()), 8, r.amr->lkey};
  ibv_send_wr w2;
  w2.sg_list = &ok;
  w2.num_sge = 1;
  w2.opcode = IBV_WR_RDMA_WRITE;
  w2.wr.rdma.remote_addr = addr(r.bbuf.data());
  w2.wr.rdma.rkey = r.bmr->rkey;
  w2.send_flags = IBV_SEND_SIGNALED;
  ibv_send_wr w1 = w2;
  w1.next = &w2;
  w2.opcode = static_cast<ibv_wr_opcode>(99);
  EXPECT_EQ(ibv_post_send(r.a.qp, &w1, &bad), EINVAL);
  EXPECT_EQ(bad, &w2);
  // A send queue of 256 is full at the 257th WR.
  int posted = 1;
  while (post1(r.a.qp, IBV_WR_RDMA_WRITE, r.abuf.data(), 8, r.amr->lkey, addr(r.bbuf.data()), r.bmr->rkey, 0) == 0)
    ++posted;
  EXPECT_EQ(posted, 256);
  EXPECT_EQ(post1(r.a.qp, IBV_WR_RDMA_WRITE, r.abuf.data(), 8, r.amr->lkey, addr(r.bbuf.data()), r.bmr->rkey), ENOMEM);
  // A remote range that wraps around the address space, and a message over max_msg_sz.
  r.c.run();
  ibv_wc wc;
  while (ibv_poll_cq(r.a.send_cq, 1, &wc) == 1) EXPECT_EQ(wc.status, IBV_WC_SUCCESS);
  post1(r.a.qp, IBV_WR_RDMA_WRITE, r.abuf.data(), 64, r.amr->lkey, UINT64_MAX - 8, r.bmr->rkey);
  r.c.run();
  EXPECT_EQ(r.one(r.a.send_cq).status, IBV_WC_REM_ACCESS_ERR);
  Rig s;
  ibv_sge two[2] = {{addr(s.abuf.data()), 0x80000000u, s.amr->lkey}, {addr(s.abuf.data()), 0x80000000u, s.amr->lkey}};
  ibv_send_wr w3;
  w3.sg_list = two;
  w3.num_sge = 2;
  w3.opcode = IBV_WR_SEND;
  w3.send_flags = IBV_SEND_SIGNALED;
  EXPECT_EQ(ibv_post_send(s.a.qp, &w3, &bad), 0);
  s.c.run();
  EXPECT_EQ(s.one(s.a.send_cq).status, IBV_WC_LOC_LEN_ERR);
}

Task nothing() { co_return; }

TEST(VerbsMisuse, PostingInTheWrongState) {
  Cluster c{ClusterConfig{}};
  Endpoint a = make_endpoint(c.open_device(0));
  std::vector<std::uint8_t> buf(64);
  ibv_mr* mr = ibv_reg_mr(a.pd, buf.data(), buf.size(), IBV_ACCESS_LOCAL_WRITE);
  EXPECT_EQ(recv1(a.qp, buf.data(), 8, mr->lkey), EINVAL);  // RESET
  EXPECT_EQ(post1(a.qp, IBV_WR_SEND, buf.data(), 8, mr->lkey), EINVAL);
  ibv_qp_attr at;
  at.qp_state = IBV_QPS_INIT;
  at.port_num = 1;
  ASSERT_EQ(ibv_modify_qp(a.qp, &at, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), 0);
  EXPECT_EQ(recv1(a.qp, buf.data(), 8, mr->lkey), 0);  // INIT accepts receives...
  EXPECT_EQ(post1(a.qp, IBV_WR_SEND, buf.data(), 8, mr->lkey), EINVAL);  // ...not sends
  EXPECT_EQ(c.open_device(5), nullptr);
  EXPECT_THROW(c.spawn(9, nothing()), std::invalid_argument);
}

}  // namespace
}  // namespace rdmasim::verbs
