// OsNoise: what a host adds, at random, to the moment a polling thread notices a completion.
// Two parts, drawn per completion from the run's seeded stream (deterministic per seed):
//   - a body, exponential with mean host.poll_noise: cache misses on the CQ, the CQE's PCIe
//     write arbitrating with the poller's reads, the loop's phase;
//   - rare spikes: with probability host.noise_prob the poller is interrupted (timer tick,
//     device interrupt, softirq, SMI) and loses uniform [0, host.noise_max].
// This is where perftest's tails come from: t_min and the median move by the body's mean at
// most, the 99th percentile shows the body, t_max and 99.9 % the spikes. Charged to `kernel`
// (the OS's time, not the NIC's). Off when all three parameters are 0; the budget adds the
// mean (Cost::random_mean).
#pragma once

#include <string>

#include "path/path_spec.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

class OsNoise {
 public:
  explicit OsNoise(const HostParams& p) : p_(p) {}
  bool on() const;
  /// The noise before side's poll notices a completion (nothing when off).
  void append(PathSpec& path, int side, const std::string& label) const;

 private:
  HostParams p_;
};

}  // namespace rdmasim
