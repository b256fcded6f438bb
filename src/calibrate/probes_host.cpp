// Host-side probes: clock reads, memcpy, null syscalls, page faults / mlock, and the machine
// description. Method and invariants: calibrate/probes.hpp; helpers: calibrate/probe_support.hpp.
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

#include "calibrate/probe_support.hpp"
#include "calibrate/probes.hpp"

namespace rdmasim::calibrate {

using namespace detail;

namespace {

// ---------------------------------------------------------------------------------------------
// Clock

bool cpu_flag(const std::string& flag) {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    // Appends rather than "literal" + string: GCC 12 warns falsely on that (-Wrestrict).
    std::string padded(" ");
    padded.append(line, line.find(':') + 1).append(" ");
    std::string needle(" ");
    needle.append(flag).append(" ");
    return padded.find(needle) != std::string::npos;
  }
  return false;
}

}  // namespace

// =============================================================================================

ClockResult probe_clock(const ProbeOptions& o) {
  ClockResult r;
  const PinnedProbe probe(o, r.status);
  const Deadline& dl = probe.dl;

  timespec ts{};
  constexpr int kBatch = 1000;
  for (int i = 0; i < 10 * kBatch; ++i) clock_gettime(CLOCK_MONOTONIC, &ts);  // warm-up
  const int batches = o.quick ? 50 : 500;
  std::vector<double> per_call;
  for (int b = 0; b < batches && !dl.passed(); ++b) {
    const i64 t0 = now_ns();
    for (int i = 0; i < kBatch; ++i) {
      clock_gettime(CLOCK_MONOTONIC, &ts);
      clobber(&ts);
    }
    per_call.push_back(static_cast<double>(now_ns() - t0) / kBatch);
  }
  if (per_call.empty()) {
    fail(r.status, "timeout before the first batch");
    return r;
  }
  r.gettime_ns = median(per_call);

  // Effective resolution: smallest non-zero step between back-to-back reads.
  i64 step = 0;
  const int pairs = o.quick ? 20000 : 200000;
  for (int i = 0; i < pairs; ++i) {
    if ((i & 1023) == 0 && dl.passed()) break;
    const i64 a = now_ns(), c = now_ns();
    if (c > a && (step == 0 || c - a < step)) step = c - a;
  }
  if (step == 0) {
    timespec res{};
    clock_getres(CLOCK_MONOTONIC, &res);
    step = static_cast<i64>(res.tv_sec) * 1'000'000'000 + res.tv_nsec;
  }
  r.resolution_ns = static_cast<double>(step);

#if defined(__x86_64__) || defined(__i386__)
  const bool flags = cpu_flag("constant_tsc") && cpu_flag("nonstop_tsc");
  const i64 interval = (o.quick ? 5 : 25) * kMs;
  double ghz[2] = {0, 0};
  int got = 0;
  for (; got < 2 && dl.remaining_ns() > interval; ++got) {
    const std::uint64_t c0 = __builtin_ia32_rdtsc();
    const i64 t0 = now_ns();
    i64 t1 = t0;
    while (t1 - t0 < interval) t1 = now_ns();
    const std::uint64_t c1 = __builtin_ia32_rdtsc();
    ghz[got] = static_cast<double>(c1 - c0) / static_cast<double>(t1 - t0);
  }
  if (got == 2) {
    r.tsc_ghz = (ghz[0] + ghz[1]) / 2;
    const bool agree = r.tsc_ghz > 0 && std::fabs(ghz[0] - ghz[1]) / r.tsc_ghz < 0.01;
    r.tsc_usable = flags && agree;
    if (!flags) add_note(r.status, "TSC not invariant (no constant_tsc/nonstop_tsc)");
    if (!agree) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "TSC calibrations disagree (%.4f vs %.4f GHz)", ghz[0], ghz[1]);
      add_note(r.status, buf);
    }
  } else {
    add_note(r.status, "timeout: TSC not calibrated");
  }
#else
  add_note(r.status, "no TSC on this architecture");
#endif
  return r;
}

