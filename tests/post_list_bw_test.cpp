// Batching: posting lists of 32 WQEs with one doorbell raises the
// small-message rate by the doorbell cost saved per WQE, and the client's cost per message
// shows where (CPU: the doorbell paid once per list; PCIe: one doorbell and one WQE fetch
// instead of a BlueFlame write per WQE); unsignaled completions (--cq-mod) save the CQE write
// and the poll. Also: a list of one is the plain bw test to the picosecond, bad sizes fail.
#include "workload/post_list_bw.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "host/pcie.hpp"
#include "rdmasim/bandwidth.hpp"

using namespace rdmasim;

namespace {

// What the CPU costs per message is what most of these tests measure: the NIC's send engine
// (nic.wqe_process) is taken out of the way unless a test puts it back.
BwConfig small(int list, int cq_mod, std::int64_t iters = 20000) {
  BwConfig c;
  c.base.profile.nic.wqe_process = Time::zero();
  c.base.size = Bytes(2);
  c.base.iters = iters;
  c.post_list = list;
  c.cq_mod = cq_mod;
  return c;
}

struct ClientRun {
  std::vector<std::int64_t> posted, completed;
  std::int64_t lists = 0, signaled = 0, violations = 0;
};

ClientRun run_client(const BwConfig& c) {
  const ResolvedToggles t = resolve(c.base);
  const std::vector<PostListPaths> paths(1, build_post_list_paths(c.base, t, {}, c.post_list));
  SimWorld w(c.base.seed);
  PostListBw test(w, paths, {c.base.size, c.base.iters, c.tx_depth, c.post_list, c.cq_mod});
  test.run();
  return {test.posted, test.completed, test.lists, test.signaled, test.violations};
}

}  // namespace

TEST(PostList, ListOfOneIsTheAckedPathStageForStage) {
  const BwConfig c = small(1, 1);
  const ResolvedToggles t = resolve(c.base);
  const PathSpec whole = build_acked_path(c.base, t, {});
  const PostListPaths cut = build_post_list_paths(c.base, t, {}, 1);
  ASSERT_EQ(cut.post.stages.size() + cut.send.stages.size(), whole.stages.size());
  for (std::size_t i = 0; i < whole.stages.size(); ++i) {
    const StageSpec& s = i < cut.post.stages.size() ? cut.post.stages[i] : cut.send.stages[i - cut.post.stages.size()];
    EXPECT_EQ(s.label, whole.stages[i].label);
    EXPECT_EQ(s.cost.eval(Bytes(2), Bytes(2), Bytes(102)), whole.stages[i].cost.eval(Bytes(2), Bytes(2), Bytes(102)));
    EXPECT_EQ(s.signaled_only, whole.stages[i].signaled_only);
  }
  // Only the requester's completion (CQE write, poll) is skipped by unsignaled WQEs.
  std::vector<std::string> skipped;
  for (const StageSpec& s : cut.send.stages)
    if (s.signaled_only) skipped.push_back(s.label);
  EXPECT_EQ(skipped, (std::vector<std::string>{"A.pcie.cqe_write.tlp", "A.pcie.cqe_write.latency", "A.verbs.poll"}));
}

TEST(PostList, ListOfOneIsThePlainBwTestToThePicosecond) {
  BwConfig c = small(1, 1, 3000);
  const BwResult plain = run_bandwidth(c);
  const ClientRun r = run_client(c);
  ASSERT_EQ(static_cast<std::int64_t>(r.completed.size()), plain.completed);
  EXPECT_EQ(static_cast<double>(r.completed.back() - r.posted.front()) / 1e12, plain.seconds);
  EXPECT_EQ(r.violations, 0);
}

