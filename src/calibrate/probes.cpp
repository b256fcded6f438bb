#include "calibrate/probes.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

namespace rdmasim::calibrate {
namespace {

using i64 = std::int64_t;
constexpr i64 kMs = 1'000'000;
constexpr std::size_t kMinSamples = 100;  // fewer samples than this: the probe failed

// ---------------------------------------------------------------------------------------------
// Time, deadlines, notes

i64 now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<i64>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

struct Deadline {
  i64 end;
  explicit Deadline(const ProbeOptions& o)
      : end(now_ns() + std::max<i64>(0, static_cast<i64>(o.timeout.count())) * kMs) {}
  bool passed() const { return now_ns() >= end; }
  i64 remaining_ns() const { return std::max<i64>(0, end - now_ns()); }
};

// strerror_r comes in an XSI (int) and a GNU (char*) flavour; accept either.
[[maybe_unused]] const char* strerror_pick(int, const char* buf) { return buf; }
[[maybe_unused]] const char* strerror_pick(const char* r, const char*) { return r; }
std::string errstr(int e) {
  char buf[128] = {0};
  return strerror_pick(strerror_r(e, buf, sizeof buf), buf);
}
std::string err_note(const std::string& what, int e) { return what + ": " + errstr(e); }

void add_note(ProbeStatus& s, const std::string& n) {
  if (n.empty()) return;
  if (!s.note.empty()) s.note += "; ";
  s.note += n;
}
void fail(ProbeStatus& s, const std::string& n) {
  s.ok = false;
  add_note(s, n);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

// Keeps the compiler from dropping or merging memory operations on `p`.
inline void clobber(const void* p) { __asm__ __volatile__("" : : "r"(p) : "memory"); }

// ---------------------------------------------------------------------------------------------
// CPU affinity

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

// Pins the calling thread to `cpu` (no-op for cpu < 0). Returns "" or the reason it failed.
std::string pin_self(int cpu) {
  if (cpu < 0) return "";
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  const int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  return rc == 0 ? "" : "affinity denied (cpu " + std::to_string(cpu) + "): " + errstr(rc);
}

// Which CPUs the two sides use. -1 = run unpinned.
struct CpuPlan {
  int a = -1, b = -1;
  bool cross = false;  // a and b are distinct CPUs
  std::string note;
};

CpuPlan plan_cpus(const ProbeOptions& o) {
  CpuPlan p;
  const std::vector<int> cpus = allowed_cpus();
  if (cpus.empty()) {
    p.note = "sched_getaffinity failed: unpinned, same-core only";
    return p;
  }
  auto has = [&](int c) { return std::find(cpus.begin(), cpus.end(), c) != cpus.end(); };
  p.a = has(o.cpu_a) ? o.cpu_a : cpus.front();
  if (p.a != o.cpu_a) p.note = "cpu_a " + std::to_string(o.cpu_a) + " not allowed, using " + std::to_string(p.a);
  if (cpus.size() < 2) {
    p.b = p.a;
    if (!p.note.empty()) p.note += "; ";
    p.note += "one CPU: same-core only";
    return p;
  }
  if (o.cpu_b == p.a) {  // asked for same-core on purpose
    p.b = p.a;
    if (!p.note.empty()) p.note += "; ";
    p.note += "cpu_a == cpu_b: same-core only";
    return p;
  }
  if (has(o.cpu_b)) {
    p.b = o.cpu_b;
  } else {
    for (int c : cpus)
      if (c != p.a) {
        p.b = c;
        break;
      }
    if (!p.note.empty()) p.note += "; ";
    p.note += "cpu_b " + std::to_string(o.cpu_b) + " unusable, using " + std::to_string(p.b);
  }
  p.cross = true;
  return p;
}

// Pins the calling thread for the scope of a single-threaded probe, then restores its mask.
class ScopedPin {
 public:
  ScopedPin(int cpu, ProbeStatus& st) {
    if (cpu < 0) return;
    CPU_ZERO(&saved_);
    if (pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_) != 0) {
      add_note(st, "pthread_getaffinity_np failed: unpinned");
      return;
    }
    const std::string e = pin_self(cpu);
    if (e.empty())
      restore_ = true;
    else
      add_note(st, e + ": unpinned");
  }
  ~ScopedPin() {
    if (restore_) pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);
  }
  ScopedPin(const ScopedPin&) = delete;
  ScopedPin& operator=(const ScopedPin&) = delete;

