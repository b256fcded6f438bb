// number_text(x): a double in its shortest round-trip form ("0.1", "1e-06", "97.788394615"),
// as std::to_chars writes it: what CSV, JSON-like tables and scenario values print, so that a
// number read back is the number written. number_from_text is the reading: the whole text one
// finite number, locale-independent (std::from_chars).
#pragma once

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

namespace rdmasim {

inline std::string number_text(double x) {
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

/// The whole of `v` as one finite number into `x`; false (x unspecified) otherwise.
inline bool number_from_text(std::string_view v, double& x) {
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  return !v.empty() && ec == std::errc() && end == v.data() + v.size() && std::isfinite(x);
}

}  // namespace rdmasim
