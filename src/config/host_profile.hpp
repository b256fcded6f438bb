// Host profile files: the TOML that `rdmasim calibrate` writes and `--host-profile` reads.
//
// Layout: [machine] (description, date), [parameters.<group>] with profile keys and values in
// the same unit syntax as --set ("219ns", "9.75GB/s"), [measurements] with the raw figures
// the fit came from. Reading applies every [parameters] entry through the profile registry;
// errors name the file, line and column and the key path, and nothing is applied on error.
// Writing goes to a temporary file renamed into place, so a file is never half-written.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rdmasim/profile.hpp"

namespace rdmasim {

/// Applies the [parameters] of the host profile at `path`. Throws std::invalid_argument
/// ("host.toml:7:11: parameters.kernel.syscall: expected a time like \"1.5us\", got \"x\"").
void apply_host_profile(Profile& p, const std::string& path);

struct HostProfileDoc {
  std::string machine;
  std::string generated_by;
  std::vector<std::pair<std::string, std::string>> parameters;   // "kernel.syscall" -> "219ns"
  std::vector<std::pair<std::string, double>> measurements;      // raw figures
};

/// Writes `doc` as TOML to `path` atomically. Throws std::runtime_error on I/O failure.
void write_host_profile(const std::string& path, const HostProfileDoc& doc);

}  // namespace rdmasim
