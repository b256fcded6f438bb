// Calibration probes: exact checks of summarize()/sockperf_lines(), then sanity and
// self-consistency of every probe in quick mode (no absolute numbers), fallbacks and timeouts.
// CalibrateReport.DISABLED_DefaultModeReport runs every probe in default mode and prints the
// measured values (run with --gtest_also_run_disabled_tests --gtest_filter=CalibrateReport.*).
#include "calibrate/distribution.hpp"
#include "calibrate/probes.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace rdmasim::calibrate;

namespace {

ProbeOptions quick() {
  ProbeOptions o;
  o.quick = true;
  return o;
}

void expect_well_formed(const Distribution& d, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_GT(d.count, 0);
  EXPECT_GT(d.min_ns, 0);
  EXPECT_LE(d.min_ns, d.p25_ns);
  EXPECT_LE(d.p25_ns, d.p50_ns);
  EXPECT_LE(d.p50_ns, d.p75_ns);
  EXPECT_LE(d.p75_ns, d.p90_ns);
  EXPECT_LE(d.p90_ns, d.p99_ns);
  EXPECT_LE(d.p99_ns, d.p999_ns);
  EXPECT_LE(d.p999_ns, d.p9999_ns);
  EXPECT_LE(d.p9999_ns, d.p99999_ns);
  EXPECT_LE(d.p99999_ns, d.max_ns);
  EXPECT_LE(d.min_ns, d.mean_ns);
  EXPECT_LE(d.mean_ns, d.max_ns);
  EXPECT_GE(d.stdev_ns, 0);
}

// Shared quick-mode TCP results (used by several tests; measured once).
const PingPongResult& tcp_quick(std::int64_t bytes) {
  static const PingPongResult r1 = probe_tcp_pingpong(quick(), 1);
  static const PingPongResult r64k = probe_tcp_pingpong(quick(), 64 * 1024);
  return bytes == 1 ? r1 : r64k;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

// ----------------------------------------------------------------------------------------------
// summarize / sockperf_lines

TEST(CalibrateDistribution, EmptyInput) {
  const Distribution d = summarize({});
  EXPECT_EQ(d.count, 0);
  EXPECT_EQ(d.max_ns, 0);
  EXPECT_EQ(d.mean_ns, 0);
}

TEST(CalibrateDistribution, FiveSamplesExact) {
  const Distribution d = summarize({5, 1, 4, 2, 3});
  EXPECT_EQ(d.count, 5);
  EXPECT_EQ(d.min_ns, 1);
  EXPECT_EQ(d.max_ns, 5);
  EXPECT_EQ(d.p25_ns, 1);   // (int)(0.5 + 1.25) - 1 = 0
  EXPECT_EQ(d.p50_ns, 3);   // (int)(0.5 + 2.5) - 1 = 2
  EXPECT_EQ(d.p75_ns, 4);   // (int)(0.5 + 3.75) - 1 = 3
  EXPECT_EQ(d.p90_ns, 5);   // (int)(0.5 + 4.5) - 1 = 4
  EXPECT_EQ(d.p99_ns, 5);
  EXPECT_EQ(d.p99999_ns, 5);
  EXPECT_DOUBLE_EQ(d.mean_ns, 3);
  EXPECT_NEAR(d.stdev_ns, std::sqrt(2.0), 1e-12);  // population: sqrt(10 / 5)
}

TEST(CalibrateDistribution, NearestRankOnHundredAndThousand) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);  // unsorted on purpose
  Distribution d = summarize(v);
  EXPECT_EQ(d.p25_ns, 25);   // (int)(25.5) - 1 = 24
  EXPECT_EQ(d.p50_ns, 50);
  EXPECT_EQ(d.p75_ns, 75);
  EXPECT_EQ(d.p90_ns, 90);
  EXPECT_EQ(d.p99_ns, 99);
  EXPECT_EQ(d.p999_ns, 100);  // (int)(0.5 + 99.9) - 1 = 99
  EXPECT_EQ(d.p9999_ns, 100);
  EXPECT_DOUBLE_EQ(d.mean_ns, 50.5);
  EXPECT_NEAR(d.stdev_ns, std::sqrt((100.0 * 100.0 - 1) / 12.0), 1e-9);

