// CostTable: equal costs intern to one copy whose address and value stay put; different costs
// get their own.
#include "sim/cost_table.hpp"

#include <gtest/gtest.h>

using namespace rdmasim;

TEST(CostTable, EqualCostsShareOneCopy) {
  CostTable t;
  Cost a;
  a.fixed = Time::ns(300);
  Cost b = a;
  b.rate = Rate::gbps(100);
  b.basis = Basis::payload;
  const Cost& ia = t.intern(a);
  const Cost& ib = t.intern(b);
  EXPECT_NE(&ia, &ib);
  EXPECT_EQ(&t.intern(a), &ia);
  EXPECT_EQ(&t.intern(b), &ib);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_TRUE(ia == a);
  EXPECT_EQ(ib.rate, Rate::gbps(100));
}

TEST(CostTable, InternedCopiesStayPutAsTheTableGrows) {
  CostTable t;
  Cost first;
  first.jitter = Time::ns(7);
  const Cost* at = &t.intern(first);
  for (int i = 1; i <= 1000; ++i) {
    Cost c;
    c.fixed = Time::ps(i);
    t.intern(c);
  }
  EXPECT_EQ(t.size(), 1001u);
  EXPECT_EQ(&t.intern(first), at);
  EXPECT_EQ(at->jitter, Time::ns(7));
}
