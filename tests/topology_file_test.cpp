// Topology files: every built-in fabric written and read back is the same graph (and writes the
// same text again); each bad file is one error naming its line and column; the ns-3 HPCC
// simulator's topology.txt reads (ids kept as names, delays as cable length) and runs, its
// flow.txt node ids mapped to hosts.
#include "net/topology_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "net/routing.hpp"
#include "rdmasim/scenario.hpp"

using namespace rdmasim;

namespace {

constexpr std::int64_t kV = 200'000'000;  // the default profile's velocity: 5 ps per mm

void expect_same_graph(const Topology& a, const Topology& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.description, b.description);
  ASSERT_EQ(a.nodes().size(), b.nodes().size());
  for (std::size_t i = 0; i < a.nodes().size(); ++i) {
    const Node &x = a.nodes()[i], &y = b.nodes()[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.kind, y.kind) << x.name;
    EXPECT_EQ(x.tier, y.tier) << x.name;
    EXPECT_EQ(x.pod, y.pod) << x.name;
    EXPECT_EQ(x.server, y.server) << x.name;
    EXPECT_EQ(x.rail, y.rail) << x.name;
    EXPECT_EQ(x.plane, y.plane) << x.name;
    EXPECT_EQ(x.cables, y.cables) << x.name;
  }
  ASSERT_EQ(a.cables().size(), b.cables().size());
  for (std::size_t i = 0; i < a.cables().size(); ++i) {
    const Cable &x = a.cables()[i], &y = b.cables()[i];
    EXPECT_EQ(x.a, y.a);
    EXPECT_EQ(x.b, y.b);
    EXPECT_EQ(x.rate, y.rate);
    EXPECT_EQ(x.length_mm, y.length_mm);
    EXPECT_EQ(x.loss, y.loss);
    EXPECT_EQ(x.transit, y.transit);
  }
  EXPECT_EQ(a.host_count(), b.host_count());
  EXPECT_EQ(a.server_count(), b.server_count());
  EXPECT_EQ(a.planes(), b.planes());
}

