#include "config/nesting_limit.hpp"

#include "core/located_error.hpp"

#include <stdexcept>

namespace rdmasim::config {
namespace {

// Line and column (1-based) of byte `at`, counted once, only for the error.
[[noreturn]] void too_deep(std::string_view text, std::size_t at, const std::string& name, int limit) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') line += 1, col = 1;
    else col += 1;
  }
  throw LocatedError(name, static_cast<int>(line), static_cast<int>(col),
                     "nesting deeper than " + std::to_string(limit) + " levels (tables, dotted keys, arrays, objects)");
}

// Index just past the string that opens at `i` (text[i] is ' or "), or text.size() when it is
// not closed (the parser reports that). Multi-line forms (''' and """) end at their closer.
std::size_t skip_toml_string(std::string_view t, std::size_t i) {
  const char q = t[i];
  const bool basic = q == '"';
  if (t.substr(i, 3) == std::string_view(basic ? "\"\"\"" : "'''")) {
    for (std::size_t j = i + 3; j < t.size(); ++j) {
      if (basic && t[j] == '\\') {
        ++j;
        continue;
      }
      if (t.substr(j, 3) == std::string_view(basic ? "\"\"\"" : "'''")) return j + 3;
    }
    return t.size();
  }
  for (std::size_t j = i + 1; j < t.size(); ++j) {
    if (t[j] == '\n') return j;  // unterminated on its line: the parser's error, not ours
    if (basic && t[j] == '\\') {
      ++j;
      continue;
    }
    if (t[j] == q) return j + 1;
  }
  return t.size();
}

}  // namespace

void check_toml_nesting(std::string_view t, const std::string& name, int limit) {
  int header = 0;   // levels of the current [table] header
  int key = 0;      // levels of the current statement's key (dots + 1)
  int open = 0;     // arrays and inline tables open in the current value
  int inner = 0;    // dots in the key being read inside an inline table
  bool at_start = true, in_key = false;
  auto check = [&](std::size_t at) {
    if (header + key + open + inner > limit) too_deep(t, at, name, limit);
  };
  for (std::size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (c == '"' || c == '\'') {
      if (at_start) at_start = false, in_key = true, key = 1;
      i = skip_toml_string(t, i);
      continue;
    }
    if (c == '#') {
      while (i < t.size() && t[i] != '\n') ++i;
      continue;
    }
    if (c == '\n') {
      if (open == 0) at_start = true, in_key = false, key = 0, inner = 0;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (at_start && c == '[') {  // a table header: [a.b] or [[a.b]]
      const bool array = i + 1 < t.size() && t[i + 1] == '[';
      header = array ? 2 : 1;
      for (i += array ? 2 : 1; i < t.size() && t[i] != ']' && t[i] != '\n';) {
        if (t[i] == '"' || t[i] == '\'') {
          i = skip_toml_string(t, i);
          continue;
        }
        if (t[i] == '.') {
          header += 1;
          if (header > limit) too_deep(t, i, name, limit);
        }
        ++i;
      }
      if (header > limit) too_deep(t, i, name, limit);
      while (i < t.size() && t[i] != '\n') ++i;  // the rest of the line: `]`, `]]`, a comment
      continue;
    }
    if (at_start) at_start = false, in_key = true, key = 1;
    if (in_key) {
      if (c == '.') key += 1, check(i);
      if (c == '=') in_key = false;
      ++i;
      continue;
    }
    switch (c) {
      case '[':
      case '{':
        open += 1, inner = 0, check(i);
        break;
      case ']':
      case '}':
        if (open > 0) open -= 1;
        inner = 0;
        break;
      case ',':
      case '=':
        inner = 0;
        break;
      case '.':
        if (open > 0) inner += 1, check(i);
        break;
      default:
        break;
    }
    ++i;
  }
}

void check_json_nesting(std::string_view t, const std::string& name, int limit) {
  int open = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '"') {
      for (++i; i < t.size() && t[i] != '"'; ++i)
        if (t[i] == '\\') ++i;
      continue;
    }
    if (c == '[' || c == '{') {
      if (++open > limit) too_deep(t, i, name, limit);
    } else if ((c == ']' || c == '}') && open > 0) {
      open -= 1;
    }
  }
}

}  // namespace rdmasim::config
