// GpuCopyEngine: a GPU's device<->host copy engine (cudaMemcpyAsync-like). One copy of B bytes
// takes gpu.copy_latency (launch until the engine may start it, and the completion seen by the
// host) and then B / gpu.copy_bw on the host's copy engine of its direction (a FIFO server; D2H
// and H2D copies run side by side, as on GPUs with two copy engines), all charged to `gpu`.
// The launch latency is a delay, not service: copies launched back to back overlap their
// launches and the engine runs them one after another, as a CUDA stream does with queued
// cudaMemcpyAsync calls. Only the bytes occupy the engine.
// The CPU-staged path uses it on both ends (D2H before the NIC reads the host buffer, H2D after
// the NIC wrote it): whole messages (non-pipelined, the textbook's
// T = D/B_cpu + D/B_pcie + D/B_link) or chunk by chunk (pipelined: between the NIC's split and
// merge, every packet waits out the launch, the first packet of each chunk pays the chunk's D2H
// copy and the last packet of each chunk pays its H2D copy, so chunk k's copy overlaps chunk
// k-1's transfer and the message takes the two launches + fill + chunks x bottleneck).
//
// Closed forms (used by tests and by workloads that want the staged/GPUDirect cost of a size
// without simulating): copy_time, staged_extra, pipelined.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "path/path_spec.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim {

/// A copy's direction: each has its own engine (a GPU copies both ways at once).
enum class CopyDir : std::uint8_t { d2h, h2d };

class GpuCopyEngine {
 public:
  explicit GpuCopyEngine(const GpuParams& p) : p_(p) {}
  /// One copy of `b` bytes.
  Time copy_time(Bytes b) const { return p_.copy_latency + serialization_time(b, p_.copy_bw); }
  /// The launch of a copy on `side`: gpu.copy_latency as a delay (`label`.launch).
  void append_launch(PathSpec& path, int side, const std::string& label) const;
  /// The whole message copied on `side`: its launch, then its bytes on the direction's engine.
  void append_copy(PathSpec& path, int side, CopyDir dir, const std::string& label) const;
  /// Per-chunk copies between a split (packets of `segment`) and its merge: every packet waits
  /// out the launch, then the chunk's bytes are paid on the engine by the chunk's last packet
  /// (H2D, after the chunk arrived), or by its first (D2H, before it is read).
  void append_chunk_copy(PathSpec& path, int side, CopyDir dir, const std::string& label, Bytes chunk,
                         Bytes segment) const;
  /// A chunk-staged receiver's H2D copies counted from the message's placement: one launch,
  /// then the H2D engine busy for the message's bytes, the message handed on after `chunk`
  /// bytes (the copies of the earlier chunks overlapped their arrival).
  void append_chunked_h2d(PathSpec& path, int side, const std::string& label, Bytes chunk) const;

 private:
  GpuParams p_;
};

/// Non-pipelined staging adds one D2H copy on the sender and one H2D copy on the receiver.
Time staged_extra(const GpuParams& p, Bytes size, bool sender_gpu, bool receiver_gpu);
/// The pipeline formula: `chunks` chunks through stages whose per-chunk times are given:
/// fill (the first chunk through every stage) + (chunks - 1) x the slowest stage.
Time pipelined(std::int64_t chunks, const std::vector<Time>& stage_times);

}  // namespace rdmasim
