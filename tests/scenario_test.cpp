// Scenario files: a full file becomes the same options as the command line; overrides reach
// scenario keys and profile parameters; every bad input gives its own located message.
#include "config/scenario.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

using namespace rdmasim;
using namespace rdmasim::config;

namespace {

const char* kGood = R"(name = "fat-tree write"
description = "RDMA WRITE across pods"
command = "lat"
seed = 7

[workload]
size = "4KiB"
iters = 500

[toggles]
zero_copy = false

[network]
topology = "fat-tree"
k = 4
to = "h15"
degrade = ["edge0.0-agg0.0=40Gbps"]

[params]
switch.pipeline = "400ns"
[params.link]
rate = "25Gbps"
)";

std::string error_of(const std::string& text, bool json = false) {
  try {
    const Scenario s = parse_scenario(text, "s.toml", json);
    scenario_config(s);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Scenario, FileBecomesTheCommandLinesConfig) {
  const Scenario s = parse_scenario(kGood, "s.toml");
  EXPECT_EQ(s.command, Command::lat);
  EXPECT_EQ(s.name, "fat-tree write");
  const LatConfig c = scenario_config(s);
  EXPECT_EQ(c.size, Bytes(4096));
  EXPECT_EQ(c.iters, 500);
  EXPECT_EQ(c.seed, 7u);
  EXPECT_FALSE(c.toggles.zero_copy);
  EXPECT_EQ(c.topology, LatTopology::fabric);
  EXPECT_EQ(c.fabric.to, 15);
  ASSERT_EQ(c.fabric.faults.size(), 1u);
  EXPECT_EQ(c.fabric.faults[0].rate, Rate::gbps(40));
  EXPECT_EQ(c.profile.sw.pipeline, Time::ns(400));
  EXPECT_EQ(c.profile.link.rate, Rate::gbps(25));
  EXPECT_EQ(s.where.at("workload.size"), "s.toml:7:8");
}

TEST(Scenario, JsonTreeIsTheSame) {
  const Scenario t = parse_scenario(kGood, "s.toml");
  const Scenario j = parse_scenario(
      R"({"name": "fat-tree write", "command": "lat", "seed": 7,
          "workload": {"size": "4KiB", "iters": 500}, "toggles": {"zero_copy": false},
          "network": {"topology": "fat-tree", "k": 4, "to": "h15", "degrade": ["edge0.0-agg0.0=40Gbps"]},
          "params": {"switch": {"pipeline": "400ns"}, "link": {"rate": "25Gbps"}}})",
      "s.json", true);
  const LatConfig a = scenario_config(t), b = scenario_config(j);
  EXPECT_EQ(a.size, b.size);
  EXPECT_EQ(a.fabric.to, b.fabric.to);
  EXPECT_EQ(a.profile.sw.pipeline, b.profile.sw.pipeline);
  EXPECT_EQ(a.profile.link.rate, b.profile.link.rate);
  EXPECT_EQ(a.seed, b.seed);
}

TEST(Scenario, OverridesReachKeysAndParameters) {
  Scenario s = parse_scenario(kGood, "s.toml");
  apply_override(s, "network.mtu=1024");
  apply_override(s, "switch.buffer=2MiB");
  apply_override(s, "params.link.rate=50Gbps");
  apply_override(s, "toggles.zero_copy=true");
  const LatConfig c = scenario_config(s);
  EXPECT_EQ(c.mtu, Bytes(1024));
  EXPECT_EQ(c.profile.sw.buffer, Bytes(2 * 1024 * 1024));
  EXPECT_EQ(c.profile.link.rate, Rate::gbps(50));  // later settings win
  EXPECT_TRUE(c.toggles.zero_copy);
  EXPECT_THROW(apply_override(s, "network.mtu=big"), std::invalid_argument);
  EXPECT_THROW(apply_override(s, "nonsense"), std::invalid_argument);
}

TEST(Scenario, BwDefaultsAndCommandOnlyKeys) {
  const Scenario s = parse_scenario("command = \"bw\"\n[workload]\ntx_depth = 4\npattern = \"incast\"\n", "b.toml");
  EXPECT_EQ(s.options.size, 65536);
  EXPECT_EQ(s.options.iters, 5000);
  EXPECT_EQ(s.options.tx_depth, 4);
  EXPECT_EQ(s.options.pattern, "incast");
}

