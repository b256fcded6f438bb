#include "host/nvlink.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rdmasim {

NvlinkDomain::NvlinkDomain(const GpuParams& p, int gpus)
    : p_(p), egress_free_(static_cast<std::size_t>(gpus)), ingress_free_(static_cast<std::size_t>(gpus)) {
  if (p.nvlink_bw.bits_per_sec() <= 0) throw std::invalid_argument("NvlinkDomain: gpu.nvlink_bw is 0 (no NVLink)");
}

Time NvlinkDomain::service(Bytes b) const {
  // The payload's rate, rounded down to a whole bit per second (the service up to the ps).
  const auto payload = static_cast<std::int64_t>(std::floor(static_cast<double>(p_.nvlink_bw.bits_per_sec()) * p_.nvlink_efficiency));
  return serialization_time(b, Rate::bps(std::max<std::int64_t>(payload, 1)));
}

Time NvlinkDomain::transfer(int from, int to, Bytes b, Time now) {
  Time& out = egress_free_.at(static_cast<std::size_t>(from));
  Time& in = ingress_free_.at(static_cast<std::size_t>(to));
  const Time start = std::max({now, out, in});
  const Time done = start + service(b);
  out = in = done;
  return done + p_.nvlink_latency;
}

}  // namespace rdmasim
