// The six nccl-tests operations (what a chunk holds before and after, their sizes and bus
// factors) and the built-in algorithms' schedules (rdmasim/collective.hpp), with one registry
// per operation: one registration line per algorithm, in the order `rdmasim list` shows them.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "core/registry.hpp"
#include "rdmasim/collective.hpp"

namespace rdmasim {
namespace {

constexpr std::int64_t kFloat = 4;
constexpr std::int64_t kPiece = 512 << 10;  // broadcast's pipeline piece (NCCL's Simple step size, estimate)
constexpr int kMaxPieces = 64;

int mod(int a, int n) { return ((a % n) + n) % n; }
std::size_t at(int i) { return static_cast<std::size_t>(i); }

void require_power_of_two(const char* algo, int n) {
  if ((n & (n - 1)) != 0)
    throw std::invalid_argument(std::string(algo) + " needs a power-of-two number of ranks, got " + std::to_string(n));
}

// Around the ring 0 -> 1 -> ... -> n-1 -> 0, `steps` steps of one chunk: at step k rank r sends
// chunk (r + shift - k) and receives chunk (r + shift - 1 - k); the first `reduce_steps` add.
void ring_steps(CollSchedule& s, int n, int steps, int shift, int reduce_steps) {
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < steps; ++k) {
      CollStep st;
      st.send_to = mod(r + 1, n);
      st.recv_from = mod(r - 1, n);
      st.send_lo = mod(r + shift - k, n);
      st.send_hi = st.send_lo + 1;
      st.recv_lo = mod(r + shift - 1 - k, n);
      st.recv_hi = st.recv_lo + 1;
      st.reduce = k < reduce_steps;
      s[at(r)].push_back(st);
    }
}

// Reduce-scatter by recursive halving (partner r XOR d, d = n/2 .. 1): rank r ends holding
// chunk r summed over every rank; lo/hi track the block each rank still owns.
void halving(CollSchedule& s, int n, std::vector<int>& lo, std::vector<int>& hi) {
  for (int r = 0; r < n; ++r)
    for (int d = n / 2; d >= 1; d /= 2) {
      int& l = lo[at(r)];
      int& h = hi[at(r)];
      const int mid = l + (h - l) / 2;
      CollStep st;
      st.send_to = st.recv_from = r ^ d;
      st.reduce = true;
      if ((r & d) == 0) {
        st.send_lo = mid, st.send_hi = h, st.recv_lo = l, st.recv_hi = mid;
        h = mid;
      } else {
        st.send_lo = l, st.send_hi = mid, st.recv_lo = mid, st.recv_hi = h;
        l = mid;
      }
      s[at(r)].push_back(st);
    }
}

// All-gather by recursive doubling (partner r XOR d, d = 1 .. n/2): each rank's block doubles.
void doubling(CollSchedule& s, int n, std::vector<int>& lo, std::vector<int>& hi) {
  for (int r = 0; r < n; ++r)
    for (int d = 1; d < n; d *= 2) {
      int& l = lo[at(r)];
      int& h = hi[at(r)];
      const int w = h - l;
      CollStep st;
      st.send_to = st.recv_from = r ^ d;
      st.send_lo = l, st.send_hi = h;
      if ((r & d) == 0) {
        st.recv_lo = h, st.recv_hi = h + w;
        h += w;
      } else {
        st.recv_lo = l - w, st.recv_hi = l;
        l -= w;
      }
      s[at(r)].push_back(st);
    }
}

CollSchedule all_reduce_ring(int n, int) {
  CollSchedule s(at(n));
  ring_steps(s, n, 2 * (n - 1), 0, n - 1);
  return s;
}

CollSchedule all_reduce_halving_doubling(int n, int) {
  require_power_of_two("halving-doubling", n);
  CollSchedule s(at(n));
  std::vector<int> lo(at(n), 0), hi(at(n), n);
  halving(s, n, lo, hi);
  doubling(s, n, lo, hi);
  return s;
}

CollSchedule all_gather_ring(int n, int) {
  CollSchedule s(at(n));
  ring_steps(s, n, n - 1, 0, 0);
  return s;
}

CollSchedule all_gather_doubling(int n, int) {
  require_power_of_two("recursive-doubling", n);
  CollSchedule s(at(n));
  std::vector<int> lo(at(n)), hi(at(n));
  for (int r = 0; r < n; ++r) lo[at(r)] = r, hi[at(r)] = r + 1;
  doubling(s, n, lo, hi);
  return s;
}

// Shifted by one from all_reduce's first half, so that rank r ends with chunk r.
CollSchedule reduce_scatter_ring(int n, int) {
  CollSchedule s(at(n));
  ring_steps(s, n, n - 1, -1, n - 1);
  return s;
}

CollSchedule reduce_scatter_halving(int n, int) {
  require_power_of_two("recursive-halving", n);
  CollSchedule s(at(n));
  std::vector<int> lo(at(n), 0), hi(at(n), n);
  halving(s, n, lo, hi);
  return s;
}

// Chunk p of rank r's send buffer goes to rank p's receive buffer at n + r; peers in the order
// r+1, r+2, ...: all at once (direct), or one exchange after the other (pairwise).
CollSchedule alltoall(int n, bool pairwise) {
  CollSchedule s(at(n));
  for (int r = 0; r < n; ++r)
    for (int k = 1; k < n; ++k) {
      CollStep st;
      st.send_to = mod(r + k, n);
      st.recv_from = mod(r - k, n);
      st.send_lo = st.send_to, st.send_hi = st.send_to + 1;
      st.recv_lo = n + st.recv_from, st.recv_hi = st.recv_lo + 1;
      st.after_prev = pairwise;
      s[at(r)].push_back(st);
    }
  return s;
}

// A chain from rank 0 along the ring, the buffer in `chunks` pieces: at step j a rank forwards
// piece j-1 (received at the step before) and receives piece j.
CollSchedule broadcast_ring(int n, int chunks) {
  CollSchedule s(at(n));
  for (int r = 0; r < n; ++r)
    for (int j = 0; j <= chunks; ++j) {
      CollStep st;
      if (r < n - 1 && j >= 1) st.send_to = r + 1, st.send_lo = j - 1, st.send_hi = j;
      if (r > 0 && j < chunks) st.recv_from = r - 1, st.recv_lo = j, st.recv_hi = j + 1;
      s[at(r)].push_back(st);
    }
  return s;
}

CollSchedule sendrecv_ring(int n, int) {
  CollSchedule s(at(n));
  for (int r = 0; r < n; ++r) {
    CollStep st;
    st.send_to = mod(r + 1, n), st.send_lo = 0, st.send_hi = 1;
    st.recv_from = mod(r - 1, n), st.recv_lo = 1, st.recv_hi = 2;
    s[at(r)].push_back(st);
  }
  return s;
}

constexpr std::size_t kOps = 6;

std::array<Registry<CollectiveSpec>, kOps>& registries() {
  static std::array<Registry<CollectiveSpec>, kOps> r = [] {
    std::array<Registry<CollectiveSpec>, kOps> x{
        Registry<CollectiveSpec>("all_reduce algorithm"),     Registry<CollectiveSpec>("all_gather algorithm"),
        Registry<CollectiveSpec>("reduce_scatter algorithm"), Registry<CollectiveSpec>("alltoall algorithm"),
        Registry<CollectiveSpec>("broadcast algorithm"),      Registry<CollectiveSpec>("sendrecv algorithm")};
    auto add = [&x](CollectiveSpec s) { x[static_cast<std::size_t>(s.op)].add(std::move(s)); };
    const std::string nccl_ring = "NCCL's ring algorithm";
    const std::string thakur = "Thakur, Rabenseifner & Gropp, IJHPCA 2005";
    add({"ring", "reduce-scatter + all-gather around the ring: 2(n-1) steps of S/n", nccl_ring, CollOp::all_reduce,
         all_reduce_ring});
    add({"halving-doubling", "Rabenseifner: recursive halving then doubling, 2 log2(n) steps (n = 2^k)", thakur,
         CollOp::all_reduce, all_reduce_halving_doubling});
    add({"ring", "around the ring: n-1 steps of S/n", nccl_ring, CollOp::all_gather, all_gather_ring});
    add({"recursive-doubling", "partner r XOR 2^i, the block doubling: log2(n) steps (n = 2^k)", thakur,
         CollOp::all_gather, all_gather_doubling});
    add({"ring", "around the ring, adding: n-1 steps of S/n", nccl_ring, CollOp::reduce_scatter, reduce_scatter_ring});
    add({"recursive-halving", "partner r XOR n/2^i, the block halving: log2(n) steps (n = 2^k)", thakur,
         CollOp::reduce_scatter, reduce_scatter_halving});
    add({"direct", "every peer's S/n posted at once, peers in the order r+1, r+2, ...",
         "NCCL's alltoall (grouped point-to-point sends)", CollOp::alltoall, [](int n, int) { return alltoall(n, false); }});
    add({"pairwise", "n-1 rounds: exchange with r+k after the exchange with r+k-1 arrived", thakur, CollOp::alltoall,
         [](int n, int) { return alltoall(n, true); }});
    add({"ring", "a chain from rank 0 along the ring, pipelined in pieces of 512 KiB", nccl_ring, CollOp::broadcast,
         broadcast_ring});
    add({"ring", "rank r sends S to r+1 and receives S from r-1", "nccl-tests sendrecv_perf", CollOp::sendrecv,
         sendrecv_ring});
    return x;
  }();
  return r;
}

const std::vector<CollOpInfo> kOpInfo{
    {CollOp::all_reduce, "all_reduce", "all_reduce_perf", "sum", -1, "2(n-1)/n x S"},
    {CollOp::all_gather, "all_gather", "all_gather_perf", "none", -1, "(n-1)/n x S"},
    {CollOp::reduce_scatter, "reduce_scatter", "reduce_scatter_perf", "sum", -1, "(n-1)/n x S"},
    {CollOp::alltoall, "alltoall", "alltoall_perf", "none", -1, "(n-1)/n x S"},
    {CollOp::broadcast, "broadcast", "broadcast_perf", "none", 0, "S"},
    {CollOp::sendrecv, "sendrecv", "sendrecv_perf", "sum", -1, "S"},
};

std::vector<std::int64_t> split(std::int64_t count, int parts) {
  std::vector<std::int64_t> v;
  for (int p = 0; p < parts; ++p) v.push_back(count / parts + (p < count % parts ? 1 : 0));
  return v;
}

}  // namespace