struct BadCase {
  const char* text;
  const char* message;  // a substring the error must contain (location and key included)
};

TEST(Scenario, EveryBadInputHasItsOwnLocatedMessage) {
  const BadCase cases[] = {
      {"command = \"lat\"\n[workload\n", "s.toml:2:"},                                  // syntax error
      {"[workload]\nsize = 4\n", "missing required key \"command\""},                   // missing command
      {"command = 3\n", "s.toml:1:11: command: expected a string"},
      {"command = \"ping\"\n", "unknown command \"ping\" (valid: lat, budget, bw, allreduce, flows, cmtime, or a collective: all_reduce, all_gather"},
      {"command = \"lat\"\nsedd = 1\n", "s.toml:2:8: sedd: unknown key (valid at the top level"},
      {"command = \"lat\"\n[workloads]\nsize = 1\n", "workloads.size: unknown key (valid at the top level"},
      {"command = \"lat\"\n[workload]\nsise = 1\n", "s.toml:3:8: workload.sise: unknown key (valid in [workload]: test"},
      {"command = \"lat\"\n[network]\ntopo = \"x\"\n", "network.topo: unknown key (valid in [network]: link_layer"},
      {"command = \"lat\"\n[workload]\niters = \"many\"\n", "s.toml:3:9: workload.iters: expected an integer, got string many"},
      {"command = \"lat\"\n[workload]\niters = 1.5\n", "workload.iters: expected an integer, got float 1.5"},
      {"command = \"lat\"\n[workload]\nsize = \"4 parsecs\"\n", "s.toml:3:8: workload.size:"},
      {"command = \"lat\"\n[workload]\nsize = true\n", "workload.size: expected a size like 4096"},
      {"command = \"lat\"\n[workload]\nsize = 0\n", "workload.size: must be at least 1 byte, got 0"},
      {"command = \"lat\"\n[workload]\ntest = \"atomic\"\n", "workload.test: unknown value \"atomic\" (valid: write, read, send)"},
      {"command = \"lat\"\n[workload]\ntransport = \"udp\"\n", "workload.transport: unknown value \"udp\" (valid: rdma, tcp)"},
      {"command = \"lat\"\n[workload]\ntx_depth = 4\n", "workload.tx_depth: not used by command \"lat\""},
      {"command = \"budget\"\n[workload]\niters = 4\n", "workload.iters: not used by command \"budget\""},
      {"command = \"lat\"\n[workload]\nall = \"yes\"\n", "workload.all: expected true or false"},
      {"command = \"lat\"\n[toggles]\nzero_copy = 1\n", "toggles.zero_copy: expected true or false, got integer 1"},
      {"command = \"lat\"\n[network]\nmtu = 1000\n", "s.toml: MTU"},
      {"command = \"lat\"\n[network]\ntopology = \"torus\"\n", "network.topology: unknown value \"torus\" (valid: back-to-back"},
      {"command = \"lat\"\n[network]\ntopology = \"fat-tree\"\nk = 5\n", "s.toml: fat-tree"},
      {"command = \"lat\"\n[network]\nk = 1\n", "s.toml:3:5: network.k: must be 2..64, got 1"},
      {"command = \"lat\"\n[network]\nrouting = \"random\"\n", "network.routing: unknown routing \"random\" (valid: ecmp, spray, adaptive"},
      {"command = \"lat\"\n[network]\nsport = 70000\n", "network.sport: must be 1..65535"},
      {"command = \"lat\"\n[network]\ndegrade = \"edge0.0-agg0.0=40Gbps\"\n", "network.degrade: expected an array of strings"},
      {"command = \"lat\"\n[network]\ndegrade = [1]\n", "network.degrade: expected an array of strings"},
      {"command = \"lat\"\n[network]\ndegrade = [\"h0-h1=40Gbps\"]\n", "need a switched --topology"},
      {"command = \"lat\"\n[params]\nlink.rate = \"fast\"\n", "s.toml:3:13: params.link.rate:"},
      {"command = \"lat\"\n[params]\nlink.speed = \"1Gbps\"\n", "unknown parameter \"link.speed\" (nearest: "},
      {"command = \"lat\"\n[params]\nswitch.data_tc = 9\n", "s.toml:3:18: params.switch.data_tc: must be 0..7"},
      {"command = \"lat\"\n[params]\nlink.rate = [\"1Gbps\"]\n", "params.link.rate: expected a value, not an array"},
      {"command = \"lat\"\nprofile = \"fast\"\n", "profile: unknown profile \"fast\" (valid: default, seed-demo, cx6-200g)"},
      {"command = \"lat\"\n[workload]\ntransport = \"tcp\"\n[toggles]\nzero_copy = false\n", "RDMA switches"},
      {"command = \"lat\"\nwhen = 1979-05-27\n", "unsupported value type"},
  };
  for (const BadCase& c : cases) {
    const std::string e = error_of(c.text);
    EXPECT_NE(e.find(c.message), std::string::npos) << "input:\n" << c.text << "\ngot: " << e;
  }
  EXPECT_GE(std::size(cases), 30u);
  EXPECT_NE(error_of("{\"command\": ", true).find("invalid JSON"), std::string::npos);
  EXPECT_NE(error_of("[1, 2]", true).find("expected a JSON object"), std::string::npos);
  // Found by the fuzzer: a number too large for a double is an out_of_range, not a parse error.
  EXPECT_NE(error_of("2333333333333333333e13122808490", true).find("invalid JSON"), std::string::npos);
  EXPECT_NE(error_of(R"({"command": "lat", "seed": 18446744073709551615})", true).find("seed: must be"), std::string::npos);
  try {
    load_scenario("/nonexistent/s.toml");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/s.toml: cannot read"), std::string::npos);
  }
}

