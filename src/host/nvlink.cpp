#include "host/nvlink.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rdmasim {

NvlinkDomain::NvlinkDomain(const GpuParams& p, int gpus)
    : p_(p), egress_free_(static_cast<std::size_t>(gpus)), ingress_free_(static_cast<std::size_t>(gpus)) {
  if (p.nvlink_bw.bits_per_sec() <= 0) throw std::invalid_argument("NvlinkDomain: gpu.nvlink_bw is 0 (no NVLink)");
}

namespace {
// The payload's rate, rounded down to a whole bit per second (the service up to the ps).
Time payload_time(Bytes b, Rate line, double efficiency) {
  const auto payload = static_cast<std::int64_t>(std::floor(static_cast<double>(line.bits_per_sec()) * efficiency));
  return serialization_time(b, Rate::bps(std::max<std::int64_t>(payload, 1)));
}
}  // namespace

Time NvlinkDomain::service(Bytes b) const { return payload_time(b, p_.nvlink_bw, p_.nvlink_efficiency); }

Time NvlinkDomain::nvls_service(Bytes b) const { return payload_time(b, p_.nvlink_bw, p_.nvls_efficiency); }

Time NvlinkDomain::group_transfer(Group g, int from, int to, Bytes b, Time now, std::int64_t key, int pieces) {
  if (p_.nvls_efficiency <= 0) throw std::invalid_argument("NvlinkDomain: gpu.nvls_efficiency is 0 (no NVLS)");
  const bool multicast = g == Group::multicast;
  Time& shared = multicast ? egress_free_.at(static_cast<std::size_t>(from)) : ingress_free_.at(static_cast<std::size_t>(to));
  Time& own = multicast ? ingress_free_.at(static_cast<std::size_t>(to)) : egress_free_.at(static_cast<std::size_t>(from));
  const auto [it, first] = groups_.try_emplace({g, multicast ? from : to, key});
  Open& o = it->second;
  if (first) {
    o.left = pieces;
    o.start = std::max(now, shared);
    o.done = shared = o.start + nvls_service(b);
  }
  const Time start = std::max({now, own, o.start});
  own = start + nvls_service(b);
  const Time at = std::max(own, o.done) + p_.nvlink_latency;
  if (--o.left <= 0) groups_.erase(it);
  return at;
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