CopyResult probe_copy(const ProbeOptions& o) {
  CopyResult r;
  const PinnedProbe probe(o, r.status);
  const Deadline& dl = probe.dl;

  const i64 max_bytes = (o.quick ? 8 : 64) * (i64{1} << 20);
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> src(static_cast<char*>(std::aligned_alloc(64, static_cast<std::size_t>(max_bytes))));
  std::unique_ptr<char, Free> dst(static_cast<char*>(std::aligned_alloc(64, static_cast<std::size_t>(max_bytes))));
  if (!src || !dst) {
    fail(r.status, "aligned_alloc failed for " + std::to_string(max_bytes) + " bytes");
    return r;
  }
  // Pre-fault both buffers (in 1 MiB steps, so the deadline is honoured).
  for (i64 off = 0; off < max_bytes; off += i64{1} << 20) {
    if (dl.passed()) {
      fail(r.status, "timeout while pre-faulting buffers");
      return r;
    }
    std::memset(src.get() + off, 0x5a, 1 << 20);
    std::memset(dst.get() + off, 0, 1 << 20);
  }
  clobber(src.get());
  clobber(dst.get());

  const int batches = o.quick ? 11 : 41;
  const i64 per_size_cap = (o.quick ? 20 : 200) * kMs;
  for (i64 bytes = 64; bytes <= max_bytes; bytes *= 2) {
    if (dl.passed()) break;
    const auto n = static_cast<std::size_t>(bytes);
    const int k = static_cast<int>(std::max<i64>(1, (i64{64} << 10) / bytes));  // copies per batch
    auto batch = [&] {
      const i64 t0 = now_ns();
      for (int i = 0; i < k; ++i) {
        std::memcpy(dst.get(), src.get(), n);
        clobber(dst.get());
      }
      return static_cast<double>(now_ns() - t0) / k;
    };
    batch();  // warm-up
    batch();
    std::vector<double> v;
    const i64 size_end = now_ns() + per_size_cap;
    for (int b = 0; b < batches; ++b) {
      v.push_back(batch());
      if (v.size() >= 3 && (now_ns() >= size_end || dl.passed())) break;
    }
    r.points.push_back({bytes, median(v)});
  }

  // Least squares y = c + s x over the points whose size passes `keep`.
  auto fit = [](const std::vector<CopyPoint>& pts, auto keep, double& slope, double& icept) {
    std::vector<double> x, y;
    for (const CopyPoint& p : pts) {
      if (!keep(p.bytes)) continue;
      x.push_back(static_cast<double>(p.bytes));
      y.push_back(p.ns);
    }
    return least_squares(x, y, slope, icept);
  };
  constexpr i64 kDram = i64{4} << 20, kSmall = i64{1} << 10;
  double s = 0, c = 0;
  if (fit(r.points, [&](i64 b) { return b >= kDram; }, s, c) && s > 0) {
    r.gbytes_per_s = 1.0 / s;
  } else {
    double by = 0, ns = 0;
    for (const CopyPoint& p : r.points)
      if (p.bytes >= kDram) by += static_cast<double>(p.bytes), ns += p.ns;
    if (ns > 0) {
      r.gbytes_per_s = by / ns;
      add_note(r.status, "bandwidth from bytes/time (fit slope not positive)");
    } else {
      fail(r.status, "timeout before the >= 4 MiB sizes");
    }
  }
  if (fit(r.points, [&](i64 b) { return b <= kSmall; }, s, c))
    r.fixed_ns = std::max(0.0, c);
  else
    fail(r.status, "too few small sizes for the fixed-cost fit");
  return r;
}

SyscallResult probe_syscall(const ProbeOptions& o) {
  SyscallResult r;
  const PinnedProbe probe(o, r.status);
  const Deadline& dl = probe.dl;

  constexpr int kBatch = 1000;
  auto batch = [] {
    const i64 t0 = now_ns();
    for (int i = 0; i < kBatch; ++i) {
      const long v = ::syscall(SYS_getppid);
      clobber(&v);
    }
    return static_cast<double>(now_ns() - t0) / kBatch;
  };
  for (int i = 0; i < 5 && !dl.passed(); ++i) batch();  // warm-up
  const int batches = o.quick ? 30 : 500;
  std::vector<double> v;
  for (int b = 0; b < batches && !dl.passed(); ++b) v.push_back(batch());
  if (v.empty()) {
    fail(r.status, "timeout before the first batch");
    return r;
  }
  if (static_cast<int>(v.size()) < batches) add_note(r.status, "timeout after " + std::to_string(v.size()) + " batches");
  r.null_syscall_ns = median(v);
  return r;
}

