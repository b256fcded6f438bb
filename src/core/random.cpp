#include "core/random.hpp"

#include <cmath>

namespace rdmasim {

std::uint64_t fnv1a64(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

RandomStream::RandomStream(std::uint64_t master_seed, std::string_view name) {
  std::uint64_t st = master_seed ^ fnv1a64(name);
  for (auto& w : s_) w = splitmix64(st);
}

RandomStream::RandomStream(std::uint64_t master_seed, std::string_view name, std::uint64_t instance) {
  std::uint64_t mixed = instance;
  std::uint64_t st = master_seed ^ fnv1a64(name) ^ splitmix64(mixed);
  for (auto& w : s_) w = splitmix64(st);
}

namespace {
constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

std::uint64_t RandomStream::next_u64() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t RandomStream::uniform_u64(std::uint64_t lo, std::uint64_t hi) {
  const std::uint64_t span = hi - lo;
  if (span == UINT64_MAX) return next_u64();
  const std::uint64_t n = span + 1;
  // Accept x only below the largest multiple of n that fits in 2^64, so every residue is
  // equally likely. r = 2^64 mod n.
  const std::uint64_t r = (UINT64_MAX % n + 1) % n;
  const std::uint64_t limit = UINT64_MAX - r;  // accept x <= limit
  std::uint64_t x;
  do {
    x = next_u64();
  } while (x > limit);
  return lo + x % n;
}

double RandomStream::uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

Time RandomStream::exponential_time(Time mean) {
  if (mean.count_ps() <= 0) return Time::zero();
  // Inversion: -mean ln(1 - u), u in [0, 1), so the argument of log1p is in (-1, 0].
  return Time::ps(std::llround(static_cast<double>(mean.count_ps()) * -std::log1p(-uniform01())));
}

}  // namespace rdmasim
