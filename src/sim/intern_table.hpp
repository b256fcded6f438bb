// InternTable<T>: one copy of each distinct value a simulation's paths are built from — the
// stages' Costs and labels (SimContext::costs, ::labels). Thousands of flows are built from the
// same specs, so their stages refer to the interned copies instead of each holding its own
// (~120 bytes per Cost, a string per label).
//
// Invariants: a returned reference stays valid, and its value unchanged, for the table's life
// (std::deque never moves its elements); equal values give the same reference.
#pragma once

#include <cstddef>
#include <deque>

namespace rdmasim {

template <typename T>
class InternTable {
 public:
  /// The interned copy of `v`. Linear in the number of distinct values (a few dozen per
  /// simulation); called only while paths are built.
  const T& intern(const T& v) {
    for (const T& k : values_)
      if (k == v) return k;
    return values_.emplace_back(v);
  }
  std::size_t size() const { return values_.size(); }

 private:
  std::deque<T> values_;
};

}  // namespace rdmasim
