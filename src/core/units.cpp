#include "rdmasim/units.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

namespace rdmasim {
namespace {

struct Decimal {
  i128 digits = 0;  // value = digits / 10^scale
  int scale = 0;
  bool negative = false;
};

// Splits "12.5us" into the decimal 12.5 and the unit "us". Rejects anything else.
std::pair<Decimal, std::string_view> split_number(std::string_view text, const char* what, const char* example) {
  Decimal d;
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) d.negative = text[i++] == '-';
  bool any = false, dot = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      if (d.digits > (static_cast<i128>(1) << 100)) throw std::invalid_argument("number too large");
      d.digits = d.digits * 10 + (c - '0');
      if (dot) ++d.scale;
      any = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!any)
    throw std::invalid_argument(std::string("expected ") + what + " like \"" + example + "\", got \"" +
                                std::string(text) + "\"");
  return {d, text.substr(i)};
}

struct Unit {
  std::string_view name;
  std::int64_t factor;  // base units per 1 of this unit
};

std::int64_t scale_exact(Decimal d, std::int64_t factor, std::string_view text, const char* what,
                         const char* base) {
  while (d.scale > 0 && d.digits % 10 == 0) d.digits /= 10, --d.scale;  // "1.50" is "1.5"
  // 10^38 is the largest power of ten an i128 holds; digits (< 2^101) x factor (< 2^63) may not fit.
  if (d.scale > 38)
    throw std::invalid_argument(std::string(what) + " \"" + std::string(text) + "\" has more than 38 significant digits after the point");
  i128 num = 0, den = 1;
  if (__builtin_mul_overflow(d.digits, static_cast<i128>(factor), &num))
    throw std::invalid_argument(std::string(what) + " \"" + std::string(text) + "\" is too large");
  for (int k = 0; k < d.scale; ++k) den *= 10;
  if (num % den != 0)
    throw std::invalid_argument(std::string(what) + " \"" + std::string(text) + "\" is finer than 1 " + base);
  i128 v = num / den;
  if (v > INT64_MAX) throw std::invalid_argument(std::string(what) + " \"" + std::string(text) + "\" is too large");
  return static_cast<std::int64_t>(d.negative ? -v : v);
}

template <std::size_t N>
std::int64_t parse_with(std::string_view text, const std::array<Unit, N>& units, const char* what,
                        const char* example, const char* base) {
  auto [d, unit] = split_number(text, what, example);
  if (unit.empty() && d.digits == 0) return 0;  // zero is zero in every unit ("0" = "0B" = "0us")
  for (const Unit& u : units)
    if (unit == u.name) return scale_exact(d, u.factor, text, what, base);
  throw std::invalid_argument(std::string("expected ") + what + " like \"" + example + "\", got \"" +
                              std::string(text) + "\"");
}

constexpr std::array<Unit, 5> kTimeUnits{{{"ps", 1}, {"ns", 1'000}, {"us", 1'000'000},
                                          {"ms", 1'000'000'000}, {"s", 1'000'000'000'000}}};
constexpr std::array<Unit, 8> kRateUnits{{{"bps", 1},
                                          {"Kbps", 1'000},
                                          {"Mbps", 1'000'000},
                                          {"Gbps", 1'000'000'000},
                                          {"Tbps", 1'000'000'000'000},
                                          {"MB/s", 8'000'000},
                                          {"GB/s", 8'000'000'000},
                                          {"MiB/s", 8LL * 1024 * 1024}}};
constexpr std::array<Unit, 7> kByteUnits{{{"B", 1},
                                          {"KB", 1'000},
                                          {"MB", 1'000'000},
                                          {"GB", 1'000'000'000},
                                          {"KiB", 1024},
                                          {"MiB", 1024 * 1024},
                                          {"GiB", 1024LL * 1024 * 1024}}};
constexpr std::array<Unit, 4> kLengthUnits{{{"mm", 1}, {"cm", 10}, {"m", 1'000}, {"km", 1'000'000}}};

}  // namespace

Time parse_time(std::string_view text) {
  return Time::ps(parse_with(text, kTimeUnits, "a time", "1.5us", "ps"));
}
Rate parse_rate(std::string_view text) {
  return Rate::bps(parse_with(text, kRateUnits, "a rate", "100Gbps", "bit/s"));
}
Bytes parse_bytes(std::string_view text) {
  return Bytes(parse_with(text, kByteUnits, "a size", "4KiB", "byte"));
}
Bytes parse_byte_count(std::string_view text) {
  const bool digits = !text.empty() && text.size() < 16 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits) return parse_bytes(text);
  std::int64_t n = 0;
  for (char c : text) n = n * 10 + (c - '0');
  return Bytes(n);
}
std::int64_t parse_length_mm(std::string_view text) {
  return parse_with(text, kLengthUnits, "a length", "3m", "mm");
}

namespace {
std::string format_scaled(std::int64_t v, std::int64_t unit, const char* suffix) {
  const bool neg = v < 0;
  const std::uint64_t a = neg ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
  std::string s = std::to_string(a / unit);
  std::uint64_t frac = a % unit;
  if (frac != 0) {
    std::string f = std::to_string(frac);
    std::string digits = std::to_string(unit).substr(1);  // zeros
    f = std::string(digits.size() - f.size(), '0') + f;
    while (!f.empty() && f.back() == '0') f.pop_back();
    s += "." + f;
  }
  return (neg ? "-" : "") + s + suffix;
}
}  // namespace

std::string format_time(Time t) {
  const std::int64_t v = t.count_ps();
  const std::int64_t a = v < 0 ? -v : v;
  if (a >= 1'000'000'000) return format_scaled(v, 1'000'000'000, "ms");
  if (a >= 1'000'000) return format_scaled(v, 1'000'000, "us");
  if (a >= 1'000) return format_scaled(v, 1'000, "ns");
  return format_scaled(v, 1, "ps");
}

std::string format_rate(Rate r) {
  const std::int64_t v = r.bits_per_sec();
  if (v >= 1'000'000'000) return format_scaled(v, 1'000'000'000, "Gbps");
  if (v >= 1'000'000) return format_scaled(v, 1'000'000, "Mbps");
  return format_scaled(v, 1, "bps");
}

}  // namespace rdmasim
