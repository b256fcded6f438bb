// Transparent huge pages for the heap: a large fabric's model (k=32: about 200 MB of ports,
// packets, hosts and events, touched in no order a cache can follow) misses the TLB on most
// events with 4 KiB pages. glibc (2.35 on) backs its heap with huge pages when the tunable
// glibc.malloc.hugetlb=1 is set (madvise(MADV_HUGEPAGE) on what it maps; the kernel's
// transparent_hugepage mode "madvise" or "always"), but reads tunables only as a process
// starts: use_huge_pages() re-executes the program once with the tunable set.
// Invariants: it runs first in main(), before any thread, file or MPI; it never re-executes
// twice (the tunable it sets stops it), nor where GLIBC_TUNABLES is already set (the user's
// choice), RDMASIM_HUGE_PAGES=0 is set, or under a sanitizer or valgrind (their allocators
// ignore the tunable); if the exec fails the program carries on as it is.
#pragma once

#include <string>

namespace rdmasim {

/// The heap's pages as this process runs: "transparent huge pages" where GLIBC_TUNABLES holds
/// glibc.malloc.hugetlb=1 (use_huge_pages() set it, or the user did), else "4 KiB pages";
/// followed by " (GLIBC_TUNABLES=...)" when that is set.
std::string heap_pages();

/// Built with AddressSanitizer or ThreadSanitizer (gcc's or clang's), whose allocators ignore
/// the tunable.
bool built_with_sanitizer_allocator();

/// What use_huge_pages() decides from the environment: true to re-execute with the tunable.
/// `tunables`, `opt_out` and `preload` are GLIBC_TUNABLES, RDMASIM_HUGE_PAGES and LD_PRELOAD
/// (null if unset).
bool should_reexec_for_huge_pages(const char* tunables, const char* opt_out, const char* preload);

/// Re-executes /proc/self/exe with argv and GLIBC_TUNABLES=glibc.malloc.hugetlb=1 when
/// should_reexec_for_huge_pages() says so; returns (the program carries on) otherwise or if the
/// exec fails.
void use_huge_pages(char** argv);

}  // namespace rdmasim
