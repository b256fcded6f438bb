// SampleProbe: the dashboard's live view of a running simulation. Attached through the run's
// Exports (workload/run_probe.hpp), it makes the scheduler run in slices of simulated time
// (Scheduler::set_slice_hook) and, at the end of every slice that had events, hands one Sample
// to its sink: throughput and latency percentiles of the messages completed in the slice (as
// their workload released them, SimContext::observer), and on a fabric the PFC pause frames,
// paused time, mean egress queue depth of the watched ports and per-port utilisation.
//
// Invariants: the samples' slices are disjoint and in time order and their message counts add
// up to the messages completed; the slice doubles each time `target_samples` more samples have
// been taken, so a long run yields O(target x log(length)) samples. Mean queue depth is the
// queue integral's growth over the slice (the fabric accumulates it at queue changes). The
// probe also stops the run by throwing RunStopped from the slice hook: when cancelled, or when
// the run passes the events or simulated-time limit (checked at slice ends). Per message it
// does no allocation once the latency buffer has grown to its cap (latencies beyond the cap
// within one slice are counted, not kept).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/scheduler.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/observer.hpp"
#include "sim/stage.hpp"
#include "workload/run_probe.hpp"

namespace rdmasim {

struct ProbeOptions : ObserveOptions {
  std::function<void(Sample&&)> sink;
};

/// A first slice length that gives about `target_samples` slices over the run's expected
/// length: one unloaded exchange per message for a ping-pong (`pingpong`), else a message's
/// wire time, times the flows that share the bottleneck; at least 100 ns.
Time first_slice(const LatConfig& c, bool pingpong, int flows, int target_samples);

class SampleProbe final : public RunProbe, SliceHook, MessageObserver {
 public:
  explicit SampleProbe(ProbeOptions o);
  void attach(SimWorld& w) override;
  void detach(SimWorld& w) override;
  void on_slice(Time end) override;
  void message_done(const Message& m, Time now) override;

  /// After the run: per fabric port, its name, and utilisation from the first event to the
  /// last message completion (timers that outlive the traffic do not dilute it).
  const std::vector<std::string>& port_names() const { return port_names_; }
  const std::vector<float>& run_utilisation() const { return run_util_; }
  std::int64_t samples() const { return samples_; }
  std::int64_t messages() const { return total_messages_; }
  Time sim_time() const { return last_end_ - start_; }
  Time last_message() const { return last_message_ - start_; }

 private:
  struct PortPrev {
    std::uint64_t tx_bytes = 0, pause_tx = 0;
    Time paused{};
    double queue_byte_ps = 0;
  };
  ProbeOptions o_;
  SimWorld* w_ = nullptr;
  Time interval_, start_, last_end_, last_message_;
  std::int64_t slice_messages_ = 0, total_messages_ = 0, samples_ = 0;
  std::int64_t slice_bytes_ = 0;
  std::vector<std::int64_t> lat_ps_;  // this slice's latencies (reserved to kLatencyCap)
  std::vector<PortPrev> prev_, first_;
  std::vector<int> watch_ports_;
  std::vector<double> rate_bps_;
  std::vector<std::string> port_names_;
  std::vector<float> run_util_;
};

}  // namespace rdmasim
