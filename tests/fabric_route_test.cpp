// Unloaded latency of a message along one fabric route: the simulator, the budget and the
// closed form (sum of serialization + propagation + switch pipelines) agree to the picosecond,
// for cut-through and for store-and-forward.
#include "path/fabric_route.hpp"

#include <gtest/gtest.h>

#include "model/budget.hpp"
#include "net/ecmp.hpp"
#include "path/link.hpp"
#include "net/wire_format.hpp"
#include "sim_rig.hpp"

using namespace rdmasim;

namespace {

using rdmasim::testing::fat_tree;

// The network part alone: split, the fabric from host 0 to the route's end, merge. The
// simulator's fabric routes by ECMP hash, so pick a UDP source port that hashes onto `r`.
PathSpec network_only(const std::shared_ptr<const Topology>& t, const FabricPath& r,
                      const Profile& prof, Bytes mtu) {
  const int dst = t->find_host(t->nodes()[static_cast<std::size_t>(r.nodes.back())].name);
  std::uint16_t sport = 49152;
  while (ecmp_route(*t, 0, dst, roce_flow(0, dst, sport)).cables != r.cables) ++sport;
  FabricOptions o;
  o.sw = prof.sw;
  o.velocity_mps = prof.link.velocity_mps;
  PathSpec p;
  p.split(0, SplitSpec{mtu, FrameKind::roce_write, LinkLayer::roce, false}, "split");
  StageSpec net;
  net.kind = StageKind::network;
  net.network = std::make_shared<NetworkSpec>(
      NetworkSpec{t, 0, dst, roce_flow(0, dst, sport), o, {}, {}, {}});
  net.expansion.emplace_back();
  FabricRoute(*t, r, prof, false).append(net.expansion[0], 0);
  p.stages.push_back(net);
  p.merge(1, "merge");
  return p;
}

Time closed_form(const Topology& t, const FabricPath& r, const Profile& prof, Bytes frame) {
  Time sum{};
  for (std::size_t i = 0; i < r.cables.size(); ++i) {
    const Cable& c = t.cables()[static_cast<std::size_t>(r.cables[i])];
    LinkParams lp = prof.link;
    lp.length_mm = c.length_mm;
    const bool into_switch = i + 1 < r.cables.size();
    const Bytes sent = into_switch && prof.sw.cut_through ? prof.sw.cut_through_bytes : frame;
    sum += serialization_time(sent, c.rate) + Link(lp).propagation();
    if (into_switch) sum += prof.sw.pipeline;
  }
  return sum;
}

}  // namespace

TEST(FabricRoute, UnloadedLatencyEqualsClosedForm) {
  // k=4: same edge (h1), same pod (h2), another pod (h4, h15); k=8: same edge (h1), same pod
  // (h4), another pod (h16, h127); every equal-cost path of each.
  for (const auto& [k, dsts] : {std::pair{4, std::vector<int>{1, 2, 4, 15}},
                                std::pair{8, std::vector<int>{1, 4, 16, 127}}}) {
    const auto tp = std::make_shared<const Topology>(fat_tree(k));
    const Topology& t = *tp;
    for (bool cut : {true, false})
      for (int dst : dsts) {
        Profile prof = make_profile("default");
        prof.sw.cut_through = cut;
        for (const FabricPath& r : equal_cost_paths(t, 0, dst)) {
          const PathSpec spec = network_only(tp, r, prof, Bytes(4096));
          const Bytes frame =
              frame_wire_bytes(FrameKind::roce_write, FramePos::only, Bytes(1000), LinkLayer::roce);
          const Time expect = closed_form(t, r, prof, frame);
          const Ledger budget = evaluate_path(spec, Bytes(1000), false);
          EXPECT_EQ(budget.total(), expect) << "k " << k << " cut " << cut << " dst " << dst;
          EXPECT_EQ(budget[Category::switch_], prof.sw.pipeline * r.switches());
          rdmasim::testing::SimRig rig;
          rig.run_one(spec, 1000);
          ASSERT_EQ(rig.sink.got.size(), 1u);
          EXPECT_EQ(rig.sink.got[0].e2e, expect);
          EXPECT_EQ(rig.sink.got[0].ledger, budget);
        }
      }
  }
}

TEST(FabricRoute, CutThroughKeepsTheTransmitterBusyForTheWholeFrame) {
  // A 3-packet message through one switch: the upstream transmitter releases each packet after
  // 64 B but cannot start the next before the previous frame is fully serialized, so the last
  // packet leaves the sender at 3 frame times; simulator and budget agree.
  TopologyParams tp;
  tp.name = "single-switch";
  const auto t = std::make_shared<const Topology>(build_topology(tp));
  const auto routes = equal_cost_paths(*t, 0, 1);
  ASSERT_EQ(routes.size(), 1u);
  const Profile prof = make_profile("default");
  const PathSpec spec = network_only(t, routes[0], prof, Bytes(1024));
  const Ledger budget = evaluate_path(spec, Bytes(3072), false);
  rdmasim::testing::SimRig rig;
  rig.run_one(spec, 3072);
  ASSERT_EQ(rig.sink.got.size(), 1u);
  EXPECT_EQ(rig.sink.got[0].e2e, budget.total());
  EXPECT_EQ(rig.sink.got[0].ledger, budget);
  const Bytes first =
      frame_wire_bytes(FrameKind::roce_write, FramePos::first, Bytes(1024), LinkLayer::roce);
  const Bytes rest =
      frame_wire_bytes(FrameKind::roce_write, FramePos::middle, Bytes(1024), LinkLayer::roce);
  const Time ser_first = serialization_time(first, prof.link.rate),
             ser_rest = serialization_time(rest, prof.link.rate);
  // last packet: leaves host after first + middle + last frames; then its own path:
  // up to 64 B cut-through, propagation, pipeline, full egress serialization, propagation.
  const Time prop = Link(prof.link).propagation();
  const Time expect = ser_first + ser_rest +
                      serialization_time(prof.sw.cut_through_bytes, prof.link.rate) + prop +
                      prof.sw.pipeline + ser_rest + prop;
  EXPECT_EQ(budget.total(), expect);
}

// An InfiniBand fabric's switches forward in switch.ib_pipeline, an Ethernet fabric's in
// switch.pipeline: the route's unloaded time differs by exactly that difference per switch.
TEST(FabricRoute, InfiniBandSwitchesForwardInTheirOwnPipeline) {
  const Topology& t = fat_tree(4);
  const Profile prof;
  const FabricPath r = ecmp_route(t, 0, t.find_host("h15"), roce_flow(0, 15, 49152));
  const int switches = static_cast<int>(r.cables.size()) - 1;
  ASSERT_EQ(switches, 5);
  const Bytes wire(1024);
  const Time eth = FabricRoute(t, r, prof, false).unloaded(wire, 0);
  const Time ib = FabricRoute(t, r, prof, true).unloaded(wire, 0);
  EXPECT_EQ(eth - ib, (prof.sw.pipeline - prof.sw.ib_pipeline) * switches);
  EXPECT_EQ(prof.sw.forwarding(true), Time::ns(130));
  EXPECT_EQ(prof.sw.forwarding(false), Time::ns(300));
}
