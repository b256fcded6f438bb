// Traffic patterns are registered components (rdmasim/traffic_pattern.hpp): every built-in
// counts exactly the flows it lists, and a pattern registered from outside the library runs
// from a scenario and shows in `rdmasim list`, like the built-ins.
#include "rdmasim/traffic_pattern.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "config/catalogue.hpp"
#include "rdmasim/scenario.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;

TEST(TrafficPatterns, CountIsTheNumberOfFlowsAndNoHostSendsToItself) {
  TrafficConfig c;
  c.incast_senders = 3;
  c.stride = 2;
  for (const TrafficPatternSpec* p : traffic_patterns()) {
    for (int hosts : {4, 5, 16}) {
      c.base.seed = static_cast<std::uint64_t>(hosts);
      const FlowList f = p->flows(c, hosts);
      EXPECT_EQ(p->count(c, hosts), f.size()) << p->name << " on " << hosts;
      for (const auto& [src, dst] : f) {
        EXPECT_NE(src, dst) << p->name;
        EXPECT_TRUE(src >= 0 && src < hosts && dst >= 0 && dst < hosts) << p->name;
      }
    }
  }
  c.base.seed = 9;
  EXPECT_EQ(traffic_pattern("permutation").flows(c, 16), traffic_pattern("permutation").flows(c, 16));
  EXPECT_EQ(traffic_pattern("alltoall").count(c, 16), 240u);
}

TEST(TrafficPatterns, AnUnknownNameListsTheRegisteredOnes) {
  try {
    traffic_pattern("tornado");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown traffic pattern \"tornado\" (valid: permutation, incast, alltoall, stride", 0),
              0u)
        << e.what();
  }
}

TEST(TrafficPatterns, ARegisteredPatternRunsFromAScenario) {
  const std::vector<const TrafficPatternSpec*> registered = traffic_patterns();
  if (std::none_of(registered.begin(), registered.end(),
                   [](const TrafficPatternSpec* p) { return p->name == "fan-out"; }))
    register_traffic_pattern({"fan-out", "h0 sends to hosts 1..N (the reverse of incast)", "a test", "workload.incast",
                              [](const TrafficConfig& c, int) { return static_cast<std::uint64_t>(c.incast_senders); },
                              [](const TrafficConfig& c, int) {
                                FlowList f;
                                for (int i = 1; i <= c.incast_senders; ++i) f.emplace_back(0, i);
                                return f;
                              }});
  EXPECT_THROW(register_traffic_pattern({"fan-out", "again", "", "", nullptr, nullptr}), std::invalid_argument);
  Scenario s = make_scenario(Command::bw);
  for (const char* a : {"network.topology=single-switch", "network.hosts=4", "workload.pattern=fan-out",
                        "workload.incast=3", "workload.iters=20", "workload.size=4KiB"})
    apply_override(s, a);
  const RunResult r = run(s);
  const TrafficResult& t = std::get<TrafficResult>(r.detail);
  ASSERT_EQ(t.flows.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(t.flows[static_cast<std::size_t>(i)].src, 0);
    EXPECT_EQ(t.flows[static_cast<std::size_t>(i)].dst, i + 1);
    EXPECT_EQ(t.flows[static_cast<std::size_t>(i)].completed, 20);
  }
  // The three flows share h0's one 100 Gb/s uplink.
  EXPECT_LT(r.metric("aggregate_Gbps"), 100.0);
  bool listed = false;
  for (const config::Component& c : config::components()) listed = listed || (c.kind == "pattern" && c.name == "fan-out");
  EXPECT_TRUE(listed);
  EXPECT_EQ(parse_scenario(to_toml(s), "s.toml").options.pattern, "fan-out");
}

TEST(TrafficPatterns, BottleneckSharingIsThePatternsOwn) {
  TrafficConfig c;
  c.pattern = "incast";
  c.incast_senders = 6;
  EXPECT_EQ(bottleneck_sharing(c), 6);
  c.pattern = "permutation";
  EXPECT_EQ(bottleneck_sharing(c), 1);
  c.pattern = "incast";
  c.flows = {{1, 0}, {2, 0}};  // explicit flows: the pattern is not used
  EXPECT_EQ(bottleneck_sharing(c), 1);
}
