// Line-oriented text files (flow-size CDFs, topology files): each line with its 1-based number
// and `#` comments cut off. Invariants: every line is visited once, in order, including the
// last one without a newline; the view passed on lives as long as `text`.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace rdmasim {

/// Calls f(line_number, line) for every line of `text`, the line without its `#` comment and
/// without the newline.
template <typename F>
void for_each_line(std::string_view text, F f) {
  int number = 0;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view l = text.substr(at, end - at);
    at = end + 1;
    if (const std::size_t hash = l.find('#'); hash != std::string_view::npos) l = l.substr(0, hash);
    f(++number, l);
  }
}

}  // namespace rdmasim
