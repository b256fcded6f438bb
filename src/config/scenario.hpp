// Parsing scenario files for the public model (rdmasim/scenario.hpp) and what the library's
// commands need beside it: the validated configuration a scenario describes (errors located at
// the key that caused them), refusing [outputs] where no file is written, and the generated
// docs/scenario-format.md. The keys themselves are config/scenario_keys.hpp.
#pragma once

#include <string>

#include "config/options.hpp"
#include "config/scenario_keys.hpp"
#include "rdmasim/scenario.hpp"

namespace rdmasim::config {

/// The configuration the scenario describes, validated; errors located where possible.
LatConfig scenario_config(const Scenario& s);
/// Throws std::invalid_argument ("FILE:LINE:COL: outputs.KEY: <why>") when the scenario has an
/// [outputs] key: files are written by `rdmasim run` only, not by compare, sweep or the API.
void refuse_outputs(const Scenario& s, const std::string& why);
/// docs/scenario-format.md, generated from scenario_keys() and the profile parameters.
std::string scenario_format_markdown();

}  // namespace rdmasim::config