TEST(PostList, ThirtyTwoWqesPerDoorbellRaiseTheMessageRateByTheDoorbellSaved) {
  const Profile p;
  const BwResult one = run_bandwidth(small(1, 1));
  const BwResult list = run_bandwidth(small(32, 1));
  EXPECT_EQ(one.invariant_violations, 0);
  EXPECT_EQ(list.invariant_violations, 0);
  // 2-byte WRITEs are CPU-bound: post (WQE build + doorbell) and poll per message.
  const Time per_one = p.verbs.post + p.verbs.poll_detect;                                         // 90 ns
  const Time per_list = p.verbs.post - p.verbs.doorbell + p.verbs.poll_detect;                     // + doorbell / 32
  EXPECT_EQ(one.cost.cpu_ps, static_cast<double>(per_one.count_ps()));
  EXPECT_EQ(list.cost.cpu_ps, static_cast<double>(per_list.count_ps()) + static_cast<double>(p.verbs.doorbell.count_ps()) / 32);
  EXPECT_EQ(list.cost.cpu_ps, 70'625.0);
  EXPECT_EQ(one.lists, 20000);
  EXPECT_EQ(list.lists, 625);  // 20000 = 625 x 32
  // PCIe towards the NIC: a BlueFlame write (WQE with inline data) per WQE becomes one 8 B
  // doorbell and one fetch of the whole list per 32.
  const PcieLink pcie(p.pcie);
  auto tt = [&](std::int64_t b) { return static_cast<double>(pcie.transfer_time(Bytes(b)).count_ps()); };
  EXPECT_EQ(one.cost.pcie_down_ps, tt(64 + 2));                        // BlueFlame: WQE + 2 B inline
  EXPECT_EQ(list.cost.pcie_down_ps, (tt(8) + tt(32 * (64 + 2))) / 32);  // doorbell + one list fetch
  EXPECT_LT(list.cost.pcie_down_ps, one.cost.pcie_down_ps);
  // Without BlueFlame a single WQE pays a doorbell and its own fetch.
  BwConfig nobf = small(1, 1);
  nobf.base.profile.nic.blueflame = false;
  EXPECT_EQ(run_bandwidth(nobf).cost.pcie_down_ps, tt(8) + tt(64 + 2));
  // Steady state, measured: completions of consecutive lists are exactly 32 x the CPU cost apart.
  const ClientRun a = run_client(small(1, 1)), b = run_client(small(32, 1));
  for (std::size_t i : {3'200u, 6'400u, 9'600u}) {
    EXPECT_EQ(a.completed[i + 3200] - a.completed[i], 3200 * per_one.count_ps());
    EXPECT_EQ(b.completed[i + 3200] - b.completed[i], 3200 * 70'625);
  }
  EXPECT_GT(list.msg_rate_mpps, one.msg_rate_mpps * 1.27);
}

TEST(PostList, UnsignaledCompletionsSaveTheCqeAndThePoll) {
  const Profile p;
  const BwResult plain = run_bandwidth(small(1, 1));
  const BwResult mod = run_bandwidth(small(1, 32));
  EXPECT_EQ(mod.invariant_violations, 0);
  EXPECT_EQ(mod.completed, 20000);
  EXPECT_EQ(mod.signaled, 20000 / 32);
  EXPECT_EQ(mod.lists, 20000);
  // The CPU polls one CQE per 32 WQEs: post + poll / 32 per message.
  EXPECT_EQ(mod.cost.cpu_ps, static_cast<double>(p.verbs.post.count_ps()) + static_cast<double>(p.verbs.poll_detect.count_ps()) / 32);
  // PCIe towards the host carries 1/32 of the CQE writes (nothing else goes up for inline WRITEs).
  EXPECT_DOUBLE_EQ(mod.cost.pcie_up_ps * 32, plain.cost.pcie_up_ps);
  EXPECT_GT(mod.msg_rate_mpps, plain.msg_rate_mpps * 2);
}

TEST(PostList, ShortLastListAndLastWqeSignaled) {
  const ClientRun r = run_client(small(32, 7, 100));  // lists 32, 32, 32, 4; WQEs 6, 13, ..., 97 and 99 signaled
  EXPECT_EQ(r.violations, 0);
  EXPECT_EQ(r.lists, 4);
  EXPECT_EQ(r.signaled, 100 / 7 + 1);
  ASSERT_EQ(r.completed.size(), 100u);
  for (std::size_t i = 1; i < r.completed.size(); ++i) EXPECT_LE(r.completed[i - 1], r.completed[i]);
  // The application learns of the unsignaled WQEs with the next signaled one.
  EXPECT_EQ(r.completed[0], r.completed[6]);
  EXPECT_LT(r.completed[6], r.completed[7]);
  // A list's WQEs share its post time.
  EXPECT_EQ(r.posted[0], r.posted[31]);
}

TEST(PostList, OverAFabricWithTheRcTransport) {
  BwConfig c = small(16, 16, 2000);
  c.base.topology = LatTopology::fabric;
  c.base.fabric.topology = "single-switch";
  const BwResult r = run_bandwidth(c);
  EXPECT_EQ(r.invariant_violations, 0);
  EXPECT_EQ(r.completed, 2000);
  ASSERT_TRUE(r.rc.has_value());
  EXPECT_EQ(r.rc->status, "ok");
  ASSERT_TRUE(r.fabric.has_value());
  EXPECT_TRUE(r.fabric->conserved);
}

TEST(PostList, ListOrModerationLargerThanTheSqDepthIsAClearError) {
  BwConfig c = small(129, 1, 1000);
  try {
    run_bandwidth(c);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "--post-list 129 is larger than the SQ depth (--tx-depth 128): the list would never fit in the send queue");
  }
  c = small(1, 200, 1000);
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);
  c = small(0, 1, 1000);
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);
  c = small(4, 1, 1000);
  c.base.toggles.kernel_bypass = false;
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);
}