 private:
  cpu_set_t saved_{};
  bool restore_ = false;
};

// ---------------------------------------------------------------------------------------------
// Iteration plans and the two-thread ping-pong harness

struct Budget {
  int warmup;     // iterations discarded first (also capped at budget_ns / 5)
  int iters;      // measured iterations at most
  i64 budget_ns;  // measuring time at most
};

Budget pingpong_budget(const ProbeOptions& o) {
  return o.quick ? Budget{200, 3000, 100 * kMs} : Budget{2000, 20000, 1000 * kMs};
}

class Latch {
 public:
  void set() {
    {
      std::lock_guard<std::mutex> lk(m_);
      done_ = true;
    }
    cv_.notify_all();
  }
  // false when `deadline_ns` passed first
  bool wait_until_ns(i64 deadline_ns) {
    std::unique_lock<std::mutex> lk(m_);
    while (!done_) {
      const i64 left = deadline_ns - now_ns();
      if (left <= 0) return false;
      cv_.wait_for(lk, std::chrono::nanoseconds(left));
    }
    return true;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
};

struct PairOutcome {
  bool watchdog_fired = false;
  std::string error;  // thread creation failure
  std::string pin_notes;
};

// Runs `server` on cpu_server and `client` on cpu_client; the calling thread is the watchdog:
// when the client finishes or the deadline passes it sets `stop` and calls `kick` (which must
// unblock any blocking call of either side), then joins both.
template <class Server, class Client, class Kick>
PairOutcome run_pair(int cpu_server, int cpu_client, i64 deadline_ns, std::atomic<bool>& stop, Server server,
                     Client client, Kick kick) {
  PairOutcome out;
  Latch latch;
  std::string pin_s, pin_c;
  std::thread ts, tc;
  try {
    ts = std::thread([&] {
      pin_s = pin_self(cpu_server);
      server();
    });
    tc = std::thread([&] {
      pin_c = pin_self(cpu_client);
      client();
      latch.set();
    });
  } catch (const std::system_error& e) {
    out.error = std::string("thread: ") + e.what();
    stop.store(true);
    kick();
    if (ts.joinable()) ts.join();
    return out;
  }
  if (!latch.wait_until_ns(deadline_ns)) out.watchdog_fired = true;
  stop.store(true);
  kick();
  tc.join();
  kick();
  ts.join();
  out.pin_notes = pin_c;
  if (!pin_s.empty()) out.pin_notes += (out.pin_notes.empty() ? "" : "; ") + pin_s;
  return out;
}

enum class Step { ok, discard, fail };

// Warm-up, then time `op` (one round trip) until `b.iters` samples, the budget, the deadline or
// `stop`. Each sample is the op's duration divided by `divisor`.
template <class Op>
void timed_loop(const Budget& b, i64 deadline_ns, const std::atomic<bool>& stop, std::vector<double>& out,
                double divisor, Op op) {
  const i64 warm_end = std::min(now_ns() + b.budget_ns / 5, deadline_ns);
  for (int i = 0; i < b.warmup; ++i) {
    if (stop.load(std::memory_order_relaxed)) return;
    if (op() == Step::fail) return;
    if (now_ns() >= warm_end) break;
  }
  // The budget is soft (measuring goes on past it until kMinSamples, e.g. on a loaded machine);
  // the deadline is hard.
  const i64 end = now_ns() + b.budget_ns;
  i64 t = now_ns();
  while (static_cast<int>(out.size()) < b.iters && t < deadline_ns && (t < end || out.size() < kMinSamples) &&
         !stop.load(std::memory_order_relaxed)) {
    const i64 t0 = now_ns();
    const Step s = op();
    t = now_ns();
    if (s == Step::fail) return;
    if (s == Step::ok) out.push_back(static_cast<double>(t - t0) / divisor);
  }
}

// Common verdict for a sampled probe.
Distribution finish_samples(ProbeStatus& st, std::vector<double>& samples, const PairOutcome& po, i64 deadline_ns,
                            const std::string& client_err, const std::string& server_err, const char* label) {
  const std::string pre = label[0] ? std::string(label) + ": " : std::string();
  add_note(st, po.pin_notes);
  if (!po.error.empty()) fail(st, pre + po.error);
  if (!client_err.empty()) fail(st, pre + client_err);
  if (!server_err.empty()) fail(st, pre + "server " + server_err);
  const bool timed_out = po.watchdog_fired || now_ns() >= deadline_ns;
  if (samples.size() < kMinSamples) {
    if (st.ok || timed_out)
      fail(st, pre + (timed_out ? "timeout after " : "only ") + std::to_string(samples.size()) + " samples");
  } else if (timed_out) {
    add_note(st, pre + "timeout: stopped after " + std::to_string(samples.size()) + " samples");
  }
  return summarize(std::move(samples));
}

// ---------------------------------------------------------------------------------------------
// File descriptors and sockets

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

std::string set_timeouts(int fd, i64 rcv_ns, i64 snd_ns) {
  auto tv = [](i64 ns) {
    ns = std::max<i64>(ns, kMs);  // 0 would mean "no timeout"
    timeval t{};
    t.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
    t.tv_usec = static_cast<suseconds_t>((ns % 1'000'000'000) / 1000);
    return t;
  };
  const timeval r = tv(rcv_ns), s = tv(snd_ns);
  if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &r, sizeof r) != 0) return err_note("setsockopt(SO_RCVTIMEO)", errno);
  if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &s, sizeof s) != 0) return err_note("setsockopt(SO_SNDTIMEO)", errno);
  return "";
}

