// WaitsForGraph: the waits-for graph of paused PFC queues, the structure a PFC deadlock is a
// cycle in.
//
// A vertex is one (egress port, priority) that is paused and holds frames of that priority. An
// edge u -> v says "u waits for v": u is paused by the XOFF of the downstream ingress port its
// frames enter, and frames that arrived through that ingress sit in the (still paused) queue
// v, so the ingress cannot drain and send XON until v moves. A cycle — every queue in it
// waiting for the next — can never resolve by itself: that is a PFC deadlock (a cyclic buffer
// dependency). The fabric (sim/fabric.hpp) rebuilds the graph from its paused queues when it
// checks; the graph itself knows nothing about ports.
//
// Invariants: vertices and edges are kept sorted and unique, so find_cycle is deterministic:
// depth-first from the smallest vertex, successors in ascending order; the first cycle met is
// returned rotated to start at its smallest vertex. Not on the hot path (built on a check timer).
#pragma once

#include <cstdint>
#include <vector>

namespace rdmasim {

class WaitsForGraph {
 public:
  struct Vertex {
    int port = 0;
    int priority = 0;
    friend bool operator==(const Vertex&, const Vertex&) = default;
    friend auto operator<=>(const Vertex&, const Vertex&) = default;
  };

  void clear();
  /// Adds `v` (once). Vertices without edges are allowed.
  void add_vertex(Vertex v);
  bool has_vertex(Vertex v) const;
  /// `from` waits for `to` (both must have been added; duplicates are ignored).
  void add_edge(Vertex from, Vertex to);
  std::size_t vertex_count() const { return vertices_.size(); }
  std::size_t edge_count() const;

  /// One cycle, in waits-for order (each waits for the next, the last for the first), starting
  /// at its smallest vertex; empty when the graph is acyclic.
  std::vector<Vertex> find_cycle() const;

 private:
  int index(Vertex v) const;  // -1 if absent
  void finish() const;        // sorts and dedups the adjacency lists (lazily)

  std::vector<Vertex> vertices_;                // sorted
  mutable std::vector<std::vector<int>> out_;   // per vertex index
  mutable bool dirty_ = false;
};

}  // namespace rdmasim
