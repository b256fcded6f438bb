// AllReduce across N hosts x G GPUs on a switched topology (nccl-tests all_reduce_perf
// look-alike). Rank r is GPU r % G of host r / G. Two algorithms:
//   ring              reduce-scatter then all-gather around the ring 0 -> 1 -> ... -> n-1 -> 0:
//                     2(n-1) steps of S/n bytes per rank
//   halving-doubling  Rabenseifner: reduce-scatter by recursive halving, all-gather by recursive
//                     doubling with partner r XOR d: 2 log2(n) steps (n a power of two)
// Both move 2(n-1)/n x S bytes per rank. A rank's next step starts when the data of its
// previous step is in its memory (an RDMA WRITE on an RC QP through the packet-level fabric:
// losses are retransmitted, DCQCN applies); GPUs of one host exchange through a peer copy. The
// GPU data path is the host model's (model/path.hpp with GPU buffers on both sides): GPUDirect
// DMAs the GPU through pcie.topology; with GPUDirect off every inter-host step is staged through
// host memory: the path's D2H copy before the send, the receive path's H2D copy after placement. Each element's value is tracked as the set
// of ranks it sums, so #wrong counts elements that do not end as the sum over all ranks.
// Iterations are separated by a barrier; time is the mean iteration makespan. Reduction
// arithmetic on the GPU is not timed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rdmasim/latency.hpp"

namespace rdmasim {


struct AllReduceConfig {
  LatConfig base;                  // fabric (topology and its size), MTU, link layer, profile, seed
  std::string algo = "ring";       // a registered algorithm (rdmasim/collective.hpp)
  int nodes = 0;                   // hosts taking part: h0..h(N-1) (0: every host of the topology)
  int gpus = 1;                    // GPUs (ranks) per host (nccl-tests -g)
  bool gpudirect = true;           // off: every inter-host step staged through host memory
  std::int64_t min_bytes = 32 << 20, max_bytes = 32 << 20;  // nccl-tests -b / -e
  std::int64_t step_factor = 2;    // -f: sizes min, min*f, ... <= max
  int iters = 20, warmup = 1;      // -n, -w
};

struct AllReduceRow {
  std::int64_t bytes = 0, count = 0;  // S and S / sizeof(float)
  double time_us = 0;                 // mean iteration makespan
  double algbw_gbs = 0, busbw_gbs = 0;  // GB/s = 1e9 B/s; busbw = algbw x 2(n-1)/n
  std::int64_t wrong = 0;             // elements not equal to the sum over all ranks
  std::vector<std::int64_t> bytes_sent;  // per rank, one iteration
  Time staging_per_rank{};            // --gpudirect off: copy time each rank spends per iteration
  std::int64_t steps = 0;             // steps per rank per iteration
  std::uint64_t events = 0;
};

struct AllReduceResult {
  AllReduceConfig config;
  int ranks = 0;
  std::vector<AllReduceRow> rows;
  double avg_busbw_gbs = 0;           // mean over the sizes (nccl-tests "Avg bus bandwidth")
  std::int64_t wrong = 0;             // over all sizes
  double link_goodput_gbs = 0;        // one host link's RDMA WRITE goodput at the MTU, GB/s
};

/// Throws std::invalid_argument for bad input (sizes, ranks, a non-power-of-two rank count for
/// halving-doubling, ...), std::runtime_error if a QP failed (retries exhausted).
AllReduceResult run_allreduce(const AllReduceConfig& c);

}  // namespace rdmasim
