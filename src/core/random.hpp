// Named, seeded random streams with results identical on every machine and standard library.
//
// Each stream is xoshiro256** seeded through splitmix64 from (master seed, FNV-1a hash of the
// stream's name, and an instance number where each entity draws on its own), so adding a
// stream never shifts another stream's draws. Mappings from bits
// to values are implemented here (no <random> distributions, whose output differs between
// libstdc++ and libc++): uniform integers by rejection (unbiased), uniform doubles from the top
// 53 bits.
#pragma once

#include <cstdint>
#include <string_view>

#include "rdmasim/units.hpp"

namespace rdmasim {

std::uint64_t fnv1a64(std::string_view s);
std::uint64_t splitmix64(std::uint64_t& state);

class RandomStream {
 public:
  RandomStream(std::uint64_t master_seed, std::string_view name);
  /// The `instance`-th stream of that name (a port, a host): its draws depend on no other
  /// instance's, so what one entity draws does not change with the traffic elsewhere.
  RandomStream(std::uint64_t master_seed, std::string_view name, std::uint64_t instance);

  std::uint64_t next_u64();
  /// Uniform integer in [lo, hi] (inclusive), unbiased.
  std::uint64_t uniform_u64(std::uint64_t lo, std::uint64_t hi);
  /// Uniform double in [0, 1).
  double uniform01();
  /// Exponentially distributed time of mean `mean`, rounded to the picosecond.
  Time exponential_time(Time mean);
  /// True `ppm` times in a million.
  bool chance_ppm(std::int32_t ppm) { return ppm > 0 && uniform_u64(0, 999'999) < static_cast<std::uint64_t>(ppm); }
  /// Uniform time in [0, max] picoseconds (inclusive).
  Time uniform_time(Time max) {
    return max.count_ps() <= 0 ? Time::zero()
                               : Time::ps(static_cast<std::int64_t>(uniform_u64(0, static_cast<std::uint64_t>(max.count_ps()))));
  }

 private:
  std::uint64_t s_[4];
};

}  // namespace rdmasim
