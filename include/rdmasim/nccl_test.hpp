// nccl-tests look-alikes: all_reduce, all_gather, reduce_scatter, alltoall, broadcast and
// sendrecv across N hosts x G GPUs on a switched topology (nccl-tests' *_perf programs). Rank r
// is GPU r % G of host r / G; on a fabric of multi-NIC servers (rail-optimized, multi-plane) of
// server r / G, sending through the NIC on its rail (GPU g: NIC g mod N; a QP's plane: its
// number mod P). Channels as NCCL's: C copies of the algorithm run side by side, each on 1/C of
// every chunk, channel c over its own rank order (each server's GPUs rotated by c, so it leaves
// a server from another GPU and NIC), each on its own QPs. PXN (on by default, as NCCL's
// NCCL_PXN_DISABLE=0): a GPU sending to another server first hands the data over NVLink to its
// server's GPU on the receiver's rail, whose NIC sends it: rail to rail, no spine. The operation's registered algorithm (rdmasim/collective.hpp) says
// which chunks each rank sends to whom at every step; each rank sends bus_factor(op, n) x S bytes
// (all_reduce 2(n-1)/n x S). A step starts when the data it forwards is in the rank's memory (an
// RDMA WRITE on an RC QP through the packet-level fabric: losses are retransmitted, DCQCN
// applies); GPUs of one host or server exchange over NVLink (host/nvlink.hpp; gpu.nvlink_bw 0: a
// peer copy through PCIe with the copy engine). The GPU data path is the host model's
// (model/path.hpp with GPU buffers on both sides): GPUDirect DMAs the GPU through pcie.topology;
// with GPUDirect off every inter-host step is staged through host memory: the path's D2H copy
// before the send, the receive path's H2D copy after placement. Each chunk's value is tracked as
// the set of ranks whose data it holds (a sum: the union), so #wrong counts elements that do not
// end as chunk_after says. Iterations are separated by a barrier: the next starts the longest
// cable's propagation after the last rank finishes; time is the mean iteration makespan.
// Reduction arithmetic on the GPU is not timed.
//
// The ledger of a collective is its critical path's: the last transfer to arrive, the transfer
// whose arrival let its sender send it, and so back to the iteration's start. Each transfer on
// it adds its own time: over the network its message's latency ledger (rdmasim/ledger.hpp: fabric
// queueing and PFC pauses as queue, wire, PCIe, NIC, switch, staging copies as gpu), over
// NVLink its wait for the ports and its move (service plus latency), through PCIe without NVLink
// its peer copy. Invariant (checked): it sums to the iteration's time to the picosecond.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rdmasim/collective.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/ledger.hpp"
#include "rdmasim/rank_exchange.hpp"

namespace rdmasim {


struct CollectiveConfig {
  LatConfig base;                  // fabric (topology and its size), MTU, link layer, profile, seed
  CollOp op = CollOp::all_reduce;  // the nccl-tests operation
  std::string algo;                // one of its registered algorithms ("": its default, ring or direct)
  int nodes = 0;                   // hosts (or servers) taking part: the first N (0: every one of the topology)
  int gpus = 1;                    // GPUs (ranks) per host (nccl-tests -g)
  bool gpudirect = true;           // off: every inter-host step staged through host memory
  int channels = 0;                // NCCL's channels (0: a server's NICs its GPUs reach, else 1)
  bool check = true;               // nccl-tests -c: track every chunk's data for #wrong (0: not, and no memory for it)
  bool pxn = true;                 // PXN: to another server through the NIC on the receiver's rail, over NVLink first
  std::int64_t min_bytes = 32 << 20, max_bytes = 32 << 20;  // nccl-tests -b / -e
  std::int64_t step_factor = 2;    // -f: sizes min, min*f, ... <= max
  int iters = 20, warmup = 1;      // -n, -w
  // The fabric cut into logical processes (a fat-tree pod, a scalable unit of rail leaves, each
  // with its hosts or servers) run on this many worker threads: the result is the same for
  // every threads >= 1. 0: one scheduler.
  int threads = 0;
};

/// Where a collective's time went along its critical path (see the header comment).
struct CollectiveLedger {
  Ledger network;        // RDMA WRITEs between servers (or hosts): their messages' ledgers
  Time nvlink_wait{};    // NVLink transfers waiting for their ports
  Time nvlink{};         // NVLink transfers moving (B / (bw x efficiency)) plus gpu.nvlink_latency
  Time peer_copy{};      // GPUs of one host without NVLink: the peer copy through PCIe
  Time total() const { return network.total() + nvlink_wait + nvlink + peer_copy; }
  void add(const CollectiveLedger& o) {
    network.add(o.network), nvlink_wait += o.nvlink_wait, nvlink += o.nvlink, peer_copy += o.peer_copy;
  }
};

struct CollectiveRow {
  std::int64_t bytes = 0, count = 0;  // nccl-tests' size and count columns (coll_sizes)
  double time_us = 0;                 // mean iteration makespan
  double algbw_gbs = 0, busbw_gbs = 0;  // GB/s = 1e9 B/s; busbw = algbw x bus_factor(op, n)
  std::int64_t wrong = 0;             // elements not holding what the operation leaves there (-1: -c 0)
  std::vector<std::int64_t> bytes_sent;  // per rank, one iteration
  Time staging_per_rank{};            // --gpudirect off: copy time each rank spends per iteration
  std::int64_t steps = 0;             // steps per rank per iteration
  std::uint64_t events = 0;
  CollectiveLedger ledger;            // the timed iterations' critical paths, summed (total: iters x time)
};

struct CollectiveResult {
  CollectiveConfig config;
  int ranks = 0;
  int channels = 1;                   // rings (or schedules) run side by side, each on a share of S
  bool servers = false;               // ranks on a fabric of multi-NIC servers (s0, s1, ...), not hosts
  std::vector<CollectiveRow> rows;
  double avg_busbw_gbs = 0;           // mean over the sizes (nccl-tests "Avg bus bandwidth")
  std::int64_t wrong = 0;             // over all sizes
  double link_goodput_gbs = 0;        // one host link's RDMA WRITE goodput at the MTU, GB/s
};

/// Throws std::invalid_argument for bad input (sizes, ranks, a non-power-of-two rank count for
/// halving-doubling, ...), std::runtime_error if a QP failed (retries exhausted).
/// `ranks` (optional, MPI: rdmasim/rank_exchange.hpp): the processes the fabric's cut runs over,
/// one thread each; every process gets the whole result, the same as `threads`'. Collective.
CollectiveResult run_collective(const CollectiveConfig& c, RankExchange* ranks = nullptr);

}  // namespace rdmasim
