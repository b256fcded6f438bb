// AllReduce algorithms: who sends which chunks to whom at every step (`rdmasim allreduce --algo
// NAME`, scenario key workload.algo). An algorithm is a registered component — a name, a
// description, its source, and its schedule for n ranks. Built-ins: ring, halving-doubling
// (src/workload/allreduce_schedule.cpp). A program that links the library registers its own
// with register_collective before it runs anything; an unknown name lists the registered ones.
//
// The buffer is cut into n chunks. Step k of rank r sends chunks [send_lo, send_hi) to
// `send_to` and receives chunks [recv_lo, recv_hi) from `recv_from`, which it adds to its own
// (`reduce`, the reduce-scatter phase) or stores (the all-gather phase). Invariants of a
// schedule (checked by the tests for every registered one): a step's sender and receiver
// agree on the chunks; after the last step every rank holds every chunk summed over all ranks.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rdmasim {

struct CollStep {
  int send_to = 0, recv_from = 0;
  int send_lo = 0, send_hi = 0;
  int recv_lo = 0, recv_hi = 0;
  bool reduce = false;
};
using CollSchedule = std::vector<std::vector<CollStep>>;  // [rank][step]

struct CollectiveSpec {
  std::string name;
  std::string description;
  std::string source;  // where the algorithm comes from ("" for none)
  /// The schedule for n >= 2 ranks; std::invalid_argument for a rank count it cannot serve.
  std::function<CollSchedule(int n)> schedule;
};

/// The registered algorithms, in registration order (built-ins first).
std::vector<const CollectiveSpec*> collectives();
/// Throws std::invalid_argument naming the registered algorithms for an unknown name.
const CollectiveSpec& collective(std::string_view name);
/// Adds an algorithm; throws std::invalid_argument for an empty or taken name.
void register_collective(CollectiveSpec spec);
/// collective(name).schedule(n), after refusing n < 2.
CollSchedule allreduce_schedule(std::string_view name, int n);

}  // namespace rdmasim