std::string io_err(const char* what, int e) {
  if (e == EAGAIN || e == EWOULDBLOCK) return std::string(what) + ": timed out";
  return err_note(what, e);
}

// 1: all sent; -1: error (errno set).
int send_all(int fd, const char* p, std::size_t n) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t r = ::send(fd, p + done, n - done, MSG_NOSIGNAL);
    if (r > 0) {
      done += static_cast<std::size_t>(r);
    } else if (r < 0 && errno == EINTR) {
      continue;
    } else {
      if (r == 0) errno = EPIPE;
      return -1;
    }
  }
  return 1;
}

// 1: all received; 0: peer closed / shut down; -1: error (errno set).
int recv_all(int fd, char* p, std::size_t n) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t r = ::recv(fd, p + done, n - done, 0);
    if (r > 0)
      done += static_cast<std::size_t>(r);
    else if (r == 0)
      return 0;
    else if (errno != EINTR)
      return -1;
  }
  return 1;
}

sockaddr_in loopback_any_port() {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = 0;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

// Creates a socket bound to 127.0.0.1:0; returns "" or an error note; `addr` gets the port.
std::string bound_socket(int type, Fd& fd, sockaddr_in& addr, const Deadline& dl) {
  fd.reset(::socket(AF_INET, type | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return err_note("socket", errno);
  if (std::string e = set_timeouts(fd.get(), dl.remaining_ns(), dl.remaining_ns()); !e.empty()) return e;
  addr = loopback_any_port();
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) return err_note("bind", errno);
  socklen_t len = sizeof addr;
  if (::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0) return err_note("getsockname", errno);
  return "";
}

std::string set_nodelay(int fd) {
  const int one = 1;
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) return err_note("setsockopt(TCP_NODELAY)", errno);
  return "";
}

// ---------------------------------------------------------------------------------------------
// Wake-up: pipe ping-pong between two threads

Distribution pipe_rtt(const Budget& b, int cpu_client, int cpu_server, i64 deadline_ns, ProbeStatus& st,
                      const char* label) {
  int p1[2], p2[2];  // client -> server, server -> client
  if (::pipe2(p1, O_CLOEXEC) != 0) {
    fail(st, std::string(label) + ": " + err_note("pipe2", errno));
    return {};
  }
  Fd p1r(p1[0]), p1w(p1[1]);
  if (::pipe2(p2, O_CLOEXEC) != 0) {
    fail(st, std::string(label) + ": " + err_note("pipe2", errno));
    return {};
  }
  Fd p2r(p2[0]), p2w(p2[1]);

  std::atomic<bool> stop{false};
  std::string cerr, serr;
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(b.iters));

  auto server = [&] {
    char c = 0;
    while (true) {
      const ssize_t r = ::read(p1r.get(), &c, 1);
      if (r < 0 && errno == EINTR) continue;
      if (stop.load()) return;
      if (r <= 0) {
        serr = r == 0 ? "read: pipe closed" : err_note("read", errno);
        return;
      }
      ssize_t w;
      do w = ::write(p2w.get(), &c, 1);
      while (w < 0 && errno == EINTR);
      if (w != 1) {
        if (!stop.load()) serr = err_note("write", errno);
        return;
      }
    }
  };
  auto op = [&]() -> Step {
    char c = 'p';
    ssize_t r;
    do r = ::write(p1w.get(), &c, 1);
    while (r < 0 && errno == EINTR);
    if (r != 1) {
      if (!stop.load()) cerr = err_note("write", errno);
      return Step::fail;
    }
    do r = ::read(p2r.get(), &c, 1);
    while (r < 0 && errno == EINTR);
    if (stop.load()) return Step::fail;
    if (r != 1) {
      cerr = r == 0 ? "read: pipe closed" : err_note("read", errno);
      return Step::fail;
    }
    return Step::ok;
  };
  auto kick = [&] {  // a byte in each pipe wakes a blocked reader, which then sees `stop`
    const char c = 'k';
    [[maybe_unused]] ssize_t r = ::write(p1w.get(), &c, 1);
    r = ::write(p2w.get(), &c, 1);
  };
  const PairOutcome po = run_pair(
      cpu_server, cpu_client, deadline_ns, stop, server,
      [&] { timed_loop(b, deadline_ns, stop, samples, 1.0, op); }, kick);
  return finish_samples(st, samples, po, deadline_ns, cerr, serr, label);
}

