#include "sim/rnr_timer.hpp"

#include <array>
#include <stdexcept>

namespace rdmasim::verbs {

Time rnr_timer_delay(std::uint8_t encoded) {
  // IBA table 45, in units of 10 us: 0.01 ms ... 491.52 ms; code 0 is 655.36 ms.
  static constexpr std::array<std::int64_t, 32> k10us = {
      65536, 1,    2,    3,    4,    6,    8,    12,   16,   24,   32,    48,    64,    96,    128,   192,
      256,   384,  512,  768,  1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152};
  if (encoded >= k10us.size()) throw std::out_of_range("min_rnr_timer is a 5-bit code (0..31)");
  return Time::us(10) * k10us[encoded];
}

std::optional<Time> ack_timeout(std::uint8_t encoded) {
  if (encoded >= 32) throw std::out_of_range("timeout is a 5-bit code (0..31)");
  if (encoded == 0) return std::nullopt;
  return Time::ns(4096) * (std::int64_t{1} << encoded);
}

}  // namespace rdmasim::verbs
