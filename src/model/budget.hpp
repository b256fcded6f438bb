// Analytic evaluation of a PathSpec: the closed-form latency of one message on an otherwise
// idle path. Per-packet stages between a split and its merge form a tandem of deterministic
// queues, whose departure times follow the max-plus recurrence
//   D(k, j) = max(D(k-1, j), A(k, j)) + s_j(k)   (FIFO server j)
//   D(k, j) = A(k, j) + d_j(k)                   (pure delay j)
// with A(k, j) = D(k, j-1); the message completes with the last departure at the merge.
// Interrupt moderation releases packets at min(first + rx_usecs, arrival of the rx_frames-th).
// The ledger of the completing packet is attributed with the same rule as the simulator
// (a wait behind the message's own packets belongs to the server's category).
#pragma once

#include "model/path.hpp"
#include "rdmasim/ledger.hpp"

#include <vector>

namespace rdmasim {

/// The path with every network stage replaced by its unloaded route, stage by stage (what the
/// closed form evaluates). Throws std::invalid_argument for per-packet spraying.
PathSpec flatten_network(const PathSpec& path);

/// Ledger of one message of `size` bytes through `path`, starting at time 0 on idle resources.
/// With `mean_jitter`, jitter stages add their mean (max/2, rounded down).
Ledger evaluate_path(const PathSpec& path, Bytes size, bool mean_jitter);

/// One entry of the critical path: `time` charged to `cat` at stage `stage` of the PathSpec.
struct CriticalStep {
  int stage = 0;
  Category cat = Category::queue;
  Time time{};
};
/// The same evaluation, also returning the critical path stage by stage (consecutive charges
/// to the same stage and category merged); the steps add up to the returned ledger.
Ledger evaluate_path(const PathSpec& path, Bytes size, bool mean_jitter, std::vector<CriticalStep>& steps);

}  // namespace rdmasim
