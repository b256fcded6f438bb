// `rdmasim cmtime`'s report: rdma-core cmtime's step table (us/conn, sum, max, min, total,
// avg/iter in whole microseconds, truncated as cmtime prints them) and its JSON (picoseconds).
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>

#include "rdmasim/cmtime.hpp"

namespace rdmasim {

void print_cmtime(std::FILE* out, const CmtimeResult& r);
nlohmann::ordered_json cmtime_json(const CmtimeResult& r);

}  // namespace rdmasim
