// The six nccl-tests operations (what a chunk holds before and after, their sizes and bus
// factors) and the built-in algorithms' schedules (rdmasim/collective.hpp), with one registry
// per operation: one registration line per algorithm, in the order `rdmasim list` shows them.
#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/registry.hpp"
#include "rdmasim/collective.hpp"

namespace rdmasim {
namespace {

constexpr std::int64_t kFloat = 4;
constexpr std::int64_t kPiece = 512 << 10;  // broadcast's pipeline piece (NCCL's Simple step size, estimate)
constexpr int kMaxPieces = 64;
constexpr int kAlltoallWindow = 8;  // peers in flight in NCCL's alltoall (estimate)

int mod(int a, int n) { return ((a % n) + n) % n; }
std::size_t at(int i) { return static_cast<std::size_t>(i); }

void require_power_of_two(const char* algo, int n) {
  if ((n & (n - 1)) != 0)
    throw std::invalid_argument(std::string(algo) + " needs a power-of-two number of ranks, got " + std::to_string(n));
}

// A ring over `members` (member i sends to member i+1) moving one unit (a range of chunks) per
// step: at step k member i sends unit (i + shift - k) and receives unit (i + shift - 1 - k), adding
// it for the first `reduce_steps` steps.
void ring_units(CollSchedule& s, const std::vector<int>& members, const std::vector<std::pair<int, int>>& units,
                int steps, int shift, int reduce_steps) {
  const int m = static_cast<int>(members.size());
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < steps; ++k) {
      CollStep st;
      st.send_to = members[at(mod(i + 1, m))];
      st.recv_from = members[at(mod(i - 1, m))];
      std::tie(st.send_lo, st.send_hi) = units[at(mod(i + shift - k, m))];
      std::tie(st.recv_lo, st.recv_hi) = units[at(mod(i + shift - 1 - k, m))];
      st.reduce = k < reduce_steps;
      s[at(members[at(i)])].push_back(st);
    }
}

// Around the ring 0 -> 1 -> ... -> n-1 -> 0, one chunk per step (chunk i: unit i).
void ring_steps(CollSchedule& s, int n, int steps, int shift, int reduce_steps) {
  std::vector<int> ranks;
  std::vector<std::pair<int, int>> chunks;
  for (int r = 0; r < n; ++r) ranks.push_back(r), chunks.emplace_back(r, r + 1);
  ring_units(s, ranks, chunks, steps, shift, reduce_steps);
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

// Hierarchical all_reduce on S servers of G GPUs: inside each server a reduce-scatter ring over
// its GPUs (GPU g ends with group g, chunks g*S .. g*S+S-1, summed over the server), then an
// all_reduce ring over the servers among the GPUs of the same index (one rail), then an
// all-gather ring inside each server. Every rank sends 2(n-1)/n x S.
CollSchedule all_reduce_hierarchical(int n, int, int local) {
  if (local < 1 || n % local != 0)
    throw std::invalid_argument("hierarchical needs whole servers: " + std::to_string(n) + " ranks of " +
                                std::to_string(local) + " GPUs per server");
  const int servers = n / local;
  CollSchedule s(at(n));
  std::vector<std::pair<int, int>> groups;
  for (int g = 0; g < local; ++g) groups.emplace_back(g * servers, (g + 1) * servers);
  const auto server_members = [&](int sv) {
    std::vector<int> v;
    for (int g = 0; g < local; ++g) v.push_back(sv * local + g);
    return v;
  };
  if (local > 1)
    for (int sv = 0; sv < servers; ++sv) ring_units(s, server_members(sv), groups, local - 1, -1, local - 1);
  if (servers > 1)
    for (int g = 0; g < local; ++g) {
      std::vector<int> rail;
      std::vector<std::pair<int, int>> units;
      for (int sv = 0; sv < servers; ++sv) rail.push_back(sv * local + g), units.emplace_back(g * servers + sv, g * servers + sv + 1);
      ring_units(s, rail, units, 2 * (servers - 1), 0, servers - 1);
    }
  if (local > 1)
    for (int sv = 0; sv < servers; ++sv) ring_units(s, server_members(sv), groups, local - 1, 0, 0);
  return s;
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

// NVLS (NVLink SHARP): rank r owns slice r of every piece (chunk p*n + r). Per piece, every rank
// sends its part of slice j to rank j, summed inside the NVSwitch on the way, and j, once the
// sum is in, multicasts it to every rank. A rank sends the next piece's parts before it waits
// for this piece's sum, so reductions and multicasts overlap; the i-th send from a to b must
// meet the i-th receive at b from a, so receives are listed in the order sends go out:
// RS(0), RS(1), AG(0), RS(2), AG(1), ..., RS(P-1), AG(P-2), AG(P-1).
CollSchedule all_reduce_nvls(int n, int chunks) {
  const int pieces = chunks / n;
  CollSchedule s(at(n));
  for (int r = 0; r < n; ++r) {
    auto& steps = s[at(r)];
    auto parts = [&](int p) {  // this rank's part of slice j of piece p, to j
      for (int k = 1; k < n; ++k) {
        CollStep st;
        st.send_to = mod(r + k, n), st.send_lo = p * n + st.send_to, st.send_hi = st.send_lo + 1;
        st.after = 0, st.in_switch = InSwitch::reduce;
        steps.push_back(st);
      }
    };
    auto sums = [&](int p) {  // the sums of every rank's slice of piece p, from their owners
      for (int k = 1; k < n; ++k) {
        CollStep st;
        st.recv_from = mod(r - k, n), st.recv_lo = p * n + st.recv_from, st.recv_hi = st.recv_lo + 1;
        st.after = 0;
        steps.push_back(st);
      }
    };
    parts(0);
    for (int p = 0; p < pieces; ++p) {
      if (p + 1 < pieces) parts(p + 1);
      for (int k = 1; k < n; ++k) {  // slice r of piece p summed: each receive waits for the one before
        CollStep st;
        st.recv_from = mod(r - k, n), st.recv_lo = p * n + r, st.recv_hi = st.recv_lo + 1;
        st.reduce = true;
        steps.push_back(st);
      }
      for (int k = 1; k < n; ++k) {  // ...then multicast; the first send waits for the last part
        CollStep st;
        st.send_to = mod(r + k, n), st.send_lo = p * n + r, st.send_hi = st.send_lo + 1;
        st.in_switch = InSwitch::multicast;
        steps.push_back(st);
      }
      if (p >= 1) sums(p - 1);
    }
    sums(pieces - 1);
  }
  return s;
}

// The tree pipelines the buffer in pieces of at least 512 KiB (n chunks each), at most 64.
int tree_pieces(int /*n*/, std::int64_t bytes) {
  return static_cast<int>(std::clamp<std::int64_t>(bytes / kPiece, 1, kMaxPieces));
}

// NVLS pipelines each rank's slice in pieces of at least 512 KiB, at most 32.
int nvls_pieces(int n, std::int64_t bytes) {
  return static_cast<int>(std::clamp<std::int64_t>(bytes / (static_cast<std::int64_t>(n) * kPiece), 1, 32));
}

// A binary tree over ranks 0..n-1 as NCCL builds it (src/graph/trees.cc): rank 0 is the root
// with one child; a rank's parent and children follow from its lowest set bit.
struct TreeNode {
  int parent = -1;
  std::array<int, 2> child{-1, -1};
};
TreeNode btree(int n, int r) {
  TreeNode t;
  int bit = 1;
  while (bit < n && (bit & r) == 0) bit <<= 1;
  if (r == 0) {
    t.child[1] = n > 1 ? bit >> 1 : -1;
    return t;
  }
  t.parent = (r ^ bit) | (bit << 1);
  if (t.parent >= n) t.parent = r ^ bit;
  int low = bit >> 1;
  if (low == 0) return t;
  t.child[0] = r - low;
  while (low > 0 && r + low >= n) low >>= 1;
  t.child[1] = low > 0 ? r + low : -1;
  return t;
}
// NCCL's double binary tree: the second tree mirrors the first (n even) or shifts it by one
// (n odd), so a leaf of one is inside the other.
TreeNode dtree(int n, int r, int tree) {
  if (tree == 0) return btree(n, r);
  auto map = [n](int x) { return n % 2 == 1 ? mod(x - 1, n) : n - 1 - x; };    // rank -> its place
  auto back = [n](int x) { return x < 0 ? -1 : n % 2 == 1 ? mod(x + 1, n) : n - 1 - x; };  // place -> rank
  TreeNode t = btree(n, map(r));
  t.parent = back(t.parent);
  for (int& c : t.child) c = back(c);
  return t;
}

// Double binary tree all_reduce: tree t carries half of every piece (piece q: chunks q*n ..
// q*n + n/2 for tree 0, the rest for tree 1). Per piece a rank adds its children's partial sums
// and sends the result to its parent; the root's sum comes back down, each rank forwarding it to
// its children. Slots keep both trees and every piece in a pipeline: a rank of height h (a leaf:
// 0) sends piece q up at slot q + h; a rank at depth d sends it down at slot q + H + d (H: the
// root's height); a message sent at slot x is listed as received at slot x + 1, so the i-th send
// from a to b meets the i-th receive at b from a. A send waits for the receive it forwards (the
// second child's waits for the first's).
CollSchedule all_reduce_tree(int n, int chunks) {
  const int pieces = chunks / n;
  std::array<std::vector<TreeNode>, 2> node;
  std::array<std::vector<int>, 2> height, depth;
  std::array<int, 2> root{}, top{};
  for (int t = 0; t < 2; ++t) {
    for (int r = 0; r < n; ++r) node[at(t)].push_back(dtree(n, r, t));
    height[at(t)].assign(at(n), -1);
    depth[at(t)].assign(at(n), -1);
    std::function<int(int)> h = [&](int r) {  // leaves 0
      int& v = height[at(t)][at(r)];
      if (v < 0) {
        v = 0;
        for (int c : node[at(t)][at(r)].child)
          if (c >= 0) v = std::max(v, h(c) + 1);
      }
      return v;
    };
    std::function<int(int)> d = [&](int r) {
      int& v = depth[at(t)][at(r)];
      if (v < 0) v = node[at(t)][at(r)].parent < 0 ? 0 : d(node[at(t)][at(r)].parent) + 1;
      return v;
    };
    for (int r = 0; r < n; ++r) {
      h(r), d(r);
      if (node[at(t)][at(r)].parent < 0) root[at(t)] = r;
    }
    top[at(t)] = height[at(t)][at(root[at(t)])];
  }
  int slots = 0;
  for (int t = 0; t < 2; ++t)
    for (int r = 0; r < n; ++r) slots = std::max(slots, pieces + top[at(t)] + depth[at(t)][at(r)] + 2);
  CollSchedule s(at(n));
  for (int r = 0; r < n; ++r) {
    auto& steps = s[at(r)];
    // [tree][piece]: the step of this rank's latest receive of the piece (-1: none yet).
    std::array<std::vector<int>, 2> got{std::vector<int>(at(pieces), -1), std::vector<int>(at(pieces), -1)};
    auto add = [&](int t, int q, int to, int from, bool reduce) {
      CollStep st;
      st.send_to = to, st.recv_from = from, st.reduce = reduce;
      const int lo = q * n + (t == 0 ? 0 : n / 2), hi = q * n + (t == 0 ? n / 2 : n);
      if (to >= 0) st.send_lo = lo, st.send_hi = hi;
      if (from >= 0) st.recv_lo = lo, st.recv_hi = hi;
      const int k = static_cast<int>(steps.size());
      int& last = got[at(t)][at(q)];
      st.after = last >= 0 ? k - last : 0;  // a send: the receive it forwards; a receive: the one before
      if (from >= 0) last = k;
      steps.push_back(st);
    };
    for (int slot = 0; slot < slots; ++slot)
      for (int t = 0; t < 2; ++t) {
        const TreeNode& me = node[at(t)][at(r)];
        const int h = height[at(t)][at(r)], d = depth[at(t)][at(r)];
        for (int c : me.child)  // children's sums sent at the slot before
          if (const int q = c < 0 ? -1 : slot - 1 - height[at(t)][at(c)]; c >= 0 && q >= 0 && q < pieces) add(t, q, -1, c, true);
        if (const int q = slot - top[at(t)] - d; me.parent >= 0 && q >= 0 && q < pieces)  // the root's sum, from the parent
          add(t, q, -1, me.parent, false);
        if (const int q = slot - h; me.parent >= 0 && q >= 0 && q < pieces) add(t, q, me.parent, -1, false);
        if (const int q = slot - top[at(t)] - d; q >= 0 && q < pieces)
          for (int c : me.child)
            if (c >= 0) add(t, q, c, -1, false);
      }
  }
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
// r+1, r+2, ...: all at once (window 0: direct), one exchange after the other (1: pairwise), or
// with the exchange `window` peers back arrived.
CollSchedule alltoall(int n, int window) {
  CollSchedule s(at(n));
  for (int r = 0; r < n; ++r)
    for (int k = 1; k < n; ++k) {
      CollStep st;
      st.send_to = mod(r + k, n);
      st.recv_from = mod(r - k, n);
      st.send_lo = st.send_to, st.send_hi = st.send_to + 1;
      st.recv_lo = n + st.recv_from, st.recv_hi = st.recv_lo + 1;
      st.after = window;
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
    add({"tree", "NCCL's double binary tree: two trees, each half of every piece, reduce up and broadcast down, pipelined",
         "NCCL's tree algorithm (src/graph/trees.cc); Sanders, Speck & Traeff, Parallel Computing 2009",
         CollOp::all_reduce, all_reduce_tree, tree_pieces, false, false});
    add({"hierarchical",
         "reduce-scatter inside each server, all_reduce across servers on each rail, all-gather inside: rings",
         "two-level all_reduce (intra-server NVLink, inter-server rails), as SimAI and ASTRA-sim model it",
         CollOp::all_reduce, nullptr, {}, false, true, all_reduce_hierarchical});
    add({"nvls", "NVLink SHARP in one server: sums inside the NVSwitch, then multicast, pipelined in pieces",
         "NCCL's NVLS algorithm (NVSwitch gen 3, Hopper)", CollOp::all_reduce, all_reduce_nvls, nvls_pieces, true});
    add({"ring", "around the ring: n-1 steps of S/n", nccl_ring, CollOp::all_gather, all_gather_ring});
    add({"recursive-doubling", "partner r XOR 2^i, the block doubling: log2(n) steps (n = 2^k)", thakur,
         CollOp::all_gather, all_gather_doubling});
    add({"ring", "around the ring, adding: n-1 steps of S/n", nccl_ring, CollOp::reduce_scatter, reduce_scatter_ring});
    add({"recursive-halving", "partner r XOR n/2^i, the block halving: log2(n) steps (n = 2^k)", thakur,
         CollOp::reduce_scatter, reduce_scatter_halving});
    add({"windowed",
         "peers in the order r+1, r+2, ..., " + std::to_string(kAlltoallWindow) +
             " in flight: the send to r+k waits for the exchange with r+k-" + std::to_string(kAlltoallWindow),
         "NCCL's alltoall: grouped point-to-point sends, a few peers at a time over its p2p channels (window: estimate)",
         CollOp::alltoall, [](int n, int) { return alltoall(n, kAlltoallWindow); }});
    add({"direct", "every peer's S/n posted at once, peers in the order r+1, r+2, ...",
         "grouped point-to-point sends, unbounded", CollOp::alltoall, [](int n, int) { return alltoall(n, 0); }});
    add({"pairwise", "n-1 rounds: exchange with r+k after the exchange with r+k-1 arrived", thakur, CollOp::alltoall,
         [](int n, int) { return alltoall(n, 1); }});
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

CollSizes coll_sizes(CollOp op, int n, std::int64_t requested, int pieces) {
  if (pieces < 1 || (pieces > 1 && op != CollOp::all_reduce))
    throw std::invalid_argument("coll_sizes: pieces must be 1, or more for all_reduce only");
  CollSizes z;
  const std::int64_t elems = requested / kFloat;
  switch (op) {
    case CollOp::all_reduce:
      z.count = elems;
      z.chunk_elems = split(elems, n * pieces);
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

CollSchedule collective_schedule(CollOp op, std::string_view name, int n, int chunks, int local) {
  const CollectiveSpec& c = collective(op, name);
  if (n < 2) throw std::invalid_argument(std::string(coll_op_info(op).name) + " needs at least 2 ranks");
  if (c.schedule_local) return c.schedule_local(n, chunks, local);
  return c.schedule(n, chunks);
}

}  // namespace rdmasim
