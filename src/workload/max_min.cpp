#include "workload/max_min.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>

namespace rdmasim {

std::vector<double> max_min_rates(const std::vector<std::vector<int>>& flow_links, double cap) {
  // Links renumbered densely in ascending id order.
  std::vector<int> ids;
  for (const auto& links : flow_links) ids.insert(ids.end(), links.begin(), links.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<std::vector<std::size_t>> dense(flow_links.size());
  for (std::size_t f = 0; f < flow_links.size(); ++f)
    for (int l : flow_links[f])
      dense[f].push_back(static_cast<std::size_t>(std::lower_bound(ids.begin(), ids.end(), l) - ids.begin()));
  // Each round takes the tightest link (the least capacity left per unfixed flow; the lowest id
  // among equals) from a heap of (share, link), fixes its flows at that share in flow order and
  // re-enters the links they cross: O((flows x links per flow) log links), not a rescan of every
  // flow per round. Stale heap entries (a link changed since) are skipped.
  std::vector<double> rate(flow_links.size(), 0.0);
  std::vector<bool> fixed(flow_links.size(), false);
  std::vector<double> left(ids.size(), cap);
  std::vector<int> users(ids.size(), 0);
  std::vector<std::vector<std::size_t>> link_flows(ids.size());
  for (std::size_t f = 0; f < flow_links.size(); ++f)
    for (std::size_t l : dense[f]) ++users[l], link_flows[l].push_back(f);
  std::vector<std::uint32_t> version(ids.size(), 0);
  struct Entry {
    double share;
    std::size_t link;
    std::uint32_t version;
    bool operator>(const Entry& o) const { return share != o.share ? share > o.share : link > o.link; }
  };
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (std::size_t l = 0; l < ids.size(); ++l)
    if (users[l] > 0) heap.push({left[l] / users[l], l, 0});
  std::vector<std::size_t> touched;
  while (!heap.empty()) {
    const Entry e = heap.top();
    heap.pop();
    if (e.version != version[e.link] || users[e.link] == 0) continue;
    touched.clear();
    for (std::size_t f : link_flows[e.link]) {
      if (fixed[f]) continue;
      fixed[f] = true;
      rate[f] = e.share;
      for (std::size_t l : dense[f]) {
        left[l] -= e.share;
        --users[l];
        touched.push_back(l);
      }
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (std::size_t l : touched)
      if (users[l] > 0) heap.push({left[l] / users[l], l, ++version[l]});
  }
  return rate;
}

}  // namespace rdmasim
