#include "sim/waits_for.hpp"

#include <algorithm>
#include <stdexcept>

namespace rdmasim {

void WaitsForGraph::clear() {
  vertices_.clear();
  out_.clear();
  dirty_ = false;
}

int WaitsForGraph::index(Vertex v) const {
  const auto it = std::lower_bound(vertices_.begin(), vertices_.end(), v);
  return it != vertices_.end() && *it == v ? static_cast<int>(it - vertices_.begin()) : -1;
}

void WaitsForGraph::add_vertex(Vertex v) {
  if (vertices_.empty() || vertices_.back() < v) {  // ascending insertion: no renumbering
    vertices_.push_back(v);
    out_.emplace_back();
    return;
  }
  const auto it = std::lower_bound(vertices_.begin(), vertices_.end(), v);
  if (it != vertices_.end() && *it == v) return;
  const auto at = static_cast<int>(it - vertices_.begin());
  vertices_.insert(it, v);
  for (auto& list : out_)
    for (int& w : list)
      if (w >= at) ++w;
  out_.insert(out_.begin() + at, std::vector<int>{});
}

bool WaitsForGraph::has_vertex(Vertex v) const { return index(v) >= 0; }

void WaitsForGraph::add_edge(Vertex from, Vertex to) {
  const int a = index(from), b = index(to);
  if (a < 0 || b < 0) throw std::logic_error("WaitsForGraph: edge between vertices not added");
  out_[static_cast<std::size_t>(a)].push_back(b);
  dirty_ = true;
}

void WaitsForGraph::finish() const {
  if (!dirty_) return;
  for (auto& list : out_) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  dirty_ = false;
}

std::size_t WaitsForGraph::edge_count() const {
  finish();
  std::size_t n = 0;
  for (const auto& list : out_) n += list.size();
  return n;
}

std::vector<WaitsForGraph::Vertex> WaitsForGraph::find_cycle() const {
  finish();
  const std::size_t n = vertices_.size();
  enum : std::uint8_t { white, grey, black };
  std::vector<std::uint8_t> colour(n, white);
  std::vector<int> stack;           // the current DFS path
  std::vector<std::size_t> next;    // per path entry: the successor to try next
  for (std::size_t root = 0; root < n; ++root) {
    if (colour[root] != white) continue;
    stack.assign(1, static_cast<int>(root));
    next.assign(1, 0);
    colour[root] = grey;
    while (!stack.empty()) {
      const auto v = static_cast<std::size_t>(stack.back());
      const auto& succ = out_[v];
      if (next.back() == succ.size()) {
        colour[v] = black;
        stack.pop_back();
        next.pop_back();
        continue;
      }
      const int w = succ[next.back()++];
      const auto wi = static_cast<std::size_t>(w);
      if (colour[wi] == grey) {  // back edge: the path from w to v closes a cycle
        const auto from = std::find(stack.begin(), stack.end(), w);
        std::vector<int> cyc(from, stack.end());
        std::rotate(cyc.begin(), std::min_element(cyc.begin(), cyc.end()), cyc.end());
        std::vector<Vertex> out;
        for (int i : cyc) out.push_back(vertices_[static_cast<std::size_t>(i)]);
        return out;
      }
      if (colour[wi] == white) {
        colour[wi] = grey;
        stack.push_back(w);
        next.push_back(0);
      }
    }
  }
  return {};
}

}  // namespace rdmasim