const std::vector<CollOpInfo>& coll_ops() { return kOpInfo; }

const CollOpInfo& coll_op_info(CollOp op) { return kOpInfo.at(static_cast<std::size_t>(op)); }

std::string coll_op_names() {
  std::string names;
  for (const CollOpInfo& i : kOpInfo) names += (names.empty() ? "" : ", ") + std::string(i.name);
  return names;
}

CollOp coll_op(std::string_view name) {
  for (const CollOpInfo& i : kOpInfo)
    if (i.name == name) return i.op;
  throw std::invalid_argument("unknown collective \"" + std::string(name) + "\" (valid: " + coll_op_names() + ")");
}

double bus_factor(CollOp op, int n) {
  switch (op) {
    case CollOp::all_reduce: return 2.0 * (n - 1) / n;
    case CollOp::all_gather:
    case CollOp::reduce_scatter:
    case CollOp::alltoall: return static_cast<double>(n - 1) / n;
    case CollOp::broadcast:
    case CollOp::sendrecv: return 1.0;
  }
  return 1.0;
}

CollSizes coll_sizes(CollOp op, int n, std::int64_t requested) {
  CollSizes z;
  const std::int64_t elems = requested / kFloat;
  switch (op) {
    case CollOp::all_reduce:
      z.count = elems;
      z.chunk_elems = split(elems, n);
      break;
    case CollOp::all_gather:
    case CollOp::reduce_scatter:
    case CollOp::alltoall:
      z.count = elems / n;  // per rank (per peer for alltoall)
      z.chunk_elems.assign(static_cast<std::size_t>(op == CollOp::alltoall ? 2 * n : n), z.count);
      z.bytes = z.count * n * kFloat;
      return z;
    case CollOp::broadcast: {
      z.count = elems;
      const std::int64_t pieces = std::clamp<std::int64_t>((elems * kFloat + kPiece - 1) / kPiece, 1, kMaxPieces);
      z.chunk_elems = split(elems, static_cast<int>(pieces));
      break;
    }
    case CollOp::sendrecv:
      z.count = elems;
      z.chunk_elems = {elems, elems};
      break;
  }
  z.bytes = z.count * kFloat;
  return z;
}