PinResult probe_pinning(const ProbeOptions& o) {
  PinResult r;
  const PinnedProbe probe(o, r.status);
  const Deadline& dl = probe.dl;

  const long page_l = ::sysconf(_SC_PAGESIZE);
  const std::size_t page = page_l > 0 ? static_cast<std::size_t>(page_l) : 4096;
  const std::size_t pages = o.quick ? 2048 : 16384;
  const int reps = o.quick ? 3 : 5;
  const std::size_t len = pages * page;

  // mlock beyond RLIMIT_MEMLOCK fails without CAP_IPC_LOCK: stay within half the limit.
  std::size_t lock_pages = pages;
  rlimit rl{};
  if (::geteuid() != 0 && ::getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    lock_pages = std::min<std::size_t>(pages, static_cast<std::size_t>(rl.rlim_cur / page / 2));
    if (lock_pages < pages)
      add_note(r.status, "mlock limited to " + std::to_string(lock_pages) + " pages by RLIMIT_MEMLOCK");
  }

  std::vector<double> touch, lock;
  std::string mlock_err;
  bool thp_note = false;
  {  // warm-up: fault and lock a few pages so first-use costs in the kernel are not timed
    const std::size_t wl = 256 * page;
    void* m = ::mmap(nullptr, wl, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m != MAP_FAILED) {
      for (std::size_t i = 0; i < 256; ++i) *static_cast<volatile char*>(static_cast<char*>(m) + i * page) = 1;
      if (::mlock(m, 16 * page) == 0) ::munlock(m, 16 * page);
      ::munmap(m, wl);
    }
  }
  for (int rep = 0; rep < reps && !dl.passed(); ++rep) {
    void* m = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
      fail(r.status, err_note("mmap", errno));
      return r;
    }
    char* p = static_cast<char*>(m);
#ifdef MADV_NOHUGEPAGE
    if (::madvise(m, len, MADV_NOHUGEPAGE) != 0 && !thp_note) {
      add_note(r.status, err_note("madvise(MADV_NOHUGEPAGE)", errno));
      thp_note = true;
    }
#endif
    std::size_t touched = 0;
    const i64 t0 = now_ns();
    for (; touched < pages; ++touched) {
      if ((touched & 255) == 0 && touched > 0 && dl.passed()) break;
      *static_cast<volatile char*>(p + touched * page) = 1;
    }
    const i64 t1 = now_ns();
    if (touched > 0) touch.push_back(static_cast<double>(t1 - t0) / static_cast<double>(touched));

    const std::size_t lp = std::min(lock_pages, touched);
    if (lp >= 16 && mlock_err.empty() && !dl.passed()) {
      const i64 t2 = now_ns();
      const int rc = ::mlock(p, lp * page);
      const i64 t3 = now_ns();
      if (rc == 0) {
        lock.push_back(static_cast<double>(t3 - t2) / static_cast<double>(lp));
        ::munlock(p, lp * page);
      } else {
        mlock_err = err_note("mlock", errno);
        if (errno == ENOMEM || errno == EPERM) mlock_err += " (RLIMIT_MEMLOCK?)";
      }
    } else if (lp < 16 && mlock_err.empty()) {
      mlock_err = "mlock: skipped (RLIMIT_MEMLOCK allows fewer than 16 pages)";
    }
    ::munmap(m, len);
  }
  if (touch.empty()) {
    fail(r.status, "timeout before any page was touched");
    return r;
  }
  r.first_touch_ns_per_page = median(touch);
  r.mlock_ns_per_page = median(lock);
  if (!mlock_err.empty()) add_note(r.status, mlock_err);
  if (dl.passed()) add_note(r.status, "timeout: fewer repetitions");
  return r;
}

std::string machine_description() {
  std::string model;
  {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line) && model.empty()) {
      for (const char* key : {"model name", "Model", "Hardware", "cpu model", "cpu"}) {
        if (line.rfind(key, 0) != 0) continue;
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        const std::string k = line.substr(0, colon);
        if (k.find_last_not_of(" \t") + 1 != std::strlen(key)) continue;  // exact key
        std::string v = line.substr(colon + 1);
        const auto b = v.find_first_not_of(" \t"), e = v.find_last_not_of(" \t");
        if (b != std::string::npos) model = v.substr(b, e - b + 1);
        break;
      }
    }
  }
  if (model.empty()) model = "unknown CPU";
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  utsname u{};
  const std::string kernel = ::uname(&u) == 0 ? u.release : "unknown";
  return model + ", " + std::to_string(n > 0 ? n : 1) + (n == 1 ? " core" : " cores") + ", kernel " + kernel;
}

}  // namespace rdmasim::calibrate
