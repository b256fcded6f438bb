// Nesting limits for scenario text: exact boundaries, positions, and what does not count
// (brackets and dots inside strings and comments), plus the regressions that crashed the
// parsers (a 15,000-level TOML header, a 20,000-level JSON body).
#include "config/nesting_limit.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "error_text.hpp"
#include "config/scenario.hpp"

namespace rdmasim::config {
namespace {

std::string header(int levels) {
  std::string h = "[a";
  for (int i = 1; i < levels; ++i) h += ".a";
  return h + "]\n";
}

std::string json_arrays(int levels) { return std::string(levels, '[') + std::string(levels, ']'); }

using rdmasim::testing::error_text;

TEST(NestingLimit, TomlHeaderAtTheLimitPassesOneMoreFails) {
  EXPECT_NO_THROW(check_toml_nesting(header(64), "f.toml"));
  // 65 components: the 64th dot (column 1 + 2*64 = 129) opens level 65.
  EXPECT_EQ(error_text([] { check_toml_nesting("x = 1\n" + header(65), "f.toml"); }),
            "f.toml:2:129: nesting deeper than 64 levels (tables, dotted keys, arrays, objects)");
}

TEST(NestingLimit, TomlLevelsAddUpAcrossHeaderKeyAndValue) {
  // Tables a, b, c, d (the inline table), e; then f's array and the array in it: 7 levels.
  const std::string doc = "[a.b]\nc.d = { e.f = [[1]] }\n";
  EXPECT_NO_THROW(check_toml_nesting(doc, "f", 7));
  EXPECT_EQ(error_text([&] { check_toml_nesting(doc, "f", 6); }), "f:2:16: nesting deeper than 6 levels (tables, dotted keys, arrays, objects)");
  // An array of tables is one level more than a table.
  EXPECT_NO_THROW(check_toml_nesting("[[a.b]]\n", "f", 3));
  EXPECT_ANY_THROW(check_toml_nesting("[[a.b]]\n", "f", 2));
}

TEST(NestingLimit, TomlStringsAndCommentsDoNotCount) {
  const std::string doc = "a = \"[[[[{{{{....\"\nb = '[[[['\n# [[[[[[[[\nc = \"\"\"\n[[[[\n\"\"\"\nd = '''[[[[\n'''\n"
                          "[\"x.y.z\".w]\n";
  EXPECT_NO_THROW(check_toml_nesting(doc, "f", 2));
  EXPECT_EQ(error_text([&] { check_toml_nesting(doc, "f", 1); }),
            "f:9:9: nesting deeper than 1 levels (tables, dotted keys, arrays, objects)");
}

TEST(NestingLimit, TomlFloatInAnArrayCountsOnceNotCumulatively) {
  // Conservative: the dot of 1.5 might be a key's, so key + array + one dot = 3, however many floats.
  EXPECT_NO_THROW(check_toml_nesting("e = [1.5, 2.5, 3.5, 4.5]\n", "f", 3));
  EXPECT_ANY_THROW(check_toml_nesting("e = [1.5, 2.5, 3.5, 4.5]\n", "f", 2));
}

TEST(NestingLimit, TomlMultiLineArrayKeepsItsDepthAcrossLines) {
  const std::string doc = "a = [\n [\n  [\n   1 ] ] ]\nb = 1\n";
  EXPECT_NO_THROW(check_toml_nesting(doc, "f", 4));
  EXPECT_EQ(error_text([&] { check_toml_nesting(doc, "f", 3); }), "f:3:3: nesting deeper than 3 levels (tables, dotted keys, arrays, objects)");
}

TEST(NestingLimit, JsonAtTheLimitPassesOneMoreFails) {
  EXPECT_NO_THROW(check_json_nesting(json_arrays(64), "body"));
  EXPECT_EQ(error_text([] { check_json_nesting("{\"a\":\n" + json_arrays(65) + "}", "body"); }),
            "body:2:64: nesting deeper than 64 levels (tables, dotted keys, arrays, objects)");
}

TEST(NestingLimit, JsonBracketsInStringsAndEscapedQuotesDoNotCount) {
  EXPECT_NO_THROW(check_json_nesting(R"({"a": "[[[[{{{{", "b\"[[": "\\", "c": ["]]]]"]})", "body", 2));
  EXPECT_ANY_THROW(check_json_nesting(R"({"a": [[1]]})", "body", 2));
}

// The inputs that crashed `rdmasim run` and `rdmasim serve` (stack overflow in the flattening
// recursion, memory quadratic in the depth) are refused with a located error.
TEST(NestingLimitRegression, DeepTomlHeaderIsRefusedNotACrash) {
  std::string doc = "command = \"lat\"\n[a";
  for (int i = 1; i < 15000; ++i) doc += ".a";
  doc += "]\nx = 1\n";
  EXPECT_EQ(error_text([&] { parse_scenario(doc, "deep.toml"); }),
            "deep.toml:2:129: nesting deeper than 64 levels (tables, dotted keys, arrays, objects)");
}

TEST(NestingLimitRegression, DeepJsonBodyIsRefusedNotACrash) {
  std::string doc;
  for (int i = 0; i < 20000; ++i) doc += "{\"a\":";
  doc += "1" + std::string(20000, '}');
  EXPECT_EQ(error_text([&] { parse_scenario(doc, "request", true); }),
            "request:1:321: nesting deeper than 64 levels (tables, dotted keys, arrays, objects)");
}

}  // namespace
}  // namespace rdmasim::config
