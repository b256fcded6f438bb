// ByteWriter / ByteReader: values and runs of values read back in the order written, an empty
// run included; a read past the end is a logic error.
#include "core/byte_io.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

using namespace rdmasim;

TEST(ByteIo, ValuesAndRunsComeBackInOrder) {
  std::vector<std::byte> bytes;
  ByteWriter w(bytes);
  const std::vector<std::int32_t> run{3, -1, 7}, none;
  w.put(std::uint64_t{42});
  w.put_all(std::span<const std::int32_t>(none));
  w.put_all(std::span<const std::int32_t>(run));
  w.put(std::array{1.5, -2.0});
  EXPECT_EQ(bytes.size(), 8 + 8 + 8 + 3 * 4 + 16u);
  ByteReader r(bytes);
  EXPECT_EQ(r.get<std::uint64_t>(), 42u);
  EXPECT_TRUE(r.get_all<std::int32_t>().empty());
  EXPECT_EQ(r.get_all<std::int32_t>(), run);
  EXPECT_EQ((r.get<std::array<double, 2>>()), (std::array{1.5, -2.0}));
  EXPECT_TRUE(r.done());
  EXPECT_THROW(r.get<std::uint8_t>(), std::logic_error);
}
