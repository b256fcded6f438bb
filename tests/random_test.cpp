#include "core/random.hpp"

#include <gtest/gtest.h>

#include <array>

using namespace rdmasim;

TEST(Random, SplitmixMatchesReferenceSequence) {
  // Reference values of splitmix64 from state 0 (Vigna's splitmix64.c).
  std::uint64_t st = 0;
  EXPECT_EQ(splitmix64(st), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(splitmix64(st), 0x6e789e6aa1b965f4ULL);
}

TEST(Random, Fnv1aMatchesReference) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
}

TEST(Random, SameSeedAndNameSameDraws) {
  RandomStream a(7, "nic.tx_jitter"), b(7, "nic.tx_jitter");
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.next_u64(), b.next_u64());
}

TEST(Random, StreamsAreIndependentByNameAndSeed) {
  RandomStream a(7, "x"), b(7, "y"), c(8, "x");
  int same_ab = 0, same_ac = 0;
  for (int i = 0; i < 100; ++i) {
    const auto va = a.next_u64();
    same_ab += va == b.next_u64();
    same_ac += va == c.next_u64();
  }
  EXPECT_EQ(same_ab, 0);
  EXPECT_EQ(same_ac, 0);
}

TEST(Random, InstancesOfAStreamAreIndependentAndReproducible) {
  RandomStream port3(7, "fabric.ecn", 3), again(7, "fabric.ecn", 3), port4(7, "fabric.ecn", 4), plain(7, "fabric.ecn");
  RandomStream other_seed(8, "fabric.ecn", 3), port0(7, "fabric.ecn", 0);
  int same_4 = 0, same_plain = 0, same_seed = 0, same_0 = 0;
  for (int i = 0; i < 100; ++i) {
    const auto v = port3.next_u64();
    ASSERT_EQ(v, again.next_u64());
    same_4 += v == port4.next_u64();
    same_seed += v == other_seed.next_u64();
    same_0 += plain.next_u64() == port0.next_u64();
  }
  EXPECT_EQ(same_4 + same_plain + same_seed + same_0, 0);
}

TEST(Random, UniformIntStaysInRangeAndCoversIt) {
  RandomStream r(1, "u");
  std::array<int, 7> hist{};
  for (int i = 0; i < 70'000; ++i) {
    const auto v = r.uniform_u64(3, 9);
    ASSERT_GE(v, 3u);
    ASSERT_LE(v, 9u);
    ++hist[v - 3];
  }
  for (int h : hist) EXPECT_NEAR(h, 10'000, 500);  // > 5 sigma of slack
  EXPECT_EQ(r.uniform_u64(5, 5), 5u);
  (void)r.uniform_u64(0, UINT64_MAX);
}

TEST(Random, Uniform01AndTime) {
  RandomStream r(3, "d");
  double sum = 0;
  for (int i = 0; i < 10'000; ++i) {
    const double x = r.uniform01();
    ASSERT_GE(x, 0.0);
    ASSERT_LT(x, 1.0);
    sum += x;
  }
  EXPECT_NEAR(sum / 10'000, 0.5, 0.02);
  for (int i = 0; i < 1000; ++i) {
    const Time t = r.uniform_time(Time::ns(300));
    ASSERT_GE(t, Time::zero());
    ASSERT_LE(t, Time::ns(300));
  }
  EXPECT_EQ(r.uniform_time(Time::zero()), Time::zero());
}