// ---------------------------------------------------------------------------------------------
// Clock

bool cpu_flag(const std::string& flag) {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    const std::string padded = " " + line.substr(line.find(':') + 1) + " ";
    return padded.find(" " + flag + " ") != std::string::npos;
  }
  return false;
}

}  // namespace

// =============================================================================================

ClockResult probe_clock(const ProbeOptions& o) {
  ClockResult r;
  const Deadline dl(o);
  const CpuPlan plan = plan_cpus(o);
  if (plan.a < 0) add_note(r.status, plan.note);
  ScopedPin pin(plan.a, r.status);

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
  const Deadline dl(o);
  const CpuPlan plan = plan_cpus(o);
  if (plan.a < 0) add_note(r.status, plan.note);
  ScopedPin pin(plan.a, r.status);

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

  // Least squares y = c + s x.
  auto fit = [](const std::vector<CopyPoint>& pts, auto keep, double& slope, double& icept) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (const CopyPoint& p : pts) {
      if (!keep(p.bytes)) continue;
      const double x = static_cast<double>(p.bytes), y = p.ns;
      sx += x, sy += y, sxx += x * x, sxy += x * y, ++m;
    }
    if (m < 2) return false;
    const double den = m * sxx - sx * sx;
    if (den == 0) return false;
    slope = (m * sxy - sx * sy) / den;
    icept = (sy - slope * sx) / m;
    return true;
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
  const Deadline dl(o);
  const CpuPlan plan = plan_cpus(o);
  if (plan.a < 0) add_note(r.status, plan.note);
  ScopedPin pin(plan.a, r.status);

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

WakeupResult probe_wakeup(const ProbeOptions& o) {
  WakeupResult r;
  const Deadline dl(o);
  const CpuPlan plan = plan_cpus(o);
  add_note(r.status, plan.note);
  Budget b = o.quick ? Budget{100, 2000, 80 * kMs} : Budget{1000, 10000, 700 * kMs};
  const i64 half = plan.cross ? now_ns() + dl.remaining_ns() / 2 : dl.end;
  r.same_core_rtt = pipe_rtt(b, plan.a, plan.a, half, r.status, "same-core");
  if (plan.cross) r.cross_core_rtt = pipe_rtt(b, plan.a, plan.b, dl.end, r.status, "cross-core");
  const Distribution& d = r.cross_core_rtt.count > 0 ? r.cross_core_rtt : r.same_core_rtt;
  r.wakeup_ns = d.p50_ns / 2;
  return r;
}

PingPongResult probe_tcp_pingpong(const ProbeOptions& o, std::int64_t bytes) {
  PingPongResult r;
  r.bytes = bytes;
  const Deadline dl(o);
  if (bytes < 1 || bytes > (i64{1} << 30)) {
    fail(r.status, "bytes must be in [1, 2^30]");
    return r;
  }
  const CpuPlan plan = plan_cpus(o);
  add_note(r.status, plan.note);

  Fd lis, cli, srv;
  sockaddr_in addr{};
  std::string e = bound_socket(SOCK_STREAM, lis, addr, dl);
  if (e.empty() && ::listen(lis.get(), 1) != 0) e = err_note("listen", errno);
  if (e.empty()) {
    cli.reset(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!cli.valid()) e = err_note("socket", errno);
  }
  if (e.empty()) e = set_timeouts(cli.get(), dl.remaining_ns(), dl.remaining_ns());
  if (e.empty()) e = set_nodelay(cli.get());
  // A loopback connect completes in the kernel's accept queue, so accept() does not wait.
  if (e.empty() && ::connect(cli.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0)
    e = err_note("connect", errno);
  if (e.empty()) {
    srv.reset(::accept4(lis.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (!srv.valid()) e = io_err("accept", errno);
  }
  if (e.empty()) e = set_timeouts(srv.get(), dl.remaining_ns(), dl.remaining_ns());
  if (e.empty()) e = set_nodelay(srv.get());
  lis.reset();
  if (!e.empty()) {
    fail(r.status, e);
    return r;
  }

  const auto n = static_cast<std::size_t>(bytes);
  std::vector<char> cbuf(n, 'c'), sbuf(n);
  const Budget b = pingpong_budget(o);
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(b.iters));
  std::atomic<bool> stop{false};
  std::string cerr, serr;

  auto server = [&] {
    while (!stop.load()) {
      const int rc = recv_all(srv.get(), sbuf.data(), n);
      if (rc == 0) return;  // client closed / shut down
      if (rc < 0) {
        if (!stop.load()) serr = io_err("recv", errno);
        return;
      }
      if (send_all(srv.get(), sbuf.data(), n) < 0) {
        if (!stop.load()) serr = io_err("send", errno);
        return;
      }
    }
  };
  auto op = [&]() -> Step {
    if (send_all(cli.get(), cbuf.data(), n) < 0) {
      if (!stop.load()) cerr = io_err("send", errno);
      return Step::fail;
    }
    const int rc = recv_all(cli.get(), cbuf.data(), n);
    if (rc <= 0) {
      if (!stop.load()) cerr = rc == 0 ? "recv: connection closed by server" : io_err("recv", errno);
      return Step::fail;
    }
    return Step::ok;
  };
  auto kick = [&] {
    ::shutdown(cli.get(), SHUT_RDWR);
    ::shutdown(srv.get(), SHUT_RDWR);
  };
  const PairOutcome po = run_pair(
      plan.b, plan.a, dl.end, stop, server, [&] { timed_loop(b, dl.end, stop, samples, 2.0, op); }, kick);
  r.one_way = finish_samples(r.status, samples, po, dl.end, cerr, serr, "");
  return r;
}

PingPongResult probe_udp_pingpong(const ProbeOptions& o, std::int64_t bytes) {
  PingPongResult r;
  r.bytes = bytes;
  const Deadline dl(o);
  if (bytes < 1 || bytes > 65507) {
    fail(r.status, "UDP payload must be in [1, 65507] bytes");
    return r;
  }
  const CpuPlan plan = plan_cpus(o);
  add_note(r.status, plan.note);

  constexpr i64 kLossWait = 100 * kMs;
  Fd cli, srv;
  sockaddr_in ca{}, sa{};
  std::string e = bound_socket(SOCK_DGRAM, cli, ca, dl);
  if (e.empty()) e = bound_socket(SOCK_DGRAM, srv, sa, dl);
  if (e.empty() && ::connect(cli.get(), reinterpret_cast<const sockaddr*>(&sa), sizeof sa) != 0)
    e = err_note("connect", errno);
  if (e.empty() && ::connect(srv.get(), reinterpret_cast<const sockaddr*>(&ca), sizeof ca) != 0)
    e = err_note("connect", errno);
  const i64 wait = std::min(kLossWait, dl.remaining_ns());
  if (e.empty()) e = set_timeouts(cli.get(), wait, dl.remaining_ns());
  if (e.empty()) e = set_timeouts(srv.get(), wait, dl.remaining_ns());
  if (!e.empty()) {
    fail(r.status, e);
    return r;
  }

  const auto n = static_cast<std::size_t>(bytes);
  const std::size_t seq_bytes = std::min<std::size_t>(n, 8);
  std::vector<char> cbuf(n, 'u'), rbuf(n + 1), sbuf(65536);
  const Budget b = pingpong_budget(o);
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(b.iters));
  std::atomic<bool> stop{false};
  std::string cerr, serr;
  std::uint64_t seq = 0;
  long losses = 0;

  auto server = [&] {
    while (!stop.load()) {
      const ssize_t got = ::recv(srv.get(), sbuf.data(), sbuf.size(), 0);
      if (got < 0) {
        if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
        if (!stop.load()) serr = err_note("recv", errno);
        return;
      }
      if (got == 0) return;  // shut down
      ssize_t w;
      do w = ::send(srv.get(), sbuf.data(), static_cast<std::size_t>(got), MSG_NOSIGNAL);
      while (w < 0 && errno == EINTR);
      if (w < 0 && !stop.load()) {
        serr = err_note("send", errno);
        return;
      }
    }
  };
  auto op = [&]() -> Step {
    ++seq;
    std::memcpy(cbuf.data(), &seq, seq_bytes);  // little-endian low bytes of the sequence
    bool lost = false;
    while (true) {
      ssize_t w;
      do w = ::send(cli.get(), cbuf.data(), n, MSG_NOSIGNAL);
      while (w < 0 && errno == EINTR);
      if (w != static_cast<ssize_t>(n)) {
        if (!stop.load()) cerr = w < 0 ? io_err("send", errno) : "send: short datagram";
        return Step::fail;
      }
      while (true) {
        const ssize_t got = ::recv(cli.get(), rbuf.data(), rbuf.size(), 0);
        if (got < 0 && errno == EINTR) continue;
        if (stop.load() || got == 0) return Step::fail;
        if (got < 0) {
          if (errno != EAGAIN && errno != EWOULDBLOCK) {
            cerr = err_note("recv", errno);
            return Step::fail;
          }
          if (now_ns() >= dl.end) return Step::fail;
          ++losses;
          lost = true;
          break;  // resend
        }
        if (got == static_cast<ssize_t>(n) && std::memcmp(rbuf.data(), cbuf.data(), seq_bytes) == 0)
          return lost ? Step::discard : Step::ok;
        // a stale reply to an earlier (resent) datagram: keep waiting
      }
    }
  };
  auto kick = [&] {
    ::shutdown(cli.get(), SHUT_RDWR);
    ::shutdown(srv.get(), SHUT_RDWR);
  };
  const PairOutcome po = run_pair(
      plan.b, plan.a, dl.end, stop, server, [&] { timed_loop(b, dl.end, stop, samples, 2.0, op); }, kick);
  if (losses > 0) add_note(r.status, std::to_string(losses) + " datagrams lost and resent (samples discarded)");
  r.one_way = finish_samples(r.status, samples, po, dl.end, cerr, serr, "");
  return r;
}

PingPongResult probe_shm_busy_poll(const ProbeOptions& o) {
  PingPongResult r;
  r.bytes = 8;
  const Deadline dl(o);
  const CpuPlan plan = plan_cpus(o);
  add_note(r.status, plan.note);
  const bool yield = !plan.cross;
  if (yield) add_note(r.status, "spinners yield (no second CPU)");

  struct alignas(64) Line {
    std::atomic<std::uint64_t> v{0};
  };
  struct Lines {
    Line ping, pong;
  };
  auto lines = std::make_unique<Lines>();
  const Budget b = o.quick ? Budget{2000, 20000, 50 * kMs} : Budget{20000, 200000, 500 * kMs};
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(b.iters));
  std::atomic<bool> stop{false};
  std::uint64_t seq = 0;

  auto server = [&] {
    std::uint64_t expect = 1;
    std::uint32_t spins = 0;
    while (true) {
      if (lines->ping.v.load(std::memory_order_acquire) == expect) {
        lines->pong.v.store(expect, std::memory_order_release);
        ++expect;
        continue;
      }
      if ((++spins & 1023) == 0 && stop.load(std::memory_order_relaxed)) return;
      if (yield) sched_yield();
    }
  };
  auto op = [&]() -> Step {
    ++seq;
    lines->ping.v.store(seq, std::memory_order_release);
    std::uint32_t spins = 0;
    while (lines->pong.v.load(std::memory_order_acquire) != seq) {
      if ((++spins & 1023) == 0 && (stop.load(std::memory_order_relaxed) || now_ns() >= dl.end)) return Step::fail;
      if (yield) sched_yield();
    }
    return Step::ok;
  };
  const PairOutcome po = run_pair(
      plan.b, plan.a, dl.end, stop, server, [&] { timed_loop(b, dl.end, stop, samples, 2.0, op); }, [] {});
  r.one_way = finish_samples(r.status, samples, po, dl.end, "", "", "");
  return r;
}

PinResult probe_pinning(const ProbeOptions& o) {
  PinResult r;
  const Deadline dl(o);
  const CpuPlan plan = plan_cpus(o);
  if (plan.a < 0) add_note(r.status, plan.note);
  ScopedPin pin(plan.a, r.status);

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