std::string error_of(const std::string& text) {
  try {
    read_topology_file(text, "f.topo", kV);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(TopologyFile, EveryBuiltInFabricRoundTrips) {
  int checked = 0;
  for (const TopologyBuilder& b : topology_builders()) {
    if (b.name == "file") continue;
    TopologyParams p;
    p.name = b.name;
    p.servers = 5;
    p.nics_per_server = 3;
    p.servers_per_su = 2;
    p.hosts = 5;
    p.switches = 5;
    p.fabric_rate = Rate::bps(40'500'000'000);  // not a whole Gb/s
    p.fabric_length_mm = 12'345;                // not a whole metre
    Topology t = build_topology(p);
    t.set_loss(0, 1e-5);
    SCOPED_TRACE(b.name);
    const std::string text = write_topology_file(t);
    const Topology back = read_topology_file(text, "rt.topo", kV);
    expect_same_graph(t, back);
    EXPECT_EQ(write_topology_file(back), text);
    ++checked;
  }
  EXPECT_EQ(checked, 7);
}

TEST(TopologyFile, DelaysBecomeCableLengthAndServersTheirPorts) {
  const Topology t = read_topology_file(
      "rdmasim-topology 1\n"
      "switch sw tier=1  # one switch\n"
      "server gpu0 nics=2 ports=2\n"
      "switch sw1 plane=1\n"
      "host x\n"
      "link gpu0.nic0.p0 sw rate=400Gbps delay=1us\n"
      "link gpu0.nic1.p0 sw rate=400Gbps length=2m\n"
      "link gpu0.nic0.p1 sw1 rate=400Gbps length=2m\n"
      "link gpu0.nic1.p1 sw1 rate=400Gbps length=2m\n"
      "link x sw rate=100Gbps length=150cm loss=0.001\n",
      "f.topo", kV);
  EXPECT_EQ(t.cables()[0].length_mm, 200'000);  // 1 us at 2e8 m/s
  EXPECT_EQ(t.cables()[4].length_mm, 1'500);
  EXPECT_EQ(t.cables()[4].loss, 0.001);
  EXPECT_EQ(t.server_count(), 1);
  EXPECT_EQ(t.planes(), 2);
  EXPECT_EQ(t.find_host("gpu0.nic1.p1"), 3);
  EXPECT_EQ(t.find_host("x"), 4);
  EXPECT_EQ(t.bisection, Rate{});
}

TEST(TopologyFile, EachBadFileIsOneLocatedError) {
  const std::string head = "rdmasim-topology 1\nswitch sw\nhost a\nhost b\n";
  const std::string links = "link a sw rate=100Gbps length=1m\nlink b sw rate=100Gbps length=1m\n";
  const struct {
    std::string text, error;
  } cases[] = {
      {"", "f.topo:1:1: empty (expected \"rdmasim-topology 1\" or an HPCC topology.txt)"},
      {"topology 1\n", "f.topo:1:1: expected \"rdmasim-topology 1\" (or an HPCC topology.txt: node, switch and link counts), "
                       "got \"topology\""},
      {"# a comment\nrdmasim-topology 2\n", "f.topo:2:18: unsupported version 2 (this rdmasim reads 1)"},
      {head + "router r1\n", "f.topo:5:1: unknown directive \"router\" (valid: name, description, switch, host, server, link)"},
      {head + "host a\n", "f.topo:5:6: \"a\" is declared twice"},
      {head + "link a nowhere rate=1Gbps length=1m\n", "f.topo:5:8: no node \"nowhere\" declared before this line"},
      {head + "link a sw rate=fast length=1m\n", "f.topo:5:16: rate: expected a rate like \"100Gbps\", got \"fast\""},
      {head + "link a sw rate=1Gbps\n", "f.topo:5:1: link: give length=LENGTH or delay=TIME (one of them)"},
      {head + "link a sw rate=1Gbps length=1m colour=red\n",
       "f.topo:5:32: unknown attribute \"colour\" (valid: delay, length, loss, rate, transit)"},
      {head + "switch s2 tier=4\n", "f.topo:5:16: tier: expected 1..3, got \"4\""},
      {head + links + "link a sw rate=1Gbps length=1m\n", "f.topo:7:1: a second link between \"a\" and \"sw\""},
      {head + "link a sw rate=100Gbps length=1m\n", "f.topo:4:6: host \"b\" has 0 links (a host is one NIC port: exactly 1)"},
      {head + links + "switch lonely\n", "f.topo:7:8: \"lonely\" cannot reach \"a\": the fabric is not connected"},
      {head + "link sw sw rate=1Gbps length=1m\n", "f.topo:5:1: a link from \"sw\" to itself"},
      {head + "link a sw rate=1Gbps length=1m transit=a-to-b\n", "f.topo:5:40: transit: a host's cable carries both ways"},
      {head + "server g\n", "f.topo:5:8: server g: nics=N is required"},
      {head + "server g nics=2\nserver h nics=2 ports=2\n",
       "f.topo:6:8: server h: nics=2 ports=2, but server g has nics=2 ports=1 (every server of a file has the same NICs and ports)"},
      {head + "server g nics=8\nserver h nics=4\n",
       "f.topo:6:8: server h: nics=4 ports=1, but server g has nics=8 ports=1 (every server of a file has the same NICs and ports)"},
      {"3 1 2\n0\n0 1 100Gbps 0.001ms 0\n", "f.topo:3:22: expected a link's source id, the file ends"},
      {"3 1 2\n0\n0 1 100Gbps 0.001ms 0\n0 2 100Gbps soon 0\n", "f.topo:4:13: delay: expected a time like \"1.5us\", got \"soon\""},
  };
  for (const auto& c : cases) EXPECT_EQ(error_of(c.text), c.error) << c.text;
  EXPECT_EQ(error_of(head + links), "no error");
}

// The HPCC simulator's format: ids as names, hosts numbered among hosts, delays as length; a
// scenario runs on it and its flow.txt's node ids reach the right hosts.
TEST(TopologyFile, HpccTopologyTxtReadsAndRuns) {
  // A switch with id 2 between hosts 0, 1, 3 (ids interleaved), as HPCC writes it.
  const std::string hpcc = "4 1 3\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n3 2 100Gbps 1000ns 0.0001\n"
                           "0 1 25Gbps 0.001ms 0\n";  // beyond the declared count: ignored, as HPCC does
  const Topology t = read_topology_file(hpcc, "topology.txt", kV);
  EXPECT_EQ(t.host_count(), 3);
  EXPECT_EQ(t.cables().size(), 3u);
  EXPECT_EQ(t.nodes()[2].name, "sw2");
  EXPECT_EQ(t.find_host("h3"), 2);  // id 3 is the third host
  EXPECT_EQ(t.node_ids, (std::vector<int>{0, 1, -1, 2}));
  EXPECT_EQ(t.cables()[0].length_mm, 200'000);
  EXPECT_EQ(t.cables()[2].loss, 1e-4);
  EXPECT_EQ(equal_cost_paths(t, 0, 2).size(), 1u);

  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/topology.txt") << hpcc;
  std::ofstream(dir + "/flow.txt") << "2\n0 3 3 100 20000 0.000001\n3 1 3 100 10000 0.000002\n";
  Scenario s = make_scenario(Command::lat);
  for (const std::string& a : std::vector<std::string>{"network.topology=file", "network.topology_file=" + dir + "/topology.txt", "network.from=h0",
                              "network.to=h3", "workload.iters=10"})
    apply_override(s, a);
  const RunResult r = run(s);
  EXPECT_EQ(r.failure, "");
  // Two cables of 1 us each way: 2 us more than the same star with no delay.
  std::ofstream(dir + "/zero.txt") << "4 1 3\n2\n0 2 100Gbps 0ns 0\n1 2 100Gbps 0ns 0\n3 2 100Gbps 0ns 0\n";
  apply_override(s, "network.topology_file=" + dir + "/zero.txt");
  EXPECT_NEAR(r.metric("t_typical_us") - run(s).metric("t_typical_us"), 2.0, 1e-9);
  Scenario f = make_scenario(Command::flows);
  for (const std::string& a : std::vector<std::string>{"network.topology=file", "network.topology_file=" + dir + "/topology.txt",
                              "workload.flow_file=" + dir + "/flow.txt"})
    apply_override(f, a);
  const RunResult fr = run(f);
  EXPECT_EQ(fr.failure, "");
  const FlowsResult& flows = std::get<FlowsResult>(fr.detail);
  ASSERT_EQ(flows.flows.size(), 2u);
  EXPECT_EQ(flows.flows[0].flow.dst, 2);  // node 3
  EXPECT_EQ(flows.flows[1].flow.src, 2);
  EXPECT_EQ(flows.completed, 2);
  std::ofstream(dir + "/bad_flow.txt") << "1\n2 0 3 100 1000 0\n";
  apply_override(f, "workload.flow_file=" + dir + "/bad_flow.txt");
  EXPECT_THROW(run(f), std::invalid_argument);  // node 2 is the switch
}