// The NIC's send engine: one QP's 2-byte WRITEs, with the CPU's cost per message (post +
// poll / 32 = 41.6 ns) below it, complete exactly nic.wqe_process (130 ns) apart. Each QP has
// an engine of its own: two QPs (one CQE each, 90 ns of CPU per message) are bound by the CPU,
// not by one shared engine.
TEST(PostList, EachQpsSendEngineBoundsItsMessageRate) {
  const Profile p;
  BwConfig c = small(1, 32);
  c.base.profile.nic.wqe_process = p.nic.wqe_process;
  const ClientRun r = run_client(c);
  for (std::size_t i : {3'200u, 6'400u, 9'600u})
    EXPECT_EQ(r.completed[i + 3200] - r.completed[i], 3200 * p.nic.wqe_process.count_ps());
  const BwResult engine_bound = run_bandwidth(c);
  EXPECT_NEAR(engine_bound.msg_rate_mpps, 1e6 / static_cast<double>(p.nic.wqe_process.count_ps()), 0.01);
  EXPECT_EQ(engine_bound.cost.engine_ps, static_cast<double>(p.nic.wqe_process.count_ps()));
  EXPECT_EQ(engine_bound.cost.bound_mpps(), 1e6 / static_cast<double>(p.nic.wqe_process.count_ps()));
  EXPECT_EQ(run_bandwidth(small(32, 1)).cost.bound_mpps(), 1e6 / 70'625.0);  // no engine: the CPU
  c.cq_mod = 1;
  const double one = run_bandwidth(c).msg_rate_mpps;
  EXPECT_NEAR(one, 1e6 / static_cast<double>(p.nic.wqe_process.count_ps()), 0.01);
  c.qps = 2;
  const double cpu_bound = 1e6 / static_cast<double>((p.verbs.post + p.verbs.poll_detect).count_ps());
  EXPECT_NEAR(run_bandwidth(c).msg_rate_mpps, cpu_bound, 0.02 * cpu_bound);
  EXPECT_GT(cpu_bound, 1.4 * one);
}

// perftest's message-rate recipe: -q with -Q (and -l). Each QP has its own send engine and
// window, one thread posts to all of them on the host's one core: two QPs send twice one QP's
// engine-bound rate, many QPs reach the core's bound (the CPU per message), and every QP
// completes all of its iterations in order.
TEST(PostList, SeveralQpsWithCqModerationShareTheCoreNotTheEngine) {
  const Profile p;
  BwConfig c = small(1, 100);
  c.base.profile.nic.wqe_process = p.nic.wqe_process;
  const BwResult one = run_bandwidth(c);
  EXPECT_NEAR(one.msg_rate_mpps, 1e6 / static_cast<double>(p.nic.wqe_process.count_ps()), 0.01);
  c.qps = 2;
  const BwResult two = run_bandwidth(c);
  EXPECT_EQ(two.completed, 2 * c.base.iters);
  EXPECT_EQ(two.invariant_violations, 0);
  EXPECT_GT(two.msg_rate_mpps, 1.99 * one.msg_rate_mpps);
  c.qps = 8;
  const BwResult eight = run_bandwidth(c);
  EXPECT_EQ(eight.completed, 8 * c.base.iters);
  const double cpu_bound = 1e12 / eight.cost.cpu_ps / 1e6;  // the core busy per message
  EXPECT_LT(cpu_bound, 4 * one.msg_rate_mpps);               // below four engines: the core binds
  EXPECT_NEAR(eight.msg_rate_mpps, cpu_bound, 0.01 * cpu_bound);
  // With lists the core's cost per message falls and more QPs' engines are kept busy.
  c.post_list = 32;
  const BwResult listed = run_bandwidth(c);
  EXPECT_EQ(listed.completed, 8 * c.base.iters);
  EXPECT_GT(listed.msg_rate_mpps, 1.5 * eight.msg_rate_mpps);
  // Each QP's window holds: perftest's -t is per QP.
  c.tx_depth = 32;
  c.post_list = 64;
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);
}

// --cores: QP q's CPU work on core q mod cores. Sixteen QPs of 2-byte WRITEs in lists of 32
// are bound by one core (post and poll per message); on two cores they do the same work, so
// the summed busy time is the same to the picosecond, the cost per message and core halves,
// and twice the messages go out per second.
TEST(PostList, QpsOnSeveralCoresPostInParallel) {
  const Profile p;
  BwConfig c = small(32, 32);
  c.base.profile.nic.wqe_process = p.nic.wqe_process;
  c.qps = 16;
  const BwResult one = run_bandwidth(c);
  c.cores = 2;
  const BwResult two = run_bandwidth(c);
  EXPECT_EQ(one.hosts[0].cores, 1);
  EXPECT_EQ(two.hosts[0].cores, 2);
  EXPECT_EQ(two.completed, 16 * c.base.iters);
  EXPECT_EQ(two.invariant_violations, 0);
  EXPECT_EQ(two.hosts[0].cpu_busy, one.hosts[0].cpu_busy);
  EXPECT_EQ(two.cost.cpu_ps, one.cost.cpu_ps / 2);
  EXPECT_NEAR(one.msg_rate_mpps, 1e6 / one.cost.cpu_ps, 0.01 * one.msg_rate_mpps);  // the core binds
  EXPECT_NEAR(two.msg_rate_mpps, 2 * one.msg_rate_mpps, 0.01 * one.msg_rate_mpps);
  c.cores = 17;
  EXPECT_THROW(run_bandwidth(c), std::invalid_argument);  // more cores than QPs
}

// The adapter's engines, shared by every QP (nic.adapter_wqe), bound the whole NIC: 64 QPs on
// 16 cores of a 200 Gb/s ConnectX-6 host, whose link carries a 2-byte WRITE every 4.08 ns, send
// at most one WQE per 4.651 ns (215 Mpps), and within 1 % of it. Without the adapter's limit
// the same run goes past it, towards the link's bound.
TEST(PostList, TheAdaptersEnginesBoundManyQpsOnManyCores) {
  BwConfig c = small(32, 32, 5000);
  c.base.profile = make_profile("cx6-200g");
  c.qps = 64;
  c.cores = 16;
  const BwResult r = run_bandwidth(c);
  EXPECT_EQ(r.completed, 64 * c.base.iters);
  EXPECT_EQ(r.cost.engine_ps, 4'651.0);
  EXPECT_EQ(r.cost.bound_mpps(), 1e6 / 4'651.0);
  EXPECT_LE(r.msg_rate_mpps, r.cost.bound_mpps());
  EXPECT_GT(r.msg_rate_mpps, 0.99 * r.cost.bound_mpps());
  c.base.profile.nic.adapter_wqe = Time::zero();
  const BwResult unlimited = run_bandwidth(c);
  EXPECT_EQ(unlimited.cost.bound_mpps(), 1e6 / 4'080.0);  // the wire: 102 B at 200 Gb/s
  EXPECT_GT(unlimited.msg_rate_mpps, 1.05 * r.msg_rate_mpps);
}