  v.clear();
  for (int i = 1; i <= 1000; ++i) v.push_back(i);
  d = summarize(v);
  EXPECT_EQ(d.p999_ns, 999);    // (int)(0.5 + 999) - 1 = 998
  EXPECT_EQ(d.p9999_ns, 1000);  // (int)(0.5 + 999.9) - 1 = 999
  EXPECT_EQ(d.p99_ns, 990);
  EXPECT_EQ(d.min_ns, 1);
  EXPECT_EQ(d.max_ns, 1000);
}

TEST(CalibrateDistribution, IndexIsClamped) {
  EXPECT_EQ(sockperf_percentile_index(1, 0.25), 0);  // (int)(0.75) - 1 = -1 -> 0
  EXPECT_EQ(sockperf_percentile_index(3, 0.10), 0);
  EXPECT_EQ(sockperf_percentile_index(10, 1.0), 9);
  EXPECT_EQ(sockperf_percentile_index(10, 2.0), 9);
  EXPECT_EQ(sockperf_percentile_index(0, 0.5), 0);
  const Distribution d = summarize({7});
  EXPECT_EQ(d.count, 1);
  EXPECT_EQ(d.p25_ns, 7);
  EXPECT_EQ(d.p99999_ns, 7);
  EXPECT_EQ(d.stdev_ns, 0);
}

TEST(CalibrateDistribution, SockperfLines) {
  const Distribution d = summarize({1000, 2000, 3000, 4000, 5000});
  const std::string s = sockperf_lines(d, "sockperf: ");
  std::istringstream in(s);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 11u);
  for (const std::string& l : lines) EXPECT_EQ(l.rfind("sockperf: ", 0), 0u) << l;
  EXPECT_EQ(lines[0], "sockperf: ====> avg-latency=3.000 (std-dev=1.414, observations=5)");
  EXPECT_EQ(lines[1], "sockperf: ---> <MAX> observation =    5.000");
  EXPECT_EQ(lines[2], "sockperf: ---> percentile 99.999 =    5.000");
  EXPECT_EQ(lines[3], "sockperf: ---> percentile 99.990 =    5.000");
  EXPECT_EQ(lines[5], "sockperf: ---> percentile 99.000 =    5.000");
  EXPECT_EQ(lines[8], "sockperf: ---> percentile 50.000 =    3.000");
  EXPECT_EQ(lines[9], "sockperf: ---> percentile 25.000 =    1.000");
  EXPECT_EQ(lines[10], "sockperf: ---> <MIN> observation =    1.000");
}

// ----------------------------------------------------------------------------------------------
// Probes, quick mode

TEST(CalibrateProbes, Clock) {
  const ClockResult r = probe_clock(quick());
  EXPECT_TRUE(r.status.ok) << r.status.note;
  EXPECT_GT(r.gettime_ns, 0);
  EXPECT_LT(r.gettime_ns, 100000);
  EXPECT_GT(r.resolution_ns, 0);
#if defined(__x86_64__) || defined(__i386__)
  EXPECT_GT(r.tsc_ghz, 0);
#endif
}

TEST(CalibrateProbes, CopyGrowsWithSize) {
  const CopyResult r = probe_copy(quick());
  ASSERT_TRUE(r.status.ok) << r.status.note;
  ASSERT_FALSE(r.points.empty());
  EXPECT_EQ(r.points.front().bytes, 64);
  EXPECT_EQ(r.points.back().bytes, 8 << 20);
  auto at = [&](std::int64_t b) {
    for (const CopyPoint& p : r.points)
      if (p.bytes == b) return p.ns;
    ADD_FAILURE() << "no point for " << b;
    return 0.0;
  };
  for (const CopyPoint& p : r.points) EXPECT_GT(p.ns, 0) << p.bytes;
  EXPECT_LE(at(64), at(1 << 20));
  EXPECT_LE(at(1 << 20), at(8 << 20));
  EXPECT_LE(at(64), at(64 << 10));
  EXPECT_GT(r.gbytes_per_s, 0);
  EXPECT_GE(r.fixed_ns, 0);
}

TEST(CalibrateProbes, Syscall) {
  const SyscallResult r = probe_syscall(quick());
  EXPECT_TRUE(r.status.ok) << r.status.note;
  EXPECT_GT(r.null_syscall_ns, 0);
}

