// Max-min fair rates by progressive filling: flows over links of one capacity; the most shared
// link fixes its flows' share (capacity left / unfixed flows crossing it), which leaves the
// other links; repeat. The tightest link is the lowest-numbered among equals, and a link's
// capacity is reduced flow by flow in flow order, so the rates are exact and reproducible
// (tests/max_min_test.cpp checks them against the plain algorithm, which rescans every flow
// per round). Cost: O((flows x links per flow) log links).
#pragma once

#include <vector>

namespace rdmasim {

/// flow_links[f]: the ids of the links flow f crosses (any ints); cap: every link's capacity.
std::vector<double> max_min_rates(const std::vector<std::vector<int>>& flow_links, double cap);

}  // namespace rdmasim
