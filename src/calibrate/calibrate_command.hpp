// `rdmasim calibrate`: probe this host, print the measurements, fit a host profile, write it
// (-o) and, with --check, compare measured TCP loopback latency with the fitted model.
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "calibrate/calibration.hpp"

namespace rdmasim::calibrate {

struct CalibrateCommand {
  bool quick = false, check = false, cross_core = false;
  std::string output;  // the host profile TOML; "" = not written
  int timeout_ms = 5000;
  std::vector<std::int64_t> sizes{1, 64, 1024, 4096, 16384, 65000, 65536};
};

/// The measurements cannot be fitted (a probe the fit needs failed).
struct CannotFit : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Prints to `out`. Checks that the output can be written before minutes of probing. Throws
/// std::invalid_argument for an unwritable output and CannotFit.
void run_calibrate_command(const CalibrateCommand& o, std::FILE* out, const Progress& progress);

}  // namespace rdmasim::calibrate
