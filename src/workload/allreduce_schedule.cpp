// The built-in AllReduce algorithms (rdmasim/collective.hpp) and their registry: one
// registration line per algorithm, in the order `rdmasim list` shows them.
#include <stdexcept>
#include <string>

#include "core/registry.hpp"
#include "rdmasim/collective.hpp"

namespace rdmasim {
namespace {

// Reduce-scatter then all-gather around the ring: 2(n-1) steps of one chunk each.
CollSchedule ring(int n) {
  CollSchedule s(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < 2 * (n - 1); ++k) {
      CollStep st;
      st.send_to = (r + 1) % n;
      st.recv_from = (r + n - 1) % n;
      st.send_lo = ((r - k) % n + n) % n;
      st.send_hi = st.send_lo + 1;
      st.recv_lo = ((r - 1 - k) % n + n) % n;
      st.recv_hi = st.recv_lo + 1;
      st.reduce = k < n - 1;
      s[static_cast<std::size_t>(r)].push_back(st);
    }
  return s;
}

// Rabenseifner: reduce-scatter by recursive halving, all-gather by recursive doubling;
// 2 log2(n) steps, n a power of two.
CollSchedule halving_doubling(int n) {
  CollSchedule s(static_cast<std::size_t>(n));
  if ((n & (n - 1)) != 0)
    throw std::invalid_argument("halving-doubling needs a power-of-two number of ranks, got " + std::to_string(n));
  for (int r = 0; r < n; ++r) {
    int lo = 0, hi = n;
    for (int d = n / 2; d >= 1; d /= 2) {  // reduce-scatter by recursive halving
      const int mid = lo + (hi - lo) / 2;
      CollStep st;
      st.send_to = st.recv_from = r ^ d;
      st.reduce = true;
      if ((r & d) == 0) {
        st.send_lo = mid, st.send_hi = hi, st.recv_lo = lo, st.recv_hi = mid;
        hi = mid;
      } else {
        st.send_lo = lo, st.send_hi = mid, st.recv_lo = mid, st.recv_hi = hi;
        lo = mid;
      }
      s[static_cast<std::size_t>(r)].push_back(st);
    }
    for (int d = 1; d < n; d *= 2) {  // all-gather by recursive doubling
      const int w = hi - lo;
      CollStep st;
      st.send_to = st.recv_from = r ^ d;
      st.send_lo = lo, st.send_hi = hi;
      if ((r & d) == 0) {
        st.recv_lo = hi, st.recv_hi = hi + w;
        hi += w;
      } else {
        st.recv_lo = lo - w, st.recv_hi = lo;
        lo -= w;
      }
      s[static_cast<std::size_t>(r)].push_back(st);
    }
  }
  return s;
}

Registry<CollectiveSpec>& registry() {
  static Registry<CollectiveSpec> r = [] {
    Registry<CollectiveSpec> x("collective");
    x.add({"ring", "reduce-scatter + all-gather around the ring: 2(n-1) steps of S/n", "NCCL's ring algorithm", ring});
    x.add({"halving-doubling", "Rabenseifner: recursive halving then doubling, 2 log2(n) steps (n = 2^k)",
           "Thakur, Rabenseifner & Gropp, IJHPCA 2005", halving_doubling});
    return x;
  }();
  return r;
}

}  // namespace

std::vector<const CollectiveSpec*> collectives() { return registry().pointers(); }

const CollectiveSpec& collective(std::string_view name) { return registry().get(name); }

void register_collective(CollectiveSpec spec) { registry().add(std::move(spec)); }

CollSchedule allreduce_schedule(std::string_view name, int n) {
  const CollectiveSpec& c = collective(name);
  if (n < 2) throw std::invalid_argument("allreduce needs at least 2 ranks");
  return c.schedule(n);
}

}  // namespace rdmasim
