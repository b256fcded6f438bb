// The fabric's traffic classes and queue management against a fake client: a switch port
// serves its 8 classes in strict priority (FIFO within one), PFC pauses only the lossless class
// (switch.data_tc) while a lossy class in the same incast drops at the egress; RED/ECN marks
// with probability Pmax (q - Kmin) / (Kmax - Kmin), DCQCN's defaults; a lossy queue is held to
// alpha x the free buffer (dynamic threshold); PFC's XON hysteresis (xoff - xon_delta); a port
// keeps a queue line only for the classes frames may carry (FabricOptions::classes).
#include <gtest/gtest.h>

#include "fabric_rig.hpp"
#include "net/fabric_options.hpp"

using namespace rdmasim;
using rdmasim::testing::Arrival;
using rdmasim::testing::Rig;

TEST(FabricClasses, StrictPriorityServesTheHighestClassFirst) {
  // h2 and h3 send class 5 and h1 class 1 into h0's port at once: twice the port's rate of
  // class 5 keeps its queue full, so class 1 waits until class 5 is done (but for the frame the
  // port may already have started). With all three in one class, the port serves them FIFO.
  const auto run = [](int low, int high) {
    Rig r(4);
    r.incast({{1, 60, low}, {2, 40, high}, {3, 40, high}});
    EXPECT_EQ(r.client.got.size(), 140u);
    EXPECT_TRUE(r.client.dropped_tc.empty());
    return r.before_last(static_cast<std::uint8_t>(low), static_cast<std::uint8_t>(high));
  };
  EXPECT_LE(run(1, 5), 1);
  EXPECT_GE(run(5, 5), 20);  // FIFO: about a third of h1's frames go out among the others
  EXPECT_LE(run(0, 7), 1);   // the lowest and the highest of the 8 classes
  EXPECT_GE(run(6, 2), 59);  // class 6 above class 2: h1's frames all go first
}

TEST(FabricClasses, APortKeepsALineOnlyForTheClassesFramesMayCarry) {
  // A port is seven cache lines of its own and one per class it carries: all eight by default,
  // the data class (switch.data_tc, 3) alone when the options name no other.
  const auto incast = [](Rig& r, int tc) {
    r.incast({{1, 60, tc}, {2, 40, tc}, {3, 40, tc}});
    EXPECT_EQ(r.client.got.size(), 140u);
    EXPECT_TRUE(r.client.dropped_tc.empty());
  };
  Rig every(4);
  EXPECT_EQ(every.fabric.port_bytes(), 960u);
  incast(every, 3);
  FabricOptions o;
  o.classes = 0;  // (the data class is always carried)
  Rig data(4, o);
  EXPECT_EQ(data.fabric.port_bytes(), 512u);
  incast(data, 3);
  for (std::size_t i = 0; i < data.client.got.size(); ++i)  // the same arrivals at the same times
    EXPECT_EQ(data.client.got[i].at, every.client.got[i].at) << i;
  o.classes = 1 << 6;  // and the CNPs' class
  Rig two(4, o);
  EXPECT_EQ(two.fabric.port_bytes(), 576u);
  incast(two, 6);
  // A frame of a class the options leave out has no queue: a logic error, not a silent one.
  EXPECT_THROW(two.send(1, 0, 1, 5), std::logic_error);
}

TEST(FabricClasses, ARunCarriesItsDataClassItsCnpsAndItsTcp) {
  LatConfig c;
  EXPECT_EQ(fabric_options(c).classes, 1 << 3);  // switch.data_tc
  c.fabric.cc = "dcqcn";  // its CNPs in dcqcn.cnp_tc
  EXPECT_EQ(fabric_options(c).classes, 1 << 3 | 1 << 6);
  c.profile.dcqcn.cnp_tc = 3;
  EXPECT_EQ(fabric_options(c).classes, 1 << 3);
  c.fabric.cc = "none";
  c.transport = Transport::tcp;  // tcp.tc
  c.profile.tcp.tc = 2;
  EXPECT_EQ(fabric_options(c).classes, 1 << 3 | 1 << 2);
}

