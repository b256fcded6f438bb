#include "host/gpu.hpp"

#include <algorithm>

namespace rdmasim {

void GpuCopyEngine::append_copy(PathSpec& path, int side, const std::string& label) const {
  Cost c;
  c.fixed = p_.copy_latency;
  c.rate = p_.copy_bw;
  c.basis = Basis::message;
  path.serve(side, ResourceKind::gpu_copy, Category::gpu, label, c);
}

void GpuCopyEngine::append_chunk_copy(PathSpec& path, int side, const std::string& label, Bytes chunk, Bytes segment,
                                      bool at_end) const {
  Cost c;
  c.fixed = p_.copy_latency;
  c.rate = p_.copy_bw;
  c.chunk_packets = static_cast<std::int32_t>(chunk.count() / segment.count());
  c.chunk_segment = segment;
  c.chunk_at_end = at_end;
  path.serve(side, ResourceKind::gpu_copy, Category::gpu, label, c);
}

Time staged_extra(const GpuParams& p, Bytes size, bool sender_gpu, bool receiver_gpu) {
  const GpuCopyEngine e(p);
  return e.copy_time(size) * ((sender_gpu ? 1 : 0) + (receiver_gpu ? 1 : 0));
}

Time pipelined(std::int64_t chunks, const std::vector<Time>& stage_times) {
  Time fill{}, worst{};
  for (Time t : stage_times) {
    fill += t;
    worst = std::max(worst, t);
  }
  return chunks <= 0 ? Time::zero() : fill + worst * (chunks - 1);
}

}  // namespace rdmasim
