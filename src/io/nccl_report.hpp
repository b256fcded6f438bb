// nccl-tests' output for `rdmasim all_reduce`, `all_gather`, ... (nccl-tests' common.cu): the header block, the size /
// count / type / redop / root table with out-of-place and in-place columns (time, algbw,
// busbw, #wrong; nccl-tests' getFloatStr fitting), "Out of bounds values" and "Avg bus
// bandwidth". The simulator does not distinguish the placements (no buffer placement is
// modelled), so both columns show the same simulated run.
#pragma once

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "rdmasim/nccl_test.hpp"

namespace rdmasim {

/// nccl-tests getFloatStr: "%*.2f", then fewer decimals, then exponent, until it fits `width`.
std::string nccl_float(double v, int width);
/// nccl-tests' time column: "%7.2f" below 100 us, "%7.1f" below 10 ms, "%7.0f" above.
std::string nccl_time(double us);
void print_collective(std::FILE* out, const CollectiveResult& r);
nlohmann::ordered_json collective_json(const CollectiveResult& r);

}  // namespace rdmasim