TEST(FabricClasses, PfcPausesOnlyTheLosslessClass) {
  // An incast into h0 through a small buffer: h1 and h2 in the lossless data class
  // (switch.data_tc = 3) at twice the port's rate, h3 in lossy class 1 below them. The switch
  // pauses h1's and h2's priority, never h3; h3's frames wait behind class 3, overflow their
  // egress queue and are dropped there, none of the lossless ones.
  FabricOptions o;
  o.sw.buffer = Bytes(512 * 1024);
  ASSERT_EQ(o.sw.data_tc, 3);
  Rig r(4, o);
  r.incast({{1, 200, 3}, {2, 200, 3}, {3, 400, 1}});
  EXPECT_EQ(r.fabric.lossless_drops(), 0u);
  ASSERT_FALSE(r.client.dropped_tc.empty());
  EXPECT_TRUE(std::all_of(r.client.dropped_tc.begin(), r.client.dropped_tc.end(),
                          [](std::uint8_t tc) { return tc == 1; }));
  EXPECT_EQ(r.port("sw0->h0").drops, r.client.dropped_tc.size());
  for (const char* lossless_sender : {"1", "2"}) {
    EXPECT_GT(r.port(std::string("sw0->h") + lossless_sender).pause_tx, 0u) << lossless_sender;
    EXPECT_GT(r.port(std::string("h") + lossless_sender + "->sw0").pause_rx, 0u) << lossless_sender;
  }
  EXPECT_EQ(r.port("sw0->h3").pause_tx, 0u);  // never to the lossy sender
  EXPECT_EQ(r.port("h3->sw0").pause_rx, 0u);
  const auto lossless = std::count_if(r.client.got.begin(), r.client.got.end(),
                                      [](const Arrival& a) { return a.tc == 3; });
  EXPECT_EQ(lossless, 400);
  EXPECT_EQ(r.fabric.injected(), r.fabric.delivered() + r.fabric.dropped());
  EXPECT_NO_THROW(r.fabric.check_invariants());
}

