// NvlinkDomain: the GPUs of one server joined by NVLink through NVSwitch (a non-blocking
// crossbar). Each GPU is a port of `gpu.nvlink_bw` per direction, of which a collective's
// payload gets `gpu.nvlink_efficiency`; a transfer of B bytes from GPU a to GPU b holds a's
// egress and b's ingress for B / (bw x efficiency), starting when both are free (each port
// serves its transfers in the order they are asked for), and arrives gpu.nvlink_latency after
// its last byte left. Invariants: a port's transfers never overlap; a transfer never starts
// before it is asked for; times are exact picoseconds (deterministic).
// Memory: two Time per GPU.
#pragma once

#include <vector>

#include "rdmasim/profile.hpp"

namespace rdmasim {

class NvlinkDomain {
 public:
  NvlinkDomain(const GpuParams& p, int gpus);
  /// The time transferring `b` bytes from GPU `from` to GPU `to`, asked at `now`, arrives.
  Time transfer(int from, int to, Bytes b, Time now);
  /// B / (bw x efficiency): a transfer's time on its ports.
  Time service(Bytes b) const;

 private:
  GpuParams p_;
  std::vector<Time> egress_free_, ingress_free_;
};

}  // namespace rdmasim
