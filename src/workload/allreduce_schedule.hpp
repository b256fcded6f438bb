// AllReduceSchedule: who sends which chunks to whom at every step of an AllReduce over n ranks.
//
// The buffer is cut into n chunks. Step k of rank r sends chunks [send_lo, send_hi) to
// `send_to` and receives chunks [recv_lo, recv_hi) from `recv_from`, which it adds to its own
// (`reduce`, the reduce-scatter phase) or stores (the all-gather phase). Invariants (tested):
// a step's sender and receiver agree on the chunks; after the last step every rank holds every
// chunk summed over all ranks; each rank sends 2(n-1) chunks in all.
#pragma once

#include <vector>

#include "rdmasim/allreduce.hpp"

namespace rdmasim {

struct CollStep {
  int send_to = 0, recv_from = 0;
  int send_lo = 0, send_hi = 0;
  int recv_lo = 0, recv_hi = 0;
  bool reduce = false;
};

/// [rank][step]. Throws std::invalid_argument for n < 2, or halving-doubling with n not a power of two.
std::vector<std::vector<CollStep>> allreduce_schedule(AllReduceAlgo algo, int n);

}  // namespace rdmasim
