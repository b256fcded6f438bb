// The parameter table's building blocks (model/profile_params.cpp and its sibling files):
// value parsers and formatters, ranges (Bounds, Interval, OneOf, Parsed) and the typed
// ParamDef factories. Internal to those files.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/number_text.hpp"
#include "rdmasim/profile.hpp"

namespace rdmasim::param_table {

inline std::int64_t parse_int(std::string_view v) {
  std::int64_t x = 0;
  bool any = false, neg = false;
  std::size_t i = 0;
  if (!v.empty() && v[0] == '-') neg = true, i = 1;
  for (; i < v.size(); ++i) {
    if (v[i] < '0' || v[i] > '9') throw std::invalid_argument("expected an integer, got \"" + std::string(v) + "\"");
    if (x > (INT64_MAX - 9) / 10) throw std::invalid_argument("integer out of range: \"" + std::string(v) + "\"");
    x = x * 10 + (v[i] - '0');
    any = true;
  }
  if (!any) throw std::invalid_argument("expected an integer, got \"" + std::string(v) + "\"");
  return neg ? -x : x;
}

inline double parse_number(std::string_view v) {
  double x = 0;
  if (!number_from_text(v, x))
    throw std::invalid_argument("expected a number, got \"" + std::string(v) + "\"");
  return x;
}

inline std::string format_number(double x) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

inline bool parse_bool(std::string_view v) {
  if (v == "on" || v == "true" || v == "1") return true;
  if (v == "off" || v == "false" || v == "0") return false;
  throw std::invalid_argument("expected on|off, got \"" + std::string(v) + "\"");
}

inline std::string format_bytes(Bytes b) { return std::to_string(b.count()) + "B"; }
inline std::string format_length(std::int64_t mm) {
  if (mm % 1000 == 0) return std::to_string(mm / 1000) + "m";
  return std::to_string(mm) + "mm";
}

// switch.ets_weights: eight integers, "50,0,0,50,0,0,0,0".
inline std::string format_weights(const std::array<int, 8>& w) {
  std::string s;
  for (std::size_t i = 0; i < w.size(); ++i) s += (i ? "," : "") + std::to_string(w[i]);
  return s;
}
inline std::array<int, 8> parse_weights(std::string_view v) {
  if (std::count(v.begin(), v.end(), ',') != 7)
    throw std::invalid_argument("expected 8 comma-separated weights (one per traffic class), got \"" + std::string(v) + "\"");
  std::array<int, 8> w{};
  std::size_t at = 0;
  for (int& x : w) {
    const std::size_t comma = std::min(v.find(',', at), v.size());
    const std::int64_t n = parse_int(v.substr(at, comma - at));
    if (n < 0 || n > 100) throw std::invalid_argument("each weight must be 0..100, got " + std::to_string(n));
    x = static_cast<int>(n);
    at = comma + 1;
  }
  return w;
}
inline bool weights_ok(const std::array<int, 8>& w) {
  int sum = 0;
  for (int x : w) {
    if (x < 0 || x > 100) return false;
    sum += x;
  }
  return sum == 0 || sum == 100;
}

// A length in millimetres, as a range endpoint.
struct Length {
  std::int64_t mm;
};

// Every range compares one number per value.
inline std::int64_t scalar(Time t) { return t.count_ps(); }
inline std::int64_t scalar(Rate r) { return r.bits_per_sec(); }
inline std::int64_t scalar(Bytes b) { return b.count(); }
inline std::int64_t scalar(Length l) { return l.mm; }
inline double scalar(double d) { return d; }
template <typename Int>
  requires std::is_integral_v<Int>
std::int64_t scalar(Int v) {
  return v;
}

// Range endpoints in the largest unit that divides them exactly (so they parse back).
inline std::string in_largest_unit(std::int64_t v, std::initializer_list<std::pair<std::int64_t, const char*>> units) {
  if (v == 0) return std::string("0") + units.begin()->second;
  for (auto [scale, suffix] : units)
    if (v % scale == 0) return std::to_string(v / scale) + suffix;
  return std::to_string(v) + std::data(units)[units.size() - 1].second;
}
inline std::string range_text(Time t) {
  return in_largest_unit(t.count_ps(),
                         {{1'000'000'000'000, "s"}, {1'000'000'000, "ms"}, {1'000'000, "us"}, {1'000, "ns"}, {1, "ps"}});
}
inline std::string range_text(Rate r) {
  return in_largest_unit(r.bits_per_sec(),
                         {{1'000'000'000'000, "Tbps"}, {1'000'000'000, "Gbps"}, {1'000'000, "Mbps"}, {1, "bps"}});
}
inline std::string range_text(Bytes b) {
  return in_largest_unit(b.count(), {{std::int64_t{1} << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}, {1, "B"}});
}
inline std::string range_text(Length l) { return in_largest_unit(l.mm, {{1'000'000, "km"}, {1'000, "m"}, {1, "mm"}}); }
inline std::string range_text(std::int64_t v) { return std::to_string(v); }

// The values a time, rate, size, length or integer parameter accepts: lo..hi, and 0 as well
// where 0 switches the feature off.
template <typename T>
struct Bounds {
  T lo, hi;
  bool zero_off = false;
  std::string text() const { return (zero_off ? "0 (off) or " : "") + range_text(lo) + ".." + range_text(hi); }
  bool contains(std::int64_t v) const { return (zero_off && v == 0) || (scalar(lo) <= v && v <= scalar(hi)); }
};
// A real parameter's interval: [lo, hi] or (lo, hi].
struct Interval {
  double lo, hi;
  bool lo_open = false;
  std::string text() const { return (lo_open ? "(" : "[") + format_number(lo) + ", " + format_number(hi) + "]"; }
  bool contains(double v) const { return (lo_open ? v > lo : v >= lo) && v <= hi; }
};
// An integer parameter that takes one of a few values.
struct OneOf {
  std::vector<std::int64_t> values;
  std::string text() const {
    std::string s;
    for (std::size_t i = 0; i < values.size(); ++i)
      s += (i == 0 ? "" : i + 1 == values.size() ? " or " : ", ") + std::to_string(values[i]);
    return s;
  }
  bool contains(std::int64_t v) const { return std::find(values.begin(), values.end(), v) != values.end(); }
};
// A switch or a name: whatever parses is in range.
struct Parsed {
  std::string what;
  std::string text() const { return what; }
  template <typename V>
  bool contains(V) const {
    return true;
  }
};

// Time and rate parameters mostly share one range: times up to 10 s and rates 1 Mb/s..100 Tb/s
// keep every simulated time comfortably inside int64 picoseconds.
constexpr Bounds<Time> kDuration{Time::zero(), Time::ms(10'000)};
constexpr Bounds<Time> kPositiveDuration{Time::ps(1), Time::ms(10'000)};
constexpr Bounds<Rate> kRate{Rate::bps(1'000'000), Rate::gbps(100'000)};
constexpr std::int64_t kGiB = std::int64_t{1} << 30;
constexpr Bounds<Bytes> kBufferBytes{Bytes(0), Bytes(16 * kGiB)};
constexpr Bounds<Time> kLongDuration{Time::zero(), Time::ms(100'000)};  // timers where 0 is off
constexpr Bounds<Length> kCableLength{Length{0}, Length{100'000'000}};
constexpr Bounds<std::int64_t> kPriority{0, 7};                        // 802.1p priority / traffic class
inline const Interval kGain{0, 1, true};                                       // EWMA gains and factors

template <typename Group, typename Field, typename Range, typename Format, typename Parse>
ParamDef make_param(std::string key, std::string type, Group Profile::*g, Field Group::*f, std::string help,
                    std::string src, Range range, Format format, Parse parse) {
  return {std::move(key),
          std::move(type),
          std::move(help),
          std::move(src),
          [=](const Profile& p) { return format(p.*g.*f); },
          [=](Profile& p, std::string_view v) { p.*g.*f = parse(v); },
          range.text(),
          [=](const Profile& p) { return range.contains(scalar(p.*g.*f)); }};
}

template <typename Group, typename Field>
ParamDef time_param(std::string key, Group Profile::*g, Field Group::*f, std::string help, std::string src,
                    Bounds<Time> range = kDuration) {
  return make_param(std::move(key), "time", g, f, std::move(help), std::move(src), range, format_time, parse_time);
}
template <typename Group>
ParamDef rate_param(std::string key, Rate Group::*f, Group Profile::*g, std::string help, std::string src,
                    Bounds<Rate> range = kRate) {
  return make_param(std::move(key), "rate", g, f, std::move(help), std::move(src), range, format_rate, parse_rate);
}
template <typename Group, typename Range>
ParamDef bytes_param(std::string key, Bytes Group::*f, Group Profile::*g, std::string help, std::string src,
                     Range range) {
  return make_param(std::move(key), "bytes", g, f, std::move(help), std::move(src), range, format_bytes, parse_bytes);
}
template <typename Group>
ParamDef length_param(std::string key, std::int64_t Group::*f, Group Profile::*g, std::string help, std::string src,
                      Bounds<Length> range) {
  return make_param(std::move(key), "length", g, f, std::move(help), std::move(src), range, format_length,
                    parse_length_mm);
}
template <typename Group, typename Int, typename Range>
ParamDef int_param(std::string key, Int Group::*f, Group Profile::*g, std::string help, std::string src, Range range) {
  return make_param(
      std::move(key), "int", g, f, std::move(help), std::move(src), range, [](Int x) { return std::to_string(x); },
      [](std::string_view v) {
        const std::int64_t x = parse_int(v);
        if (x < std::numeric_limits<Int>::min() || x > std::numeric_limits<Int>::max())
          throw std::invalid_argument("integer out of range: \"" + std::string(v) + "\"");
        return static_cast<Int>(x);
      });
}
template <typename Group>
ParamDef bool_param(std::string key, bool Group::*f, Group Profile::*g, std::string help, std::string src) {
  return make_param(
      std::move(key), "bool", g, f, std::move(help), std::move(src), Parsed{"on|off"},
      [](bool b) { return std::string(b ? "on" : "off"); }, parse_bool);
}
template <typename Group>
ParamDef number_param(std::string key, double Group::*f, Group Profile::*g, std::string help, std::string src,
                      Interval range) {
  return make_param(std::move(key), "number", g, f, std::move(help), std::move(src), range, format_number,
                    parse_number);
}

/// The congestion controls' parameters (dcqcn, ecn_fraction, timely, swift, hpcc), in table
/// order (model/profile_params_cc.cpp).
void add_congestion_control_params(std::vector<ParamDef>& r);

}  // namespace rdmasim::param_table
