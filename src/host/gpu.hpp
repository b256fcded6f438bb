// GpuCopyEngine: a GPU's device<->host copy engine (cudaMemcpyAsync-like): one copy of B bytes
// costs gpu.copy_latency + B / gpu.copy_bw on the host's copy-engine FIFO server, charged to
// `gpu`. The CPU-staged path uses it on both ends (D2H before the NIC reads the host buffer,
// H2D after the NIC wrote it): whole messages (non-pipelined, the textbook's
// T = D/B_cpu + D/B_pcie + D/B_link) or chunk by chunk (pipelined: between the NIC's split and
// merge, the first packet of each chunk pays the chunk's D2H copy and the last packet of each
// chunk pays its H2D copy, so chunk k's copy overlaps chunk k-1's transfer and the message
// takes fill + chunks x bottleneck).
//
// Closed forms (used by tests and by workloads that want the staged/GPUDirect cost of a size
// without simulating): copy_time, staged_extra, pipelined.
#pragma once

#include <string>
#include <vector>

#include "path/path_spec.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

class GpuCopyEngine {
 public:
  explicit GpuCopyEngine(const GpuParams& p) : p_(p) {}
  /// One copy of `b` bytes.
  Time copy_time(Bytes b) const { return p_.copy_latency + serialization_time(b, p_.copy_bw); }
  /// The whole message copied on `side` (D2H or H2D, by label).
  void append_copy(PathSpec& path, int side, const std::string& label) const;
  /// Per-chunk copies between a split (packets of `segment`) and its merge; `at_end`: paid by
  /// the chunk's last packet (H2D after the chunk arrived), else by its first (D2H before it
  /// is read).
  void append_chunk_copy(PathSpec& path, int side, const std::string& label, Bytes chunk, Bytes segment,
                         bool at_end) const;

 private:
  GpuParams p_;
};

/// Non-pipelined staging adds one D2H copy on the sender and one H2D copy on the receiver.
Time staged_extra(const GpuParams& p, Bytes size, bool sender_gpu, bool receiver_gpu);
/// The pipeline formula: `chunks` chunks through stages whose per-chunk times are given:
/// fill (the first chunk through every stage) + (chunks - 1) x the slowest stage.
Time pipelined(std::int64_t chunks, const std::vector<Time>& stage_times);

}  // namespace rdmasim
