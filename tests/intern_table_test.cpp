// InternTable: equal values intern to one copy whose address and value stay put; different
// values get their own.
#include "sim/intern_table.hpp"

#include <gtest/gtest.h>

#include <string>

#include "model/path.hpp"

using namespace rdmasim;

TEST(InternTable, EqualCostsShareOneCopy) {
  InternTable<Cost> t;
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

TEST(InternTable, InternedCopiesStayPutAsTheTableGrows) {
  InternTable<Cost> t;
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

TEST(InternTable, LabelsShareOneString) {
  InternTable<std::string> t;
  const std::string& a = t.intern("A.nic.tx_pipeline");
  const std::string& b = t.intern(std::string("A.nic.") + "tx_pipeline");
  EXPECT_EQ(&a, &b);
  EXPECT_NE(&t.intern("B.nic.tx_pipeline"), &a);
  EXPECT_EQ(t.size(), 2u);
}