TEST(FabricClasses, EcnDefaultsAreDcqcns) {
  // DCQCN (SIGCOMM'15): Kmin 5 KB, Kmax 200 KB, Pmax 1 %; the data class lossless.
  const SwitchParams s;
  EXPECT_EQ(s.ecn_kmin, Bytes(5'000));
  EXPECT_EQ(s.ecn_kmax, Bytes(200'000));
  EXPECT_DOUBLE_EQ(s.ecn_pmax, 0.01);
  EXPECT_TRUE(s.ecn);
  EXPECT_TRUE(s.lossless);
}

TEST(FabricQueues, EcnMarkingProbabilityRisesLinearlyWithTheQueue) {
  // Two senders into one port, lossy with a large buffer: the k-th frame into the port finds
  // about k/2 frames queued, so with Kmin 0 and Kmax past the deepest queue the expected marks
  // are sum_k Pmax (k/2) w / Kmax. A step at Kmin would mark about Pmax of all frames instead.
  const int n = 1000;  // frames per sender
  const auto marks = [&](double pmax) {
    FabricOptions o;
    o.sw.lossless = false;
    o.sw.buffer = Bytes(64 * 1024 * 1024);
    const std::int64_t w =
        frame_wire_bytes(FrameKind::roce_write, FramePos::middle, Bytes(4096), LinkLayer::roce).count();
    o.sw.ecn_kmin = Bytes(0);
    o.sw.ecn_kmax = Bytes(2 * n * w);
    o.sw.ecn_pmax = pmax;
    Rig r(3, o);
    r.incast({{1, n, 3}, {2, n, 3}});
    EXPECT_TRUE(r.client.dropped_tc.empty());
    EXPECT_LT(r.port("sw0->h0").max_queue_bytes, o.sw.ecn_kmax.count());
    return static_cast<double>(r.port("sw0->h0").ecn_marked);
  };
  // sum over k < 2n of pmax (k / 2) / (2n) = pmax (2n - 1) / 4 ~ 500 pmax.
  const double full = marks(1.0), half = marks(0.5);
  EXPECT_NEAR(full, (2.0 * n - 1) / 4, 0.1 * n / 2);  // 3 binomial sigmas are ~55
  EXPECT_NEAR(half, (2.0 * n - 1) / 8, 0.1 * n / 2);
  EXPECT_LT(half, 0.7 * full);
}

TEST(FabricQueues, DynamicThresholdHoldsALossyQueueToAlphaTimesTheFreeBuffer) {
  // An incast into one port, lossy: the queue q stays at or below alpha (B - q), so at most
  // alpha B / (1 + alpha), and it gets there (frames are dropped only past it).
  const std::int64_t buffer = 1024 * 1024, frame = 4200;
  for (double alpha : {0.25, 1.0, 4.0}) {
    FabricOptions o;
    o.sw.lossless = false;
    o.sw.ecn = false;
    o.sw.buffer = Bytes(buffer);
    o.sw.dt_alpha = alpha;
    Rig r(3, o);
    r.incast({{1, 600, 3}, {2, 600, 3}});
    const double bound = alpha * static_cast<double>(buffer) / (1 + alpha);
    const auto q = static_cast<double>(r.port("sw0->h0").max_queue_bytes);
    EXPECT_GT(r.port("sw0->h0").drops, 0u) << alpha;
    EXPECT_LE(q, bound + frame) << alpha;
    EXPECT_GE(q, bound - 2 * frame) << alpha;
  }
}

TEST(FabricQueues, XonHysteresisTradesPauseFramesForQueue) {
  // PFC resumes an ingress once it drains below xoff - xon_delta: a wider hysteresis means
  // fewer XOFF/XON pairs over the same incast, and never a lossless drop.
  const auto pauses = [](std::int64_t delta) {
    FabricOptions o;
    o.sw.pfc_xon_delta = Bytes(delta);
    Rig r(3, o);
    r.incast({{1, 500, 3}, {2, 500, 3}});
    EXPECT_EQ(r.fabric.lossless_drops(), 0u);
    EXPECT_EQ(r.client.got.size(), 1000u);
    const std::uint64_t n = r.port("sw0->h1").pause_tx + r.port("sw0->h2").pause_tx;
    EXPECT_EQ(n % 2, 0u) << delta;  // every XOFF has its XON by the end
    return n;
  };
  const std::uint64_t narrow = pauses(4 * 1024), wide = pauses(48 * 1024);
  EXPECT_GT(wide, 0u);
  EXPECT_GT(narrow, wide + wide / 2);
}

TEST(FabricClasses, InfinibandCreditsPerVirtualLane) {
  // InfiniBand: credits per VL, every VL lossless by construction. An incast into h0 on two VLs
  // (h1 on VL 1, h2 and h3 on VL 5) with three frames of credit each: no drop and no pause
  // frame on either; each VL is held to its own credits (the port never buffers more than
  // 3 frames of a VL per ingress), and VL 5 is served first.
  FabricOptions o;
  o.layer = LinkLayer::ib;
  o.sw.ib_vl_buffer = Bytes(3 * 4200);
  Rig r(4, o);
  r.incast({{1, 60, 1}, {2, 40, 5}, {3, 40, 5}});
  EXPECT_EQ(r.fabric.dropped(), 0u);
  EXPECT_EQ(r.client.got.size(), 140u);
  EXPECT_EQ(r.fabric.stats(Time::zero()).pause_frames, 0u);
  EXPECT_LE(r.port("sw0->h0").max_queue_bytes, 9 * 4200);  // 3 frames of credit per ingress and VL, three ingresses
  EXPECT_GT(r.port("h1->sw0").paused, Time::zero());  // VL 1 waited for credits...
  EXPECT_LE(r.before_last(1, 5), 4);                   // ...behind VL 5, but for the frames its credits let in
}
