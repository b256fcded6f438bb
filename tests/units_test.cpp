#include "rdmasim/units.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace rdmasim;
using namespace rdmasim::literals;

TEST(Units, FactoriesAndLiterals) {
  EXPECT_EQ(Time::ns(1).count_ps(), 1000);
  EXPECT_EQ(Time::us(3).count_ps(), 3'000'000);
  EXPECT_EQ((2_us + 5_ns).count_ps(), 2'005'000);
  EXPECT_EQ(Time::ms(1), 1000_us);
  EXPECT_LT(1_ns, 1001_ps);
}

TEST(Units, SerializationIsExactWhenDivisible) {
  // 1500 B at 100 Gb/s = 12000 bits / 1e11 = 120 ns.
  EXPECT_EQ(serialization_time(Bytes(1500), 100_Gbps), 120_ns);
  EXPECT_EQ(serialization_time(Bytes(1), Rate::gbps(8)), 1_ns);
}

TEST(Units, SerializationRoundsUpToNextPicosecond) {
  // 1 B at 3 bit/s = 8/3 s = 2666666666666.67 ps -> 2666666666667.
  EXPECT_EQ(serialization_time(Bytes(1), Rate::bps(3)).count_ps(), 2'666'666'666'667);
  // 102 B at 100 Gb/s = 8.16 ns exactly.
  EXPECT_EQ(serialization_time(Bytes(102), 100_Gbps).count_ps(), 8160);
  // 1 B at 3 Gb/s: 2666.67 ps -> 2667.
  EXPECT_EQ(serialization_time(Bytes(1), Rate::gbps(3)).count_ps(), 2667);
}

TEST(Units, SerializationHandlesLargeCountsAndZero) {
  EXPECT_EQ(serialization_time(Bytes(1LL << 40), Rate::gbps(1)).count_ps(), (1LL << 40) * 8 * 1000);
  EXPECT_EQ(serialization_time(Bytes(0), 100_Gbps), Time::zero());
  EXPECT_EQ(serialization_time(Bytes(100), Rate{}), Time::zero());  // unlimited
}

TEST(Units, ParseTime) {
  EXPECT_EQ(parse_time("1.5us"), Time::ns(1500));
  EXPECT_EQ(parse_time("250ns"), 250_ns);
  EXPECT_EQ(parse_time("7ps"), 7_ps);
  EXPECT_EQ(parse_time("0.001ms"), 1_us);
  EXPECT_EQ(parse_time("2s"), Time::ms(2000));
  EXPECT_THROW(parse_time("10"), std::invalid_argument);        // unit required
  EXPECT_EQ(parse_time("0"), Time::zero());                     // ... except for zero, the same in every unit
  EXPECT_EQ(parse_bytes("0"), Bytes(0));
  EXPECT_EQ(parse_rate("0.0"), Rate::bps(0));
  EXPECT_THROW(parse_bytes("1"), std::invalid_argument);
  EXPECT_THROW(parse_time("fast"), std::invalid_argument);
  EXPECT_THROW(parse_time("1.5parsecs"), std::invalid_argument);
  EXPECT_THROW(parse_time("0.5ps"), std::invalid_argument);     // finer than 1 ps
}

TEST(Units, ParseRateBytesLength) {
  EXPECT_EQ(parse_rate("100Gbps"), 100_Gbps);
  EXPECT_EQ(parse_rate("2.5Gbps").bits_per_sec(), 2'500'000'000);
  EXPECT_EQ(parse_rate("4GB/s").bits_per_sec(), 32'000'000'000);
  EXPECT_THROW(parse_rate("fast"), std::invalid_argument);
  EXPECT_EQ(parse_bytes("4KiB"), Bytes(4096));
  EXPECT_EQ(parse_bytes("64B"), Bytes(64));
  EXPECT_EQ(parse_bytes("1MB"), Bytes(1'000'000));
  EXPECT_THROW(parse_bytes("4kib"), std::invalid_argument);
  EXPECT_EQ(parse_length_mm("3m"), 3000);
  EXPECT_EQ(parse_length_mm("2.5km"), 2'500'000);
  EXPECT_THROW(parse_length_mm("3 m"), std::invalid_argument);
}

// Found by the scenario JSON fuzzer (signed overflow of the 128-bit arithmetic, UB): a size with
// 140 digits after the point, and 30 digits times a unit's factor. Both are one clear error now;
// trailing zeros after the point are not digits that count.
TEST(Units, TooManyDigitsAreAnErrorNotAnOverflow) {
  const std::string tiny = "0." + std::string(139, '0') + "5KiB";
  try {
    parse_bytes(tiny);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "a size \"" + tiny + "\" has more than 38 significant digits after the point");
  }
  EXPECT_THROW(parse_bytes(std::string(30, '9') + "EiB"), std::invalid_argument);
  EXPECT_THROW(parse_time(std::string(30, '9') + "s"), std::invalid_argument);
  EXPECT_EQ(parse_bytes("4." + std::string(20, '0') + "KiB"), Bytes(4096));
  EXPECT_EQ(parse_bytes("0.5KiB"), Bytes(512));
}

TEST(Units, FormatRoundTrips) {
  for (const char* s : {"1.5us", "250ns", "7ps", "3ms", "1.000001us"})
    EXPECT_EQ(parse_time(format_time(parse_time(s))), parse_time(s)) << s;
  EXPECT_EQ(format_time(Time::ns(1500)), "1.5us");
  EXPECT_EQ(format_rate(Rate::gbps(100)), "100Gbps");
}
