#include "workload/allreduce_schedule.hpp"

#include <stdexcept>
#include <string>

namespace rdmasim {

std::string_view to_string(AllReduceAlgo a) { return a == AllReduceAlgo::ring ? "ring" : "halving-doubling"; }

std::vector<std::vector<CollStep>> allreduce_schedule(AllReduceAlgo algo, int n) {
  if (n < 2) throw std::invalid_argument("allreduce needs at least 2 ranks");
  std::vector<std::vector<CollStep>> s(static_cast<std::size_t>(n));
  if (algo == AllReduceAlgo::ring) {
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

}  // namespace rdmasim
