// `rdmasim validate`'s report: one row per published point — the measurement, published and
// simulated values, the relative error, pass/fail against its tolerance (or the model's known
// gap), and the source — as the terminal table and as docs/validation.md.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "config/validation.hpp"

namespace rdmasim {

void print_validation(std::FILE* out, const std::vector<config::ValidationPoint>& points,
                      const std::vector<config::ValidationRow>& rows);
std::string validation_markdown(const std::vector<config::ValidationPoint>& points,
                                const std::vector<config::ValidationRow>& rows);
/// "pass", "FAIL", "gap" (a known gap that still misses) or "gap met" (a gap that no longer
/// misses: the file is out of date).
std::string validation_verdict(const config::ValidationPoint& p, const config::ValidationRow& r);

}  // namespace rdmasim
