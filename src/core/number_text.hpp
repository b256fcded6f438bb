// number_text(x): a double in its shortest round-trip form ("0.1", "1e-06", "97.788394615"),
// as std::to_chars writes it: what CSV, JSON-like tables and scenario values print, so that a
// number read back is the number written.
#pragma once

#include <charconv>
#include <string>

namespace rdmasim {

inline std::string number_text(double x) {
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

}  // namespace rdmasim
