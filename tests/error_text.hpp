// error_text(f): the message of the std::invalid_argument that f() throws, or "" when it throws
// none (the tests compare the whole text: bad input must say exactly what is wrong).
#pragma once

#include <stdexcept>
#include <string>

namespace rdmasim::testing {

template <typename F>
std::string error_text(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace rdmasim::testing
