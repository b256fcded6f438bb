// GPU staging cost: one device<->host copy on the GPU's copy engine (cudaMemcpyAsync-like),
// gpu.copy_latency + bytes / gpu.copy_bw. The CPU-staged path of `allreduce --gpudirect off`
// pays one D2H copy before each send and one H2D copy after each receive; GPUs of one host
// exchange through one peer copy. Everything in the allreduce workload that charges GPU copies
// calls this one function; it is the host model's GpuCopyEngine::copy_time (host/gpu.hpp).
#pragma once

#include "host/gpu.hpp"
#include "rdmasim/profile.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

inline Time gpu_copy_time(const GpuParams& g, Bytes b) { return GpuCopyEngine(g).copy_time(b); }

}  // namespace rdmasim
