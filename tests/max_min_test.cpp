// Max-min fair rates (workload/max_min.hpp) against the plain progressive filling it replaces:
// every round recounts each link's unfixed flows, picks the tightest link (lowest id among
// equals), and fixes its flows in flow order. The heap version must give the same doubles.
#include "workload/max_min.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

using namespace rdmasim;

namespace {

std::vector<double> plain_max_min(const std::vector<std::vector<int>>& flow_links, double cap) {
  std::vector<int> ids;
  for (const auto& links : flow_links) ids.insert(ids.end(), links.begin(), links.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  auto index = [&](int l) { return static_cast<std::size_t>(std::lower_bound(ids.begin(), ids.end(), l) - ids.begin()); };
  std::vector<double> rate(flow_links.size(), 0.0), left(ids.size(), cap);
  std::vector<bool> fixed(flow_links.size(), false);
  for (std::size_t done = 0; done < flow_links.size();) {
    std::vector<int> users(ids.size(), 0);
    for (std::size_t f = 0; f < flow_links.size(); ++f)
      if (!fixed[f])
        for (int l : flow_links[f]) ++users[index(l)];
    std::size_t tight = ids.size();
    double share = 0;
    for (std::size_t l = 0; l < ids.size(); ++l)
      if (users[l] > 0 && (tight == ids.size() || left[l] / users[l] < share)) tight = l, share = left[l] / users[l];
    for (std::size_t f = 0; f < flow_links.size(); ++f) {
      if (fixed[f]) continue;
      bool crosses = false;
      for (int l : flow_links[f]) crosses = crosses || index(l) == tight;
      if (!crosses) continue;
      fixed[f] = true;
      rate[f] = share;
      ++done;
      for (int l : flow_links[f]) left[index(l)] -= share;
    }
  }
  return rate;
}

}  // namespace

TEST(MaxMin, TwoFlowsOnALinkAndOneAloneGetHalfAndAll) {
  const std::vector<double> r = max_min_rates({{1, 2}, {2, 3}, {4}}, 100.0);
  EXPECT_EQ(r, (std::vector<double>{50.0, 50.0, 100.0}));
}

TEST(MaxMin, ABottleneckLeavesTheRestToTheOthers) {
  // Link 9 is shared by three flows (33.3 each); flow 3 shares link 1 with flow 0 and gets the rest.
  const std::vector<double> r = max_min_rates({{1, 9}, {9}, {9, 5}, {1}}, 90.0);
  EXPECT_EQ(r, (std::vector<double>{30.0, 30.0, 30.0, 60.0}));
}

TEST(MaxMin, EqualsPlainProgressiveFillingOnRandomFabrics) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int links = 2 + static_cast<int>(rng() % 60), flows = 1 + static_cast<int>(rng() % 120);
    std::vector<std::vector<int>> fl(static_cast<std::size_t>(flows));
    for (auto& f : fl) {
      const int hops = 1 + static_cast<int>(rng() % 6);
      for (int h = 0; h < hops; ++h) {
        const int l = static_cast<int>(rng() % static_cast<std::uint64_t>(links)) * 3 + 1;  // sparse ids
        if (std::find(f.begin(), f.end(), l) == f.end()) f.push_back(l);
      }
    }
    const double cap = 97.99 + static_cast<double>(trial);
    ASSERT_EQ(max_min_rates(fl, cap), plain_max_min(fl, cap)) << "trial " << trial;
  }
}
