// GPU staging cost: one device<->host copy on the GPU's copy engine (cudaMemcpyAsync-like),
// gpu.copy_latency + bytes / gpu.copy_bw. The CPU-staged path of `allreduce --gpudirect off`
// pays one D2H copy before each send and one H2D copy after each receive; GPUs of one host
// exchange through one peer copy. A self-contained placeholder for the full GPU / PCIe model:
// everything that charges GPU copies calls this one function.
#pragma once

#include "rdmasim/profile.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

inline Time gpu_copy_time(const GpuParams& g, Bytes b) { return g.copy_latency + serialization_time(b, g.copy_bw); }

}  // namespace rdmasim
