#include "host/gpu.hpp"

#include <algorithm>

namespace rdmasim {

namespace {
ResourceKind engine(CopyDir d) { return d == CopyDir::d2h ? ResourceKind::gpu_copy : ResourceKind::gpu_copy_h2d; }
}  // namespace

void GpuCopyEngine::append_launch(PathSpec& path, int side, const std::string& label) const {
  Cost launch;
  launch.fixed = p_.copy_latency;
  path.delay(side, Category::gpu, label + ".launch", launch);
}

void GpuCopyEngine::append_copy(PathSpec& path, int side, CopyDir dir, const std::string& label) const {
  append_launch(path, side, label);
  Cost c;
  c.rate = p_.copy_bw;
  c.basis = Basis::message;
  path.serve(side, engine(dir), Category::gpu, label, c);
}

void GpuCopyEngine::append_chunk_copy(PathSpec& path, int side, CopyDir dir, const std::string& label, Bytes chunk,
                                      Bytes segment) const {
  append_launch(path, side, label);
  Cost c;
  c.rate = p_.copy_bw;
  c.chunk_packets = static_cast<std::int32_t>(chunk.count() / segment.count());
  c.chunk_segment = segment;
  c.chunk_at_end = dir == CopyDir::h2d;
  path.serve(side, engine(dir), Category::gpu, label, c);
}

void GpuCopyEngine::append_chunked_h2d(PathSpec& path, int side, const std::string& label, Bytes chunk) const {
  append_launch(path, side, label);
  Cost c;
  c.rate = p_.copy_bw;
  c.basis = Basis::message;
  c.release_bytes = chunk;
  c.release_last_chunk = true;
  path.serve(side, engine(CopyDir::h2d), Category::gpu, label, c);
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
