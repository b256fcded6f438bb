// `rdmasim list`: the catalogue of components (config/catalogue.hpp, read from the registries)
// and every profile parameter with its type, its value in each built-in profile, its meaning
// and its source — as a table, or as JSON (docs/json.md; the dashboard's lists read the same).
#pragma once

#include <cstdio>

#include <nlohmann/json.hpp>

namespace rdmasim {

/// {"profiles": [...], "parameters": [{key, type, <profile>: value..., help, source}],
///  "components": [{kind, name, description, selected_by, params}]}
nlohmann::ordered_json list_json();
/// The table: components, then parameters with the default and seed-demo profiles' values.
void print_list(std::FILE* out);

}  // namespace rdmasim
