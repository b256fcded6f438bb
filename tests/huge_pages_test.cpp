// use_huge_pages' decision: re-execute with glibc.malloc.hugetlb=1 unless the user set
// GLIBC_TUNABLES, opted out (RDMASIM_HUGE_PAGES=0) or runs under valgrind (its preload); the
// tunable it sets is what stops a second re-execution. (The exec itself: tests/cli_test.sh runs
// every command through it and checks `--version`'s heap line.)
#include <gtest/gtest.h>

#include "core/huge_pages.hpp"

using namespace rdmasim;

TEST(HugePages, ReexecutesOnceUnlessTheUserChoseOtherwise) {
  if (built_with_sanitizer_allocator()) {
    EXPECT_FALSE(should_reexec_for_huge_pages(nullptr, nullptr, nullptr));  // the sanitizer's allocator
  } else {
    EXPECT_TRUE(should_reexec_for_huge_pages(nullptr, nullptr, nullptr));
    EXPECT_TRUE(should_reexec_for_huge_pages(nullptr, "1", "/usr/lib/libfoo.so"));
  }
  EXPECT_FALSE(should_reexec_for_huge_pages("glibc.malloc.hugetlb=1", nullptr, nullptr));  // the second start
  EXPECT_FALSE(should_reexec_for_huge_pages("", nullptr, nullptr));                       // set, if empty
  EXPECT_FALSE(should_reexec_for_huge_pages("glibc.malloc.arena_max=2", nullptr, nullptr));
  EXPECT_FALSE(should_reexec_for_huge_pages(nullptr, "0", nullptr));
  EXPECT_FALSE(should_reexec_for_huge_pages(nullptr, nullptr, "/usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so"));
}
