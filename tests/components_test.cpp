// The `rdmasim list` catalogue cannot drift from what the options accept: every choice of the
// component-selecting scenario keys, and every registered topology, is listed.
#include "config/catalogue.hpp"

#include <gtest/gtest.h>

#include "rdmasim/collective.hpp"

#include <map>
#include <set>

#include "net/topology.hpp"
#include "config/scenario.hpp"

using namespace rdmasim;

TEST(Components, CatalogueCoversEveryChoiceTheOptionsAccept) {
  std::map<std::string, std::set<std::string>> listed;
  for (const config::Component& c : config::components()) {
    EXPECT_FALSE(c.description.empty()) << c.name;
    listed[c.kind].insert(c.name);
  }
  const std::map<std::string, std::string> kind_of{{"network.topology", "topology"}, {"network.routing", "routing"},
                                                   {"network.link_layer", "link layer"}, {"workload.pattern", "pattern"},
                                                   {"network.cc", "congestion control"}, {"network.server", "server"},
                                                   {"network.ring_routing", "ring routing"}, {"profile", "profile"},
                                                   {"network.tcp_cc", "tcp congestion control"},
                                                   {"workload.cdf", "flow sizes"}};
  for (const config::ScenarioKey& k : config::scenario_keys()) {
    const auto it = kind_of.find(k.path);
    if (it == kind_of.end()) continue;
    for (const std::string& choice : k.choices) {
      if (!choice.empty()) {
        EXPECT_TRUE(listed[it->second].count(choice)) << k.path << " = " << choice;
      }
    }
  }
  for (const CollectiveSpec* c : collectives())  // every operation's algorithms, under "<operation> algorithm"
    EXPECT_TRUE(listed[std::string(coll_op_info(c->op).name) + " algorithm"].count(c->name)) << c->name;
  for (const TopologyBuilder& b : topology_builders()) EXPECT_TRUE(listed["topology"].count(b.name)) << b.name;
  for (const char* w : {"lat", "bw", "budget", "demo", "all_reduce", "all_gather", "alltoall", "flows"}) EXPECT_TRUE(listed["workload"].count(w)) << w;
}