TEST(CalibrateProbes, Wakeup) {
  const WakeupResult r = probe_wakeup(quick());
  EXPECT_TRUE(r.status.ok) << r.status.note;
  expect_well_formed(r.same_core_rtt, "same-core");
  if (std::thread::hardware_concurrency() > 1 && r.status.note.find("one CPU") == std::string::npos) {
    expect_well_formed(r.cross_core_rtt, "cross-core");
    EXPECT_DOUBLE_EQ(r.wakeup_ns, r.cross_core_rtt.p50_ns / 2);
  }
  EXPECT_GT(r.wakeup_ns, 0);
}

TEST(CalibrateProbes, TcpPingPong) {
  const PingPongResult& small = tcp_quick(1);
  const PingPongResult& big = tcp_quick(64 * 1024);
  ASSERT_TRUE(small.status.ok) << small.status.note;
  ASSERT_TRUE(big.status.ok) << big.status.note;
  EXPECT_EQ(small.bytes, 1);
  EXPECT_EQ(big.bytes, 64 * 1024);
  expect_well_formed(small.one_way, "tcp 1 B");
  expect_well_formed(big.one_way, "tcp 64 KiB");
}

// The size effect is compared same-core: cross-core, each RTT pays two cross-CPU wake-ups whose
// jitter (tens of us on a KVM guest) swamps the ~10 us that 64 KiB of copying adds.
TEST(CalibrateProbes, TcpLargerMessageTakesLonger) {
  ProbeOptions o = quick();
  o.cpu_b = o.cpu_a;
  const PingPongResult small = probe_tcp_pingpong(o, 1);
  // 1 MiB: its copies alone take several times a 1 B exchange, so host noise cannot reorder
  // the medians (64 KiB came within noise of 1 B on a busy 2-core host).
  const PingPongResult big = probe_tcp_pingpong(o, 1024 * 1024);
  ASSERT_TRUE(small.status.ok) << small.status.note;
  ASSERT_TRUE(big.status.ok) << big.status.note;
  expect_well_formed(small.one_way, "tcp same-core 1 B");
  expect_well_formed(big.one_way, "tcp same-core 1 MiB");
  EXPECT_GT(big.one_way.p50_ns, small.one_way.p50_ns);
}

TEST(CalibrateProbes, UdpPingPong) {
  const PingPongResult r = probe_udp_pingpong(quick(), 64);
  ASSERT_TRUE(r.status.ok) << r.status.note;
  EXPECT_EQ(r.bytes, 64);
  expect_well_formed(r.one_way, "udp 64 B");
  const PingPongResult big = probe_udp_pingpong(quick(), 65507);
  ASSERT_TRUE(big.status.ok) << big.status.note;
  expect_well_formed(big.one_way, "udp 65507 B");
}

TEST(CalibrateProbes, ShmBusyPollBeatsTcp) {
  const PingPongResult r = probe_shm_busy_poll(quick());
  ASSERT_TRUE(r.status.ok) << r.status.note;
  expect_well_formed(r.one_way, "shm");
  const PingPongResult& tcp = tcp_quick(1);
  ASSERT_TRUE(tcp.status.ok) << tcp.status.note;
  EXPECT_LT(r.one_way.p50_ns, tcp.one_way.p50_ns);
}

TEST(CalibrateProbes, Pinning) {
  const PinResult r = probe_pinning(quick());
  EXPECT_TRUE(r.status.ok) << r.status.note;
  EXPECT_GT(r.first_touch_ns_per_page, 0);
  EXPECT_GE(r.mlock_ns_per_page, 0);
  if (r.status.note.find("mlock") == std::string::npos) {
    EXPECT_GT(r.mlock_ns_per_page, 0);
  }
}

TEST(CalibrateProbes, MachineDescription) {
  const std::string s = machine_description();
  EXPECT_NE(s.find(" core"), std::string::npos) << s;
  EXPECT_NE(s.find(", kernel "), std::string::npos) << s;
}

TEST(CalibrateProbes, BadSizesFailCleanly) {
  EXPECT_FALSE(probe_tcp_pingpong(quick(), 0).status.ok);
  const PingPongResult u = probe_udp_pingpong(quick(), 70000);
  EXPECT_FALSE(u.status.ok);
  EXPECT_FALSE(u.status.note.empty());
}

// ----------------------------------------------------------------------------------------------
// Fallbacks

