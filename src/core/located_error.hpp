// LocatedError: an input error that names its own position, "FILE:LINE:COL: what" (a topology
// file, a scenario nested too deep). Code that prefixes errors with the source it was reading
// (the scenario's file, "command line") passes a LocatedError on unchanged: the position
// already says where to look, and a prefix would point at the wrong place.
#pragma once

#include <stdexcept>
#include <string>

namespace rdmasim {

struct LocatedError : std::invalid_argument {
  LocatedError(const std::string& file, int line, int col, const std::string& what)
      : std::invalid_argument(file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + what) {}
};

}  // namespace rdmasim
