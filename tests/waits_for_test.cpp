#include "sim/waits_for.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace rdmasim;
using V = WaitsForGraph::Vertex;

TEST(WaitsForGraph, AcyclicChainHasNoCycle) {
  WaitsForGraph g;
  for (int p : {1, 3, 5, 7}) g.add_vertex({p, 3});
  g.add_edge({1, 3}, {3, 3});
  g.add_edge({3, 3}, {5, 3});
  g.add_edge({5, 3}, {7, 3});
  g.add_edge({1, 3}, {7, 3});  // a diamond is still acyclic
  EXPECT_EQ(g.vertex_count(), 4u);
  EXPECT_EQ(g.edge_count(), 4u);
  EXPECT_TRUE(g.find_cycle().empty());
}

TEST(WaitsForGraph, FindsTheRingInWaitsForOrderFromItsSmallestVertex) {
  WaitsForGraph g;
  // A tail 0 -> 9 leading into the ring 9 -> 4 -> 6 -> 2 -> 9.
  for (int p : {0, 9, 4, 6, 2}) g.add_vertex({p, 3});
  g.add_edge({0, 3}, {9, 3});
  g.add_edge({9, 3}, {4, 3});
  g.add_edge({4, 3}, {6, 3});
  g.add_edge({6, 3}, {2, 3});
  g.add_edge({2, 3}, {9, 3});
  g.add_edge({2, 3}, {9, 3});  // duplicate: ignored
  EXPECT_EQ(g.edge_count(), 5u);
  EXPECT_EQ(g.find_cycle(), (std::vector<V>{{2, 3}, {9, 3}, {4, 3}, {6, 3}}));
}

TEST(WaitsForGraph, PrioritiesAreSeparateVertices) {
  WaitsForGraph g;
  g.add_vertex({1, 3});
  g.add_vertex({1, 4});
  g.add_vertex({2, 3});
  g.add_edge({1, 3}, {2, 3});
  g.add_edge({2, 3}, {1, 4});
  EXPECT_TRUE(g.find_cycle().empty());
  g.add_edge({1, 4}, {1, 3});
  EXPECT_EQ(g.find_cycle(), (std::vector<V>{{1, 3}, {2, 3}, {1, 4}}));
}

TEST(WaitsForGraph, SelfLoopAndFirstOfTwoCycles) {
  WaitsForGraph g;
  for (int p : {5, 6, 8}) g.add_vertex({p, 0});
  g.add_edge({8, 0}, {8, 0});
  g.add_edge({5, 0}, {6, 0});
  g.add_edge({6, 0}, {5, 0});
  EXPECT_EQ(g.find_cycle(), (std::vector<V>{{5, 0}, {6, 0}}));  // the DFS from the smallest root meets it first
  g.clear();
  g.add_vertex({8, 0});
  g.add_edge({8, 0}, {8, 0});
  EXPECT_EQ(g.find_cycle(), (std::vector<V>{{8, 0}}));
}

TEST(WaitsForGraph, EdgeToAMissingVertexIsAnError) {
  WaitsForGraph g;
  g.add_vertex({1, 3});
  EXPECT_THROW(g.add_edge({1, 3}, {2, 3}), std::logic_error);
  EXPECT_FALSE(g.has_vertex({2, 3}));
  EXPECT_TRUE(g.has_vertex({1, 3}));
}
