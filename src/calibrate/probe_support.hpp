// Internal support for the calibration probes (probes_host.cpp, probes_net.cpp); not part of the
// public interface, which is calibrate/probes.hpp.
//
// What is here:
//   - time and deadlines: now_ns() (CLOCK_MONOTONIC, inline so timed loops pay no call), and
//     Deadline, fixed once at a probe's start from ProbeOptions::timeout;
//   - notes: add_note() joins notes with "; ", fail() also clears status.ok; err_note() formats
//     "what: strerror(errno)";
//   - CPU planning and pinning: plan_cpus() maps cpu_a / cpu_b onto the process's affinity mask,
//     pin_self() pins the calling thread, ScopedPin pins it for a scope and restores its mask,
//     PinnedProbe is the common prologue of the single-threaded probes;
//   - statistics: median(), least_squares();
//   - the two-thread harness of the ping-pong probes: Budget, run_pair(), timed_loop(),
//     finish_samples().
//
// Invariants: nothing here throws except run_pair() catching std::system_error itself (so a
// probe never throws); nothing blocks past the deadline it is given; a ScopedPin restores the
// caller's affinity mask on destruction when (and only when) it changed it; a CpuPlan side is
// -1 (unpinned) or a CPU in the affinity mask, and b == a unless `cross`.
#pragma once

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "calibrate/distribution.hpp"
#include "calibrate/probes.hpp"

namespace rdmasim::calibrate::detail {

using i64 = std::int64_t;
inline constexpr i64 kMs = 1'000'000;
inline constexpr std::size_t kMinSamples = 100;  // fewer samples than this: the probe failed

// ---------------------------------------------------------------------------------------------
// Time, deadlines, notes

inline i64 now_ns() {
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

std::string errstr(int e);
std::string err_note(const std::string& what, int e);  // "what: <strerror(e)>"

void add_note(ProbeStatus& s, const std::string& n);  // no-op for an empty note
void fail(ProbeStatus& s, const std::string& n);      // ok = false, plus the note

double median(std::vector<double> v);  // 0 for no values

// Least squares y = icept + slope * x over the pairs (x[i], y[i]); false (outputs untouched)
// with fewer than two points or all x equal.
bool least_squares(const std::vector<double>& x, const std::vector<double>& y, double& slope, double& icept);

// Keeps the compiler from dropping or merging memory operations on `p`.
inline void clobber(const void* p) { __asm__ __volatile__("" : : "r"(p) : "memory"); }

// ---------------------------------------------------------------------------------------------
// CPU affinity

// Pins the calling thread to `cpu` (no-op for cpu < 0). Returns "" or the reason it failed.
std::string pin_self(int cpu);

// Which CPUs the two sides use. -1 = run unpinned.
struct CpuPlan {
  int a = -1, b = -1;
  bool cross = false;  // a and b are distinct CPUs
  std::string note;
};

CpuPlan plan_cpus(const ProbeOptions& o);

// plan_cpus(o), with its note (if any) added to `st`.
CpuPlan plan_cpus_noted(const ProbeOptions& o, ProbeStatus& st);

// Pins the calling thread for the scope of a single-threaded probe, then restores its mask.
class ScopedPin {
 public:
  ScopedPin(int cpu, ProbeStatus& st);
  ~ScopedPin();
  ScopedPin(const ScopedPin&) = delete;
  ScopedPin& operator=(const ScopedPin&) = delete;

 private:
  cpu_set_t saved_{};
  bool restore_ = false;
};

// Prologue of the single-threaded probes: starts the deadline, plans the CPUs (noting the plan
// only when running unpinned), and pins the calling thread to cpu_a until destruction.
class PinnedProbe {
 public:
  PinnedProbe(const ProbeOptions& o, ProbeStatus& st);
  const Deadline dl;

 private:
  const CpuPlan plan_;
  ScopedPin pin_;
};

// ---------------------------------------------------------------------------------------------
// Iteration plans and the two-thread ping-pong harness

struct Budget {
  int warmup;     // iterations discarded first (also capped at budget_ns / 5)
  int iters;      // measured iterations at most
  i64 budget_ns;  // measuring time at most
};

Budget pingpong_budget(const ProbeOptions& o);

class Latch {
 public:
  void set();
  bool wait_until_ns(i64 deadline_ns);  // false when `deadline_ns` passed first

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

// The samples of one two-thread ping-pong run, and how the run ended.
struct PairRun {
  std::vector<double> samples;
  PairOutcome outcome;
};

// The ping-pong core of the two-thread probes: `server` runs on cpu_server, the client runs
// timed_loop(b, deadline_ns, stop, ..., divisor, op) on cpu_client, and the calling thread is
// the watchdog of run_pair() (`stop` / `kick` at the client's end or the deadline).
template <class Server, class Op, class Kick>
PairRun sample_pair(const Budget& b, int cpu_server, int cpu_client, i64 deadline_ns, std::atomic<bool>& stop,
                    double divisor, Server server, Op op, Kick kick) {
  PairRun run;
  run.samples.reserve(static_cast<std::size_t>(b.iters));
  run.outcome = run_pair(
      cpu_server, cpu_client, deadline_ns, stop, server,
      [&] { timed_loop(b, deadline_ns, stop, run.samples, divisor, op); }, kick);
  return run;
}

// Common verdict for a sampled probe: adds the pin notes and the errors (prefixed by "label: "
// when `label` is non-empty; server_err also by "server "), fails with fewer than kMinSamples
// samples or on a timeout before them, notes a timeout after them, and summarizes the samples.
Distribution finish_samples(ProbeStatus& st, PairRun& run, i64 deadline_ns, const std::string& client_err,
                            const std::string& server_err, const char* label);

}  // namespace rdmasim::calibrate::detail
