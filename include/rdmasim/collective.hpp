// Collectives: nccl-tests' six operations and, for each, the registered algorithms that carry it
// out — who sends which chunks to whom at every step (`rdmasim all_reduce --algo NAME`, scenario
// keys workload.collective and workload.algo). An algorithm is a registered component: a name, a
// description, its source and its schedule for n ranks. Built-ins (src/workload/
// collective_schedules.cpp): all_reduce ring and halving-doubling, all_gather and reduce_scatter
// ring and recursive doubling/halving, alltoall direct and pairwise, broadcast ring (a pipelined
// chain), sendrecv ring. A program that links the library registers its own with
// register_collective before it runs anything; an unknown name lists the registered ones.
//
// Every rank's buffer is cut into chunks (coll_chunks: n for most operations, 2n for alltoall's
// send and receive buffers, 2 for sendrecv's, the pipeline's pieces for broadcast). Step k of
// rank r sends chunks [send_lo, send_hi) to `send_to` (-1: no send) and receives chunks
// [recv_lo, recv_hi) from `recv_from` (-1: no receive), which it adds to its own (`reduce`) or
// stores. Step k's send waits for the receive of step k - `after` (1: the previous step's; 0: for
// nothing, the data it sends was there from the start; more: a window of sends in flight). The i-th send from a to b meets the i-th receive at b
// from a. What each chunk holds before and after is data (chunk_before, chunk_after), so the
// schedule tests and the simulator's #wrong check the same thing. Invariants (checked by the
// tests for every registered schedule): a send and its receive agree on the chunk count; after
// the last step every chunk holds what chunk_after says.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmasim {

enum class CollOp : std::uint8_t { all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv };

/// What nccl-tests prints for an operation.
struct CollOpInfo {
  CollOp op;
  std::string_view name;     // "all_reduce"
  std::string_view program;  // "all_reduce_perf"
  std::string_view redop;    // "sum", or "none" where nothing is reduced
  int root;                  // -1, or the root rank (broadcast: 0)
  std::string_view bytes_formula;  // bytes each rank sends, in terms of S and n
};

/// Every operation, in the order nccl-tests documents them.
const std::vector<CollOpInfo>& coll_ops();
const CollOpInfo& coll_op_info(CollOp op);
/// "all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv"
std::string coll_op_names();
/// Throws std::invalid_argument naming the operations for an unknown name.
CollOp coll_op(std::string_view name);
/// nccl-tests' bus-bandwidth factor: busbw = algbw x factor (all_reduce 2(n-1)/n; all_gather,
/// reduce_scatter, alltoall (n-1)/n; broadcast, sendrecv 1).
double bus_factor(CollOp op, int n);

struct CollSizes {
  std::int64_t bytes = 0;   // nccl-tests' size column: the largest buffer (all_gather: the output)
  std::int64_t count = 0;   // its count column (elements of 4 bytes: per rank, per peer for alltoall)
  std::vector<std::int64_t> chunk_elems;  // elements of each chunk of a rank's buffer
};
/// The chunks of an operation on n ranks for a requested size (bytes, rounded down to what
/// divides as nccl-tests does). Broadcast is pipelined in pieces of 512 KiB (at most 64);
/// all_reduce has n x `pieces` chunks (an algorithm's pipeline, CollectiveSpec::pieces).
CollSizes coll_sizes(CollOp op, int n, std::int64_t requested_bytes, int pieces = 1);
/// Bytes each rank sends for the chunks of `z` (rank `r`: broadcast's last rank sends nothing).
std::int64_t coll_bytes_sent(CollOp op, int n, int r, const CollSizes& z);

/// A chunk's contents: nothing, one rank's data, the sum over every rank, or not checked.
enum class ChunkData : std::uint8_t { none, rank, all, any };
struct ChunkState {
  ChunkData data = ChunkData::none;
  int rank = -1;  // ChunkData::rank: whose
  bool operator==(const ChunkState&) const = default;
};
/// Chunk `ch` of rank r's buffer before the operation, and what it must hold after.
ChunkState chunk_before(CollOp op, int n, int r, int ch);
ChunkState chunk_after(CollOp op, int n, int r, int ch);

/// What NVSwitch does with a send (NVLink SHARP, NVLS): nothing but forward it; copy it to every
/// GPU of the server (the sender's consecutive multicast steps with the same chunks are one
/// multicast: its egress carries them once); or sum it inside the switch with every other GPU's
/// send of the same chunks to the same receiver (whose ingress takes the sum once).
enum class InSwitch : std::uint8_t { none, multicast, reduce };

struct CollStep {
  int send_to = -1, recv_from = -1;
  int send_lo = 0, send_hi = 0;
  int recv_lo = 0, recv_hi = 0;
  bool reduce = false;
  int after = 1;           // the send waits for the receive of step k - after (0: for nothing)
  InSwitch in_switch = InSwitch::none;  // the send's (between GPUs of one server, with NVLS)
};
using CollSchedule = std::vector<std::vector<CollStep>>;  // [rank][step]

struct CollectiveSpec {
  std::string name;
  std::string description;
  std::string source;  // where the algorithm comes from ("" for none)
  CollOp op = CollOp::all_reduce;
  /// The schedule for n >= 2 ranks over `chunks` chunks per rank (coll_sizes);
  /// std::invalid_argument for a rank count it cannot serve.
  std::function<CollSchedule(int n, int chunks)> schedule;
  /// all_reduce only (its chunks all hold alike): how many pieces the algorithm pipelines each
  /// of the n chunks in for a buffer of `bytes` (coll_sizes' `pieces`); empty: 1.
  std::function<int(int n, std::int64_t bytes)> pieces = {};
  /// Runs only inside one server's NVSwitch with NVLS (gpu.nvls_efficiency > 0).
  bool needs_nvls = false;
  /// Every rank sends the bus factor x S; false: only on average over the ranks (a tree's
  /// leaves send less than its inner ranks).
  bool balanced = true;
  /// For algorithms that follow the servers: the schedule for n ranks as n / local servers (or
  /// hosts) of `local` GPUs each, rank r GPU r mod local of server r / local. Used instead of
  /// `schedule` when set; std::invalid_argument where local does not divide n.
  std::function<CollSchedule(int n, int chunks, int local)> schedule_local = {};
};

/// Every registered algorithm, operation by operation, each in registration order.
std::vector<const CollectiveSpec*> collectives();
/// The algorithms of one operation; the first is its default.
std::vector<const CollectiveSpec*> collectives(CollOp op);
/// `name` of `op` ("" = its default); throws std::invalid_argument naming that operation's
/// algorithms for an unknown name.
const CollectiveSpec& collective(CollOp op, std::string_view name);
/// Adds an algorithm; throws std::invalid_argument for an empty name or one its operation has.
void register_collective(CollectiveSpec spec);
/// collective(op, name)'s schedule for n ranks of `local` GPUs per server, after refusing n < 2.
CollSchedule collective_schedule(CollOp op, std::string_view name, int n, int chunks, int local = 1);

}  // namespace rdmasim
