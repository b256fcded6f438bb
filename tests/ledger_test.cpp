#include "rdmasim/ledger.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace rdmasim;

TEST(Ledger, TotalsAndProcessSplit) {
  Ledger l;
  l.add(Category::queue, Time::ns(1));
  l.add(Category::transmit, Time::ns(2));
  l.add(Category::kernel, Time::ns(3));
  l.add(Category::driver, Time::ns(4));
  EXPECT_EQ(l.total(), Time::ns(10));
  EXPECT_EQ(l.process(), Time::ns(7));
  Ledger m = l;
  m.add(l);
  EXPECT_EQ(m.total(), Time::ns(20));
  m.subtract(l);
  EXPECT_EQ(m, l);
}

TEST(Ledger, CategoriesHaveUniqueNamesAndProcessFlags) {
  std::set<std::string> names;
  for (Category c : kAllCategories) names.insert(std::string(category_name(c)));
  EXPECT_EQ(names.size(), kCategoryCount);
  EXPECT_FALSE(is_process(Category::queue));
  EXPECT_FALSE(is_process(Category::propagate));
  EXPECT_TRUE(is_process(Category::kernel));
  EXPECT_TRUE(is_process(Category::switch_));
  EXPECT_EQ(category_name(Category::switch_), "switch");
}
