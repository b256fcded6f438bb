// The validation list: published measurements (perftest, nccl-tests, cmtime, iperf) and the
// rdmasim run that should reproduce each, read from a TOML file (validation/points.toml), so
// adding a published point is one entry. `rdmasim validate` runs them all and reports the
// simulated value, the relative error and pass/fail against each point's tolerance.
//
// A point is a command with key overrides (exactly a scenario: `rdmasim <command> --set`),
// the named metric it reads (rdmasim/scenario.hpp's Metric), the published value in that
// metric's unit, a tolerance (relative), its source, and optionally `gap`: what the model
// lacks to meet it. A point without a gap must pass; one with a gap is reported and must not
// pass (then the gap is stale and the file says something false).
#pragma once

#include <string>
#include <vector>

#include "config/scenario.hpp"

namespace rdmasim::config {

struct ValidationPoint {
  std::string id;
  std::string what;     // the measurement and its conditions
  std::string command;  // lat, bw, ...
  std::vector<std::string> set;  // key=value overrides
  std::string metric;
  double published = 0;
  double tolerance = 0.1;  // relative
  std::string source;
  std::string gap;         // "" = must pass
  /// Runs with seeds seed .. seed + seeds - 1 and compares their median: a tail statistic
  /// (t_max is one sample, the 99th percentile ten of 1,000) is a draw, and one seed's draw
  /// says little about the model, as the published run's says little about its host.
  int seeds = 1;
  Scenario scenario;       // command + overrides, checked when loaded
};

/// Reads and checks every point (unknown fields, duplicate ids, bad overrides); errors name
/// the file, the point and the field.
std::vector<ValidationPoint> load_validation(const std::string& path);

struct ValidationRow {
  double simulated = 0;
  double error = 0;  // (simulated - published) / published
  bool pass = false;
  std::string failure;  // the run's own failure, if any
};
/// Runs every point (on `threads` workers; rows in the points' order whatever the count).
std::vector<ValidationRow> run_validation(const std::vector<ValidationPoint>& points, int threads);

}  // namespace rdmasim::config
