// for_each_line: every line once, numbered from 1, comments cut, the last line without its
// newline included, CR kept for the caller.
#include "core/text_lines.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace rdmasim;

TEST(TextLines, NumbersEveryLineAndCutsComments) {
  std::vector<std::pair<int, std::string>> seen;
  for_each_line("a b # c\n\n# all comment\nlast\r", [&](int n, std::string_view l) { seen.emplace_back(n, std::string(l)); });
  const std::vector<std::pair<int, std::string>> want{{1, "a b "}, {2, ""}, {3, ""}, {4, "last\r"}};
  EXPECT_EQ(seen, want);
  seen.clear();
  for_each_line("x\n", [&](int n, std::string_view l) { seen.emplace_back(n, std::string(l)); });
  EXPECT_EQ(seen, (std::vector<std::pair<int, std::string>>{{1, "x"}, {2, ""}}));
}
