#include "core/huge_pages.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace rdmasim {
namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb=1";

constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    true;
#else
    false;
#endif
#else
    false;
#endif

}  // namespace

bool built_with_sanitizer_allocator() { return kSanitized; }

std::string heap_pages() {
  const char* t = std::getenv("GLIBC_TUNABLES");
  if (t == nullptr) return "4 KiB pages";
  const std::string tunables(t);
  return (tunables.find(kTunable) != std::string::npos ? "transparent huge pages" : "4 KiB pages") +
         std::string(" (GLIBC_TUNABLES=") + tunables + ")";
}

bool should_reexec_for_huge_pages(const char* tunables, const char* opt_out, const char* preload) {
  if (kSanitized || tunables != nullptr) return false;
  if (opt_out != nullptr && std::strcmp(opt_out, "0") == 0) return false;
  return preload == nullptr || std::strstr(preload, "valgrind") == nullptr;  // valgrind's preload
}

void use_huge_pages(char** argv) {
  if (!should_reexec_for_huge_pages(std::getenv("GLIBC_TUNABLES"), std::getenv("RDMASIM_HUGE_PAGES"), std::getenv("LD_PRELOAD")))
    return;
  if (::setenv("GLIBC_TUNABLES", kTunable, 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  ::unsetenv("GLIBC_TUNABLES");  // the exec failed: carry on with the heap as it is
}

}  // namespace rdmasim
