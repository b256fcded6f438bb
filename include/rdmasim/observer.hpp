// Watching a run as it is simulated (rdmasim::run, include/rdmasim/scenario.hpp): the run
// proceeds in slices of simulated time and, at the end of every slice that had events, hands
// the observer one Sample — throughput and latency percentiles of the messages completed in the
// slice, and on a fabric PFC pause frames, paused time, queue depth and per-port utilisation —
// then one RunEnd when it is over. An observer never changes what is simulated, only where the
// scheduler pauses; a run without one is exactly the unobserved run.
//
// Invariants: the samples' slices are disjoint and in time order and their message counts add
// up to the messages completed; the slice doubles each time `target_samples` more samples have
// been taken, so a long run yields O(target x log(length)) samples. The run stops with
// RunStopped when `cancel` becomes true or a limit is passed (checked at slice ends).
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "rdmasim/units.hpp"

namespace rdmasim {

struct Sample {
  double t_us = 0, dt_us = 0;       // end of the slice, its length
  double gbps = 0;                  // payload of the messages completed in the slice / dt
  std::int64_t messages = 0;        // completed in the slice
  std::int64_t total_messages = 0;  // completed so far
  double p50_us = 0, p99_us = 0, max_us = 0;  // their post-to-completion latency (0: none)
  std::uint64_t pause_frames = 0;   // PFC frames sent in the slice, all ports
  double paused_us = 0;             // transmitter time paused in the slice, all ports
  double queue_bytes = 0;           // largest mean egress queue depth in the slice over all ports
  int queue_port = -1;              // the port that had it
  std::vector<double> watch_queue;  // mean queue depth of each watched port
  std::vector<std::uint64_t> watch_pauses;  // PFC frames sent by each watched port
  std::vector<float> utilisation;   // per fabric port: tx bytes on the wire / (rate x dt)
  std::uint64_t events = 0;         // events run so far
};

/// Why an observed run stopped early (thrown out of run()).
struct RunStopped : std::runtime_error {
  RunStopped(std::string key, const std::string& what) : std::runtime_error(what), key(std::move(key)) {}
  std::string key;  // "cancelled", "limits.events", "limits.sim_time_us"
};

struct ObserveOptions {
  Time interval{};                    // first slice length (zero: about target_samples over the expected run)
  int target_samples = 200;           // samples per slice length before it doubles
  std::uint64_t max_events = 0;       // 0: no limit
  Time max_sim_time{};                // 0: no limit
  std::vector<std::string> watch;     // fabric ports whose queue goes to Sample::watch_* ("edge0.0->h1")
  const std::atomic<bool>* cancel = nullptr;
};

/// After the run: per fabric port its name and utilisation from the first event to the last
/// message completion, and the totals.
struct RunEnd {
  std::vector<std::string> port_names;
  std::vector<float> utilisation;
  std::int64_t samples = 0, messages = 0;
  Time sim_time{}, last_message{};
};

class RunObserver {
 public:
  virtual ObserveOptions options() const { return {}; }
  virtual void on_sample(Sample&& s) = 0;
  virtual void on_end(const RunEnd&) {}

 protected:
  ~RunObserver() = default;
};

}  // namespace rdmasim
