// Strong unit types: Time (integer picoseconds), Bytes, Rate (bits per second).
//
// Invariants: every simulated instant and duration is an exact int64 count of picoseconds
// (range ±106 days), so sums of ledger entries are exact. Serialization time of a byte count
// at a rate is rounded UP to the next picosecond: a frame is not finished until its last bit
// is on the wire, so a stage never finishes early. Conversions to double exist only for
// printing.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace rdmasim {

/// 128-bit integer for exact intermediate products (a GCC/Clang extension).
__extension__ typedef __int128 i128;

class Time {
 public:
  constexpr Time() = default;
  static constexpr Time ps(std::int64_t v) { return Time(v); }
  static constexpr Time ns(std::int64_t v) { return Time(v * 1'000); }
  static constexpr Time us(std::int64_t v) { return Time(v * 1'000'000); }
  static constexpr Time ms(std::int64_t v) { return Time(v * 1'000'000'000); }
  static constexpr Time zero() { return Time(0); }
  static constexpr Time max() { return Time(INT64_MAX); }

  constexpr std::int64_t count_ps() const { return v_; }
  constexpr double to_us() const { return static_cast<double>(v_) / 1e6; }
  constexpr double to_ns() const { return static_cast<double>(v_) / 1e3; }

  constexpr auto operator<=>(const Time&) const = default;
  constexpr Time operator+(Time o) const { return Time(v_ + o.v_); }
  constexpr Time operator-(Time o) const { return Time(v_ - o.v_); }
  constexpr Time& operator+=(Time o) { v_ += o.v_; return *this; }
  constexpr Time& operator-=(Time o) { v_ -= o.v_; return *this; }
  constexpr Time operator*(std::int64_t k) const { return Time(v_ * k); }
  constexpr Time operator/(std::int64_t k) const { return Time(v_ / k); }
  friend constexpr Time operator*(std::int64_t k, Time t) { return Time(k * t.v_); }

 private:
  constexpr explicit Time(std::int64_t v) : v_(v) {}
  std::int64_t v_ = 0;
};

class Bytes {
 public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(std::int64_t v) : v_(v) {}
  constexpr std::int64_t count() const { return v_; }
  constexpr auto operator<=>(const Bytes&) const = default;
  constexpr Bytes operator+(Bytes o) const { return Bytes(v_ + o.v_); }
  constexpr Bytes operator-(Bytes o) const { return Bytes(v_ - o.v_); }
  constexpr Bytes& operator+=(Bytes o) { v_ += o.v_; return *this; }
  constexpr Bytes operator*(std::int64_t k) const { return Bytes(v_ * k); }

 private:
  std::int64_t v_ = 0;
};

class Rate {
 public:
  constexpr Rate() = default;
  static constexpr Rate bps(std::int64_t v) { return Rate(v); }
  static constexpr Rate gbps(std::int64_t v) { return Rate(v * 1'000'000'000); }
  /// Bytes per second (decimal), e.g. memcpy bandwidth in GB/s * 1e9.
  static constexpr Rate bytes_per_sec(std::int64_t v) { return Rate(v * 8); }
  constexpr std::int64_t bits_per_sec() const { return v_; }
  constexpr double to_gbps() const { return static_cast<double>(v_) / 1e9; }
  constexpr bool unlimited() const { return v_ == 0; }
  constexpr auto operator<=>(const Rate&) const = default;

 private:
  constexpr explicit Rate(std::int64_t v) : v_(v) {}
  std::int64_t v_ = 0;  // 0 = no per-byte cost (used only for "free" stages)
};

/// Time to put `b` bytes through something moving `r` bits per second, rounded up to the
/// next picosecond: ceil(b * 8 * 10^12 / r). A zero rate means "no per-byte cost" (returns 0).
/// Exact for every int64 byte count (computed in 128-bit integers).
constexpr Time serialization_time(Bytes b, Rate r) {
  if (r.unlimited() || b.count() <= 0) return Time::zero();
  // Frames and rates that fit (< 2 MiB, < 1 Tb/s) take 64-bit arithmetic: the same exact value,
  // without the 128-bit division per frame.
  if (b.count() < (std::int64_t{1} << 21) && r.bits_per_sec() > 0 && r.bits_per_sec() < (std::int64_t{1} << 40)) {
    const std::uint64_t n = static_cast<std::uint64_t>(b.count()) * 8'000'000'000'000ULL;
    const auto d = static_cast<std::uint64_t>(r.bits_per_sec());
    return Time::ps(static_cast<std::int64_t>((n + d - 1) / d));
  }
  const i128 num = static_cast<i128>(b.count()) * 8 * 1'000'000'000'000LL;
  const i128 den = r.bits_per_sec();
  return Time::ps(static_cast<std::int64_t>((num + den - 1) / den));
}

namespace literals {
constexpr Time operator""_ps(unsigned long long v) { return Time::ps(static_cast<std::int64_t>(v)); }
constexpr Time operator""_ns(unsigned long long v) { return Time::ns(static_cast<std::int64_t>(v)); }
constexpr Time operator""_us(unsigned long long v) { return Time::us(static_cast<std::int64_t>(v)); }
constexpr Time operator""_ms(unsigned long long v) { return Time::ms(static_cast<std::int64_t>(v)); }
constexpr Bytes operator""_B(unsigned long long v) { return Bytes(static_cast<std::int64_t>(v)); }
constexpr Rate operator""_Gbps(unsigned long long v) { return Rate::gbps(static_cast<std::int64_t>(v)); }
}  // namespace literals

// Strict parsers for values with units, as people write them ("250ns", "1.5us", "100Gbps",
// "4KiB", "3m"). A bare number is rejected for time/rate/bytes: the unit must be explicit.
// They throw std::invalid_argument with a message naming what was expected.
Time parse_time(std::string_view text);
Rate parse_rate(std::string_view text);
Bytes parse_bytes(std::string_view text);
/// A byte count as command lines take it: bare digits are bytes ("4096"), else parse_bytes.
Bytes parse_byte_count(std::string_view text);
/// Length in metres as integer millimetres ("3m", "100m", "2.5km", "30cm").
std::int64_t parse_length_mm(std::string_view text);

/// "1.234us"-style rendering with the shortest exact decimal (for docs and errors).
std::string format_time(Time t);
std::string format_rate(Rate r);

}  // namespace rdmasim
