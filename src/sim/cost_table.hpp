// CostTable: one copy of each distinct stage Cost of a simulation. The paths of thousands of
// flows are built from the same specs, so their stages refer to the interned costs instead of
// each holding ~120 bytes of its own.
//
// Invariants: a returned reference stays valid, and its value unchanged, for the table's life
// (std::deque never moves its elements); equal costs give the same reference.
#pragma once

#include <deque>

#include "model/path.hpp"

namespace rdmasim {

class CostTable {
 public:
  /// The interned copy of `c`. Linear in the number of distinct costs (a few dozen per
  /// simulation); called only while paths are built.
  const Cost& intern(const Cost& c) {
    for (const Cost& k : costs_)
      if (k == c) return k;
    return costs_.emplace_back(c);
  }
  std::size_t size() const { return costs_.size(); }

 private:
  std::deque<Cost> costs_;
};

}  // namespace rdmasim
