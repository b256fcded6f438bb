// Nesting limits for scenario text, checked before any parser builds a tree.
//
// A TOML or JSON document chooses the depth of the tree a parser builds from it, and everything
// that walks that tree (flattening into keys, destruction) is recursive. Without a limit a
// 30 KB `[a.a.a…]` header or a 120 KB `[[[[…` body overflows the stack. These scanners read the
// text once, without recursion and without allocating, and throw before the parser runs.
//
// Depth counts every level a parser would create: TOML table headers and dotted keys (one level
// per key component; `[[x]]` one more for the array), arrays and inline tables; JSON objects
// and arrays. A scenario uses at most 4 (`params.switch.ecn_kmin` under a table), so the limit
// of 64 leaves room without letting input choose the stack depth.
//
// Invariant: the scan is conservative. It may count a level that a parser would not (the dot of a
// float in an array or inline table counts as a key level, once per element), never the reverse; it is O(n) time and
// O(1) memory. The message is "NAME:LINE:COL: nesting deeper than LIMIT levels (...)", LINE and
// COL 1-based, pointing at the character that opened the level past the limit.
#pragma once

#include <string>
#include <string_view>

namespace rdmasim::config {

inline constexpr int kMaxNesting = 64;

/// Throws std::invalid_argument when the TOML text nests deeper than `limit`.
void check_toml_nesting(std::string_view text, const std::string& name, int limit = kMaxNesting);
/// Throws std::invalid_argument when the JSON text nests deeper than `limit`.
void check_json_nesting(std::string_view text, const std::string& name, int limit = kMaxNesting);

}  // namespace rdmasim::config