ChunkState chunk_before(CollOp op, int n, int r, int ch) {
  const ChunkState own{ChunkData::rank, r}, none{};
  switch (op) {
    case CollOp::all_reduce:
    case CollOp::reduce_scatter: return own;
    case CollOp::all_gather: return ch == r ? own : none;
    case CollOp::alltoall: return ch < n || ch == n + r ? own : none;
    case CollOp::broadcast: return r == 0 ? own : none;
    case CollOp::sendrecv: return ch == 0 ? own : none;
  }
  return none;
}

ChunkState chunk_after(CollOp op, int n, int r, int ch) {
  const ChunkState all{ChunkData::all, -1}, any{ChunkData::any, -1};
  switch (op) {
    case CollOp::all_reduce: return all;
    case CollOp::reduce_scatter: return ch == r ? all : any;
    case CollOp::all_gather: return {ChunkData::rank, ch};
    case CollOp::alltoall: return ch < n ? any : ChunkState{ChunkData::rank, ch - n};
    case CollOp::broadcast: return {ChunkData::rank, 0};
    case CollOp::sendrecv: return ch == 0 ? any : ChunkState{ChunkData::rank, mod(r - 1, n)};
  }
  return any;
}

std::vector<const CollectiveSpec*> collectives() {
  std::vector<const CollectiveSpec*> v;
  for (const auto& r : registries())
    for (const CollectiveSpec* s : r.pointers()) v.push_back(s);
  return v;
}

std::vector<const CollectiveSpec*> collectives(CollOp op) {
  return registries()[static_cast<std::size_t>(op)].pointers();
}

const CollectiveSpec& collective(CollOp op, std::string_view name) {
  const Registry<CollectiveSpec>& r = registries()[static_cast<std::size_t>(op)];
  return name.empty() ? r.entries().front() : r.get(name);
}

void register_collective(CollectiveSpec spec) { registries()[static_cast<std::size_t>(spec.op)].add(std::move(spec)); }

CollSchedule collective_schedule(CollOp op, std::string_view name, int n, int chunks) {
  const CollectiveSpec& c = collective(op, name);
  if (n < 2) throw std::invalid_argument(std::string(coll_op_info(op).name) + " needs at least 2 ranks");
  return c.schedule(n, chunks);
}

}  // namespace rdmasim