TEST(CalibrateFallback, CallerAffinityIsRestored) {
  cpu_set_t before, after;
  CPU_ZERO(&before);
  CPU_ZERO(&after);
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof before, &before), 0);
  (void)probe_syscall(quick());
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof after, &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
}

TEST(CalibrateFallback, UnavailableCpusAreReplaced) {
  ProbeOptions o = quick();
  o.cpu_a = 4000;
  o.cpu_b = 4001;
  const PingPongResult r = probe_tcp_pingpong(o, 64);
  EXPECT_TRUE(r.status.ok) << r.status.note;
  EXPECT_NE(r.status.note.find("not allowed"), std::string::npos) << r.status.note;
  expect_well_formed(r.one_way, "tcp on replaced cpus");
}

TEST(CalibrateFallback, SameCpuRequestedRunsSameCore) {
  ProbeOptions o = quick();
  o.cpu_b = o.cpu_a;
  const WakeupResult w = probe_wakeup(o);
  EXPECT_TRUE(w.status.ok) << w.status.note;
  EXPECT_NE(w.status.note.find("same-core"), std::string::npos) << w.status.note;
  EXPECT_EQ(w.cross_core_rtt.count, 0);
  expect_well_formed(w.same_core_rtt, "same-core");
  const PingPongResult t = probe_tcp_pingpong(o, 64);
  EXPECT_TRUE(t.status.ok) << t.status.note;
  expect_well_formed(t.one_way, "tcp same-core");
}

// Runs the probes from a thread restricted to one CPU: they see a one-CPU machine.
TEST(CalibrateFallback, OneCpuRunsSameCore) {
  WakeupResult w;
  PingPongResult shm, tcp;
  bool pinned = false;
  std::thread t([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    pinned = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
    if (!pinned) return;
    w = probe_wakeup(quick());
    shm = probe_shm_busy_poll(quick());
    tcp = probe_tcp_pingpong(quick(), 1);
  });
  t.join();
  if (!pinned) GTEST_SKIP() << "cannot restrict affinity here";
  EXPECT_TRUE(w.status.ok) << w.status.note;
  EXPECT_NE(w.status.note.find("one CPU"), std::string::npos) << w.status.note;
  EXPECT_EQ(w.cross_core_rtt.count, 0);
  EXPECT_DOUBLE_EQ(w.wakeup_ns, w.same_core_rtt.p50_ns / 2);
  EXPECT_TRUE(shm.status.ok) << shm.status.note;
  EXPECT_NE(shm.status.note.find("one CPU"), std::string::npos) << shm.status.note;
  expect_well_formed(shm.one_way, "shm one cpu");
  EXPECT_TRUE(tcp.status.ok) << tcp.status.note;
  expect_well_formed(tcp.one_way, "tcp one cpu");
}

// ----------------------------------------------------------------------------------------------
// Timeouts: default-mode probes with a 50 ms budget return promptly; 0 ms fails cleanly.

TEST(CalibrateTimeout, TinyTimeoutReturnsPromptly) {
  ProbeOptions o;  // default mode: would run for ~1 s per probe without the timeout
  o.timeout = std::chrono::milliseconds(50);
  struct Case {
    const char* name;
    std::function<ProbeStatus()> run;
  };
  const std::vector<Case> cases = {
      {"clock", [&] { return probe_clock(o).status; }},
      {"copy", [&] { return probe_copy(o).status; }},
      {"syscall", [&] { return probe_syscall(o).status; }},
      {"wakeup", [&] { return probe_wakeup(o).status; }},
      {"tcp 64 KiB", [&] { return probe_tcp_pingpong(o, 64 * 1024).status; }},
      {"udp 1 KiB", [&] { return probe_udp_pingpong(o, 1024).status; }},
      {"shm", [&] { return probe_shm_busy_poll(o).status; }},
      {"pinning", [&] { return probe_pinning(o).status; }},
  };
  for (const Case& c : cases) {
    const auto t0 = std::chrono::steady_clock::now();
    const ProbeStatus st = c.run();
    const double s = seconds_since(t0);
    EXPECT_LT(s, 1.0) << c.name << " took " << s << " s; note: " << st.note;
    if (!st.ok) {
      EXPECT_FALSE(st.note.empty()) << c.name;
    }
  }
}

