// Unit tests of the verbs layer's components, each driven on its own: MrTable (keys, access
// rules, ranges), CompletionQueue (ring, overrun, waiter, ledger of the wait), the QP state
// machine's attribute masks, the RC timer encodings, VerbsPaths (segments = lat's paths),
// VerbsCpuAccount, and the program model (sleep, nested tasks, exceptions, stuck programs).
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "model/path.hpp"
#include "verbs/completion_queue.hpp"
#include "verbs/cpu_account.hpp"
#include "verbs/memory_region.hpp"
#include "verbs/qp_state.hpp"
#include "sim/rnr_timer.hpp"
#include "verbs/verbs_paths.hpp"
#include "path/link.hpp"

namespace rdmasim::verbs {
namespace {

TEST(VerbsMrTable, KeysRulesAndRanges) {
  MrTable t;
  ibv_pd pd, other;
  std::vector<std::uint8_t> buf(100);
  int err = 0;
  EXPECT_EQ(t.reg(nullptr, &pd, buf.data(), 100, IBV_ACCESS_REMOTE_WRITE, &err), nullptr);
  EXPECT_EQ(err, EINVAL);
  EXPECT_EQ(t.reg(nullptr, &pd, buf.data(), 100, 1u << 12, &err), nullptr);
  ibv_mr* mr = t.reg(nullptr, &pd, buf.data(), 100, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ, &err);
  ASSERT_NE(mr, nullptr);
  EXPECT_EQ(mr->lkey, mr->rkey);
  EXPECT_EQ(mr->lkey, 1u);  // slot 0, first registration
  const std::uint64_t base = reinterpret_cast<std::uintptr_t>(buf.data());
  std::uint8_t* p = nullptr;
  EXPECT_EQ(t.check(mr->lkey, &pd, base + 10, 90, IBV_ACCESS_REMOTE_READ, &p), MrCheck::ok);
  EXPECT_EQ(p, buf.data() + 10);
  EXPECT_EQ(t.check(mr->lkey, &pd, base + 10, 91, 0, &p), MrCheck::out_of_range);
  EXPECT_EQ(t.check(mr->lkey, &pd, base - 1, 1, 0, &p), MrCheck::out_of_range);
  EXPECT_EQ(t.check(mr->lkey, &pd, UINT64_MAX, 2, 0, &p), MrCheck::out_of_range);
  EXPECT_EQ(t.check(mr->lkey, &pd, base, 8, IBV_ACCESS_REMOTE_WRITE, &p), MrCheck::no_access);
  EXPECT_EQ(t.check(mr->lkey, &other, base, 8, 0, &p), MrCheck::wrong_pd);
  EXPECT_EQ(t.check(mr->lkey + 1, &pd, base, 8, 0, &p), MrCheck::bad_key);
  EXPECT_EQ(t.count(&pd), 1);
  const std::uint32_t old = mr->lkey;
  EXPECT_EQ(t.dereg(mr), 0);
  EXPECT_EQ(t.dereg(mr), EINVAL);
  EXPECT_EQ(t.find(old), nullptr);
  ibv_mr* again = t.reg(nullptr, &pd, buf.data(), 100, 0, &err);
  EXPECT_EQ(again, mr);         // the slot is reused...
  EXPECT_EQ(again->lkey, 2u);   // ...with a new tag
  EXPECT_EQ(t.find(old), nullptr);
}

struct FakeWaiter : CompletionQueue::Waiter {
  void completion_arrived(CompletionQueue&, void* c) override { cookie = c; ++calls; }
  void* cookie = nullptr;
  int calls = 0;
};

TEST(VerbsCompletionQueue, RingOverrunWaiterAndLedger) {
  CompletionQueue cq(nullptr, 2);
  FakeWaiter w;
  int token;
  cq.set_waiter(&w, &token);
  ibv_wc wc;
  wc.wr_id = 1;
  wc.ledger.add(Category::nic, Time::ns(100));
  EXPECT_TRUE(cq.push(wc, Time::ns(100)));
  EXPECT_EQ(w.calls, 1);
  EXPECT_EQ(w.cookie, &token);
  EXPECT_EQ(cq.waiter(), nullptr);  // told once
  wc.wr_id = 2;
  EXPECT_TRUE(cq.push(wc, Time::ns(150)));
  wc.wr_id = 3;
  EXPECT_FALSE(cq.push(wc, Time::ns(160)));
  EXPECT_EQ(cq.overruns(), 1u);
  Ledger poll;
  poll.add(Category::driver, Time::ns(50));
  ibv_wc out[4];
  ASSERT_EQ(cq.pop(4, out, Time::ns(200), poll), 2);
  EXPECT_EQ(out[0].wr_id, 1u);
  EXPECT_EQ(out[1].wr_id, 2u);
  EXPECT_EQ(out[0].ledger[Category::queue], Time::ns(100));  // written at 100, polled at 200
  EXPECT_EQ(out[1].ledger[Category::queue], Time::ns(50));
  EXPECT_EQ(out[0].ledger.total(), Time::ns(250));  // post at 0 .. poll end at 250
  EXPECT_EQ(cq.size(), 0);
}

TEST(VerbsQpState, TransitionsNeedTheirAttributes) {
  ibv_qp_attr a;
  ibv_qp_state next;
  const int init = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
  const int rtr = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
  const int rts = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                  IBV_QP_TIMEOUT;
  a.port_num = 1;
  a.ah_attr.dlid = 2;
  a.qp_state = IBV_QPS_INIT;
  EXPECT_EQ(check_modify(IBV_QPS_RESET, a, init, &next), 0);
  EXPECT_EQ(next, IBV_QPS_INIT);
  EXPECT_EQ(check_modify(IBV_QPS_RESET, a, init & ~IBV_QP_PORT, &next), EINVAL);   // missing
  EXPECT_EQ(check_modify(IBV_QPS_RESET, a, init | IBV_QP_TIMEOUT, &next), EINVAL); // not allowed
  a.qp_state = IBV_QPS_RTR;
  EXPECT_EQ(check_modify(IBV_QPS_RESET, a, rtr, &next), EINVAL);  // skipping INIT
  EXPECT_EQ(check_modify(IBV_QPS_INIT, a, rtr, &next), 0);
  EXPECT_EQ(check_modify(IBV_QPS_INIT, a, rtr & ~IBV_QP_MIN_RNR_TIMER, &next), EINVAL);
  EXPECT_EQ(check_modify(IBV_QPS_INIT, a, rtr | IBV_QP_TIMEOUT, &next), EINVAL);  // timeout is RTR->RTS
  a.qp_state = IBV_QPS_RTS;
  EXPECT_EQ(check_modify(IBV_QPS_RTR, a, rts, &next), 0);
  EXPECT_EQ(check_modify(IBV_QPS_RTR, a, rts & ~IBV_QP_RNR_RETRY, &next), EINVAL);
  EXPECT_EQ(check_modify(IBV_QPS_INIT, a, rts, &next), EINVAL);
  a.retry_cnt = 8;
  EXPECT_EQ(check_modify(IBV_QPS_RTR, a, rts, &next), EINVAL);  // 3-bit field
  a.retry_cnt = 7;
  a.port_num = 2;
  a.qp_state = IBV_QPS_INIT;
  EXPECT_EQ(check_modify(IBV_QPS_RESET, a, init, &next), EINVAL);  // one port
  for (ibv_qp_state s : {IBV_QPS_RESET, IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS, IBV_QPS_ERR}) {
    a.qp_state = IBV_QPS_ERR;
    EXPECT_EQ(check_modify(s, a, IBV_QP_STATE, &next), 0);
    EXPECT_EQ(next, IBV_QPS_ERR);
    a.qp_state = IBV_QPS_RESET;
    EXPECT_EQ(check_modify(s, a, IBV_QP_STATE, &next), 0);
    EXPECT_EQ(check_modify(s, a, IBV_QP_STATE | IBV_QP_PORT, &next), EINVAL);
  }
  a.qp_state = IBV_QPS_RTS;
  EXPECT_EQ(check_modify(IBV_QPS_ERR, a, rts, &next), EINVAL);
  a.cur_qp_state = IBV_QPS_INIT;
  EXPECT_EQ(check_modify(IBV_QPS_RTR, a, rts | IBV_QP_CUR_STATE, &next), EINVAL);  // wrong current state
}

TEST(VerbsRnrTimer, IbaTableAndAckTimeout) {
  EXPECT_EQ(rnr_timer_delay(0), Time::ps(655'360'000'000));
  EXPECT_EQ(rnr_timer_delay(1), Time::us(10));
  EXPECT_EQ(rnr_timer_delay(12), Time::us(640));
  EXPECT_EQ(rnr_timer_delay(14), Time::us(1280));
  EXPECT_EQ(rnr_timer_delay(31), Time::us(491'520));
  for (std::uint8_t i = 2; i < 32; ++i) EXPECT_GT(rnr_timer_delay(i), rnr_timer_delay(static_cast<std::uint8_t>(i - 1)));
  EXPECT_THROW(rnr_timer_delay(32), std::out_of_range);
  EXPECT_FALSE(ack_timeout(0).has_value());
  EXPECT_EQ(*ack_timeout(1), Time::ps(8'192'000));
  EXPECT_EQ(*ack_timeout(14), Time::ps(4'096'000) * 16384);  // ~67 ms, perftest's default
}

std::vector<std::string> labels(std::initializer_list<const PathSpec*> parts) {
  std::vector<std::string> v;
  for (const PathSpec* p : parts)
    for (const StageSpec& s : p->stages) v.push_back(s.label);
  return v;
}
std::vector<std::string> labels_of(const PathSpec& p) { return labels({&p}); }

TEST(VerbsPathsTest, SegmentsAreLatsPathsStageForStage) {
  for (TestKind t : {TestKind::write, TestKind::send, TestKind::read})
    for (std::int64_t size : {2, 8192}) {
      LatConfig c;
      c.test = t;
      c.size = Bytes(size);
      const ResolvedToggles tg = resolve(c);
      const Link link(c.profile.link);
      const VerbsPaths v(c.profile, c.link_layer, c.mtu, [link](PathSpec& p, int s) { link.append(p, s); });
      const PathSpec lat = build_path(c, tg, 0);
      const PathSpec post = v.post(tg.inline_data), poll = VerbsPaths::poll(c.profile);
      std::vector<std::string> want = labels_of(lat), got;
      if (t == TestKind::read) {
        const PathSpec req = v.request(RequestKind::read), resp = v.response(), cqe = v.cqe(0);
        got = labels({&post, &req, &resp, &cqe, &poll});
      } else {
        const RequestKind k = t == TestKind::send ? (tg.inline_data ? RequestKind::send_inline : RequestKind::send)
                                                  : (tg.inline_data ? RequestKind::write_inline : RequestKind::write);
        // The request up to the payload's landing is lat's; its ACK leg follows.
        PathSpec req = v.request(k), ack;
        const auto landed = std::find_if(req.stages.begin(), req.stages.end(),
                                         [](const StageSpec& s) { return s.label == "B.nic.reassemble"; });
        ASSERT_NE(landed, req.stages.end());
        ack.stages.assign(landed + 1, req.stages.end());
        req.stages.erase(landed + 1, req.stages.end());
        EXPECT_EQ(labels_of(ack), labels_of(v.ack()));
        const PathSpec cqe = v.cqe(1);
        got = t == TestKind::send ? labels({&post, &req, &cqe}) : labels({&post, &req});
        for (const StageSpec& s : poll.stages) got.push_back("B." + s.label.substr(2));  // poll runs on the far side
      }
      EXPECT_EQ(got, want) << to_string(t) << " " << size;
    }
  // The ACK has no arbitration jitter stage even when the profile has jitter.
  Profile p;
  p.nic.tx_jitter = Time::ns(100);
  const Link link(p.link);
  const VerbsPaths v(p, LinkLayer::roce, Bytes(4096), [link](PathSpec& q, int s) { link.append(q, s); });
  for (const StageSpec& s : v.ack().stages) EXPECT_EQ(s.cost.jitter, Time::zero()) << s.label;
}

TEST(VerbsPathsTest, RequestsRunOnTheRcTransportAndWritesCarryTheirAck) {
  LatConfig c;
  c.topology = LatTopology::fabric;
  c.fabric.topology = "back-to-back";
  const FabricNetwork net(c);
  const VerbsPaths v(c.profile, c.link_layer, c.mtu, net.appender());
  auto roles = [](const PathSpec& p) {
    std::vector<NetRole> r;
    for (const StageSpec& s : p.stages)
      if (s.kind == StageKind::network) r.push_back(s.role);
    return r;
  };
  for (RequestKind k : {RequestKind::write, RequestKind::write_inline, RequestKind::send, RequestKind::send_inline})
    EXPECT_EQ(roles(v.request(k)), (std::vector<NetRole>{NetRole::rc_data, NetRole::rc_ack}));
  EXPECT_EQ(roles(v.request(RequestKind::read)), std::vector<NetRole>{NetRole::rc_data});
  EXPECT_EQ(roles(v.response()), std::vector<NetRole>{NetRole::plain});
  EXPECT_EQ(roles(v.ack()), std::vector<NetRole>{NetRole::plain});
}

TEST(VerbsCpuAccountTest, ChargesAndSpinWithoutOverlap) {
  VerbsCpuAccount a;
  a.post_send(Time::ns(0), Time::ns(40));
  a.post_recv(Time::ns(0), Time::ns(40));  // queued behind the post_send: busy until 80
  a.spin(Time::ns(0), Time::ns(500));      // spinning only once the core is free
  a.poll(Time::ns(550), Time::ns(50));
  const VerbsCpuUsage& u = a.usage();
  EXPECT_EQ(u.post_send, Time::ns(40));
  EXPECT_EQ(u.post_recv, Time::ns(40));
  EXPECT_EQ(u.spin, Time::ns(420));
  EXPECT_EQ(u.poll, Time::ns(50));
  EXPECT_EQ(u.total(), Time::ns(550));
  EXPECT_EQ(u.post_sends + u.post_recvs + u.polls, 3u);
}

Task nap(ibv_context* c, Time d, std::vector<Time>* at) {
  co_await sleep(c, d);
  at->push_back(now(c));
}
Task twice(ibv_context* c, std::vector<Time>* at) {
  co_await nap(c, Time::us(1), at);
  co_await nap(c, Time::us(2), at);
}
Task thrower(ibv_context* c) {
  co_await sleep(c, Time::ns(5));
  throw std::runtime_error("application failed");
}
Task stuck(ibv_cq* cq) {
  ibv_wc wc;
  co_await poll(cq, 1, &wc);
}

TEST(VerbsProgram, SleepNestedTasksExceptionsAndStuckPrograms) {
  Cluster c{ClusterConfig{}};
  std::vector<Time> at;
  c.spawn(0, twice(c.open_device(0), &at));
  c.spawn(1, nap(c.open_device(1), Time::ns(500), &at));
  EXPECT_TRUE(c.run());
  EXPECT_EQ(at, (std::vector<Time>{Time::ns(500), Time::us(1), Time::us(3)}));
  EXPECT_EQ(c.now(), Time::us(3));
  EXPECT_EQ(c.cpu(0).total(), Time::zero());  // sleeping is not CPU time

  Cluster d{ClusterConfig{}};
  d.spawn(0, thrower(d.open_device(0)));
  EXPECT_THROW(d.run(), std::runtime_error);

  Cluster e{ClusterConfig{}};
  ibv_cq* cq = ibv_create_cq(e.open_device(1), 4);
  e.spawn(1, stuck(cq));
  EXPECT_FALSE(e.run());
  EXPECT_EQ(e.waiting(), "host 1: poll_cq \n");
  ClusterConfig one;
  one.hosts = 1;
  EXPECT_THROW(Cluster{one}, std::invalid_argument);
}

}  // namespace
}  // namespace rdmasim::verbs

#include "../examples/verbs_common.hpp"

namespace rdmasim::verbs {
namespace {

// The README's "Verbs API" example, as written there.
TEST(VerbsReadme, ExampleRunsAndCopiesTheBytes) {
  Cluster cluster{ClusterConfig{}};
  example::Endpoint a = example::make_endpoint(cluster.open_device(0));
  example::Endpoint b = example::make_endpoint(cluster.open_device(1));
  example::connect_pair(a, b);
  std::vector<char> src(64, 'x'), dst(64);
  ibv_mr* smr = ibv_reg_mr(a.pd, src.data(), 64, 0);
  ibv_mr* dmr = ibv_reg_mr(b.pd, dst.data(), 64, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
  ibv_wc got;
  auto app = [&]() -> Task {
    example::post1(a.qp, IBV_WR_RDMA_WRITE, src.data(), 64, smr->lkey, example::addr(dst.data()), dmr->rkey);
    ibv_wc wc;
    co_await poll(a.send_cq, 1, &wc);
    got = wc;
  };
  cluster.spawn(0, app());
  EXPECT_TRUE(cluster.run());
  EXPECT_EQ(got.status, IBV_WC_SUCCESS);
  EXPECT_EQ(dst, src);
  EXPECT_EQ(got.ledger.total(), cluster.now());  // posted at 0, polled at the end
}

}  // namespace
}  // namespace rdmasim::verbs
