#include "calibrate/probe_support.hpp"

#include <pthread.h>

#include <chrono>
#include <cstring>
#include <utility>

namespace rdmasim::calibrate::detail {
namespace {

// strerror_r comes in an XSI (int) and a GNU (char*) flavour; accept either.
[[maybe_unused]] const char* strerror_pick(int, const char* buf) { return buf; }
[[maybe_unused]] const char* strerror_pick(const char* r, const char*) { return r; }

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

// The CPU a PinnedProbe pins to, noting the plan in `st` when it runs unpinned.
int pinned_cpu(const CpuPlan& plan, ProbeStatus& st) {
  if (plan.a < 0) add_note(st, plan.note);
  return plan.a;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Notes and statistics

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

bool least_squares(const std::vector<double>& x, const std::vector<double>& y, double& slope, double& icept) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int m = 0;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i], ++m;
  }
  if (m < 2) return false;
  const double den = m * sxx - sx * sx;
  if (den == 0) return false;
  slope = (m * sxy - sx * sy) / den;
  icept = (sy - slope * sx) / m;
  return true;
}

// ---------------------------------------------------------------------------------------------
// CPU affinity

std::string pin_self(int cpu) {
  if (cpu < 0) return "";
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  const int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  return rc == 0 ? "" : "affinity denied (cpu " + std::to_string(cpu) + "): " + errstr(rc);
}

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

CpuPlan plan_cpus_noted(const ProbeOptions& o, ProbeStatus& st) {
  CpuPlan p = plan_cpus(o);
  add_note(st, p.note);
  return p;
}

ScopedPin::ScopedPin(int cpu, ProbeStatus& st) {
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

ScopedPin::~ScopedPin() {
  if (restore_) pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_);
}

PinnedProbe::PinnedProbe(const ProbeOptions& o, ProbeStatus& st)
    : dl(o), plan_(plan_cpus(o)), pin_(pinned_cpu(plan_, st), st) {}

// ---------------------------------------------------------------------------------------------
// The two-thread harness

Budget pingpong_budget(const ProbeOptions& o) {
  return o.quick ? Budget{200, 3000, 100 * kMs} : Budget{2000, 20000, 1000 * kMs};
}

void Latch::set() {
  {
    std::lock_guard<std::mutex> lk(m_);
    done_ = true;
  }
  cv_.notify_all();
}

bool Latch::wait_until_ns(i64 deadline_ns) {
  std::unique_lock<std::mutex> lk(m_);
  while (!done_) {
    const i64 left = deadline_ns - now_ns();
    if (left <= 0) return false;
    cv_.wait_for(lk, std::chrono::nanoseconds(left));
  }
  return true;
}

Distribution finish_samples(ProbeStatus& st, PairRun& run, i64 deadline_ns, const std::string& client_err,
                            const std::string& server_err, const char* label) {
  const PairOutcome& po = run.outcome;
  std::vector<double>& samples = run.samples;
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

}  // namespace rdmasim::calibrate::detail