TEST(Scenario, FormatDocumentListsEveryKeyAndParameter) {
  const std::string md = scenario_format_markdown();
  for (const ScenarioKey& k : scenario_keys()) EXPECT_NE(md.find("`" + k.path + "`"), std::string::npos) << k.path;
  for (const ParamDef& d : profile_params()) EXPECT_NE(md.find("`params." + d.key + "`"), std::string::npos) << d.key;
}

TEST(Scenario, AllReduceAndBatchingKeys) {
  const Scenario s = parse_scenario(
      "command = \"allreduce\"\n[workload]\nalgo = \"halving-doubling\"\ngpus = 2\ngpudirect = false\n"
      "min_bytes = \"1M\"\nmax_bytes = \"4M\"\nstep_factor = 4\niters = 3\nwarmup = 0\n",
      "a.toml");
  EXPECT_EQ(s.command, Command::allreduce);
  EXPECT_EQ(s.options.collective.algo, "halving-doubling");
  EXPECT_EQ(s.options.collective.gpus, 2);
  EXPECT_EQ(s.options.collective.gpudirect, "off");
  EXPECT_EQ(s.options.collective.min_bytes, "1M");
  EXPECT_EQ(s.options.topology, "single-switch");  // the allreduce command's defaults
  EXPECT_EQ(s.options.fabric.hosts, 8);
  EXPECT_EQ(s.options.iters, 3);
  scenario_config(s);
  const Scenario b = parse_scenario("command = \"bw\"\n[workload]\npost_list = 32\ncq_mod = 16\n", "b.toml");
  EXPECT_EQ(b.options.post_list, 32);
  EXPECT_EQ(b.options.cq_mod, 16);
  EXPECT_NE(error_of("command = \"lat\"\n[workload]\nalgo = \"ring\"\n").find("s.toml:3:8: workload.algo: not used by command \"lat\""),
            std::string::npos)
      << error_of("command = \"lat\"\n[workload]\nalgo = \"ring\"\n");
  EXPECT_NE(error_of("command = \"allreduce\"\n[workload]\nsize = 64\n").find("workload.size: not used by command \"allreduce\""),
            std::string::npos);
  EXPECT_NE(error_of("command = \"lat\"\n[workload]\npost_list = 4\n").find("workload.post_list: not used by command \"lat\""),
            std::string::npos);
  EXPECT_NE(error_of("command = \"allreduce\"\n[workload]\nmin_bytes = \"3X\"\n").find("workload.min_bytes"), std::string::npos);
  EXPECT_NE(error_of("command = \"allreduce\"\n[workload]\nalgo = \"trie\"\n").find("valid: ring, halving-doubling, tree, hierarchical, nvls"),
            std::string::npos);
}