TEST(CalibrateTimeout, ZeroTimeoutFailsCleanly) {
  ProbeOptions o = quick();
  o.timeout = std::chrono::milliseconds(0);
  const auto t0 = std::chrono::steady_clock::now();
  const PingPongResult t = probe_tcp_pingpong(o, 1);
  const PingPongResult s = probe_shm_busy_poll(o);
  const WakeupResult w = probe_wakeup(o);
  const CopyResult c = probe_copy(o);
  EXPECT_LT(seconds_since(t0), 1.0);
  EXPECT_FALSE(t.status.ok);
  EXPECT_FALSE(s.status.ok);
  EXPECT_FALSE(w.status.ok);
  EXPECT_FALSE(c.status.ok);
  EXPECT_NE(t.status.note.find("timeout"), std::string::npos) << t.status.note;
}

// ----------------------------------------------------------------------------------------------
// Report of real numbers (default mode); disabled in normal runs.

TEST(CalibrateReport, DISABLED_DefaultModeReport) {
  const ProbeOptions o;
  auto note = [](const ProbeStatus& s) {
    return std::string(s.ok ? "ok" : "FAILED") + (s.note.empty() ? "" : " (" + s.note + ")");
  };
  auto timed = [](auto f) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = f();
    std::printf("    [%.2f s]\n", seconds_since(t0));
    return r;
  };
  std::printf("machine: %s\n", machine_description().c_str());
  const ClockResult c = timed([&] { return probe_clock(o); });
  std::printf("clock: %s gettime %.1f ns, resolution %.0f ns, tsc usable %d, %.4f GHz\n", note(c.status).c_str(),
              c.gettime_ns, c.resolution_ns, c.tsc_usable, c.tsc_ghz);
  const CopyResult cp = timed([&] { return probe_copy(o); });
  std::printf("copy: %s fixed %.1f ns, %.2f GB/s\n", note(cp.status).c_str(), cp.fixed_ns, cp.gbytes_per_s);
  for (const CopyPoint& p : cp.points) std::printf("    %10lld B  %12.1f ns\n", static_cast<long long>(p.bytes), p.ns);
  const SyscallResult sc = timed([&] { return probe_syscall(o); });
  std::printf("syscall: %s null %.1f ns\n", note(sc.status).c_str(), sc.null_syscall_ns);
  const WakeupResult w = timed([&] { return probe_wakeup(o); });
  std::printf("wakeup: %s wakeup_ns %.0f\n  same-core RTT p50 %.0f p99 %.0f (n=%lld)\n  cross-core RTT p50 %.0f p99 %.0f (n=%lld)\n",
              note(w.status).c_str(), w.wakeup_ns, w.same_core_rtt.p50_ns, w.same_core_rtt.p99_ns,
              static_cast<long long>(w.same_core_rtt.count), w.cross_core_rtt.p50_ns, w.cross_core_rtt.p99_ns,
              static_cast<long long>(w.cross_core_rtt.count));
  auto pp = [&](const char* what, const PingPongResult& r) {
    std::printf("%s %lld B: %s one-way p50 %.0f ns p99 %.0f ns min %.0f mean %.0f stdev %.0f (n=%lld)\n", what,
                static_cast<long long>(r.bytes), note(r.status).c_str(), r.one_way.p50_ns, r.one_way.p99_ns,
                r.one_way.min_ns, r.one_way.mean_ns, r.one_way.stdev_ns, static_cast<long long>(r.one_way.count));
  };
  for (std::int64_t b : {1, 64, 1024, 4096, 16384, 65536}) pp("tcp", timed([&] { return probe_tcp_pingpong(o, b); }));
  for (std::int64_t b : {1, 64, 1024, 65507}) pp("udp", timed([&] { return probe_udp_pingpong(o, b); }));
  ProbeOptions same = o;
  same.cpu_b = same.cpu_a;
  for (std::int64_t b : {1, 65536}) pp("tcp same-core", timed([&] { return probe_tcp_pingpong(same, b); }));
  const PingPongResult shm = timed([&] { return probe_shm_busy_poll(o); });
  pp("shm", shm);
  std::printf("%s", sockperf_lines(shm.one_way, "shm: ").c_str());
  const PinResult pin = timed([&] { return probe_pinning(o); });
  std::printf("pinning: %s first touch %.1f ns/page, mlock %.1f ns/page\n", note(pin.status).c_str(),
              pin.first_touch_ns_per_page, pin.mlock_ns_per_page);
}
