// Calibration probes: microbenchmarks of the real host's software costs (clock reads, memcpy,
// syscalls, thread wake-ups, loopback TCP/UDP ping-pong, shared-memory busy polling, page
// faults and mlock), used to fit the simulator's host model. Loopback (127.0.0.1) only.
//
// Method (every probe): pin the measuring thread(s) (restoring the caller's affinity after),
// warm up and discard, then time with CLOCK_MONOTONIC — per iteration for ping-pongs, per
// batch for sub-microsecond operations — and report medians / Distributions.
//
// Invariants: a probe never throws and never runs past options.timeout (measured from its
// start): sockets carry SO_RCVTIMEO/SO_SNDTIMEO, and the calling thread acts as a watchdog that,
// at the deadline, sets a stop flag and unblocks the worker threads (shutdown() on sockets, a
// byte into pipes) before joining them. A probe cut short keeps status.ok == true when it
// still collected enough samples (>= 100 for distributions) and says so in status.note;
// otherwise ok == false with the reason ("socket: Address already in use", "timeout after 3
// samples"). If pinning fails or only one CPU is available, the probe runs unpinned or
// same-core and says so in the note. Iteration counts are capped both by count and by a soft
// time budget (exceeded, up to the timeout, only to reach 100 samples on a loaded machine):
// default mode takes about 1 s per probe (whole set with six TCP sizes ~15 s on a 2-vCPU
// guest), quick mode (CI) ~0.01-0.25 s per probe.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "calibrate/distribution.hpp"

namespace rdmasim::calibrate {

struct ProbeOptions {
  bool quick = false;                        // CI mode: each probe a fraction of a second
  std::chrono::milliseconds timeout{5000};   // per probe; a probe never runs past it
  int cpu_a = 0, cpu_b = 1;                  // cores for the two sides of ping-pongs
  // A CPU not in the process's affinity mask is replaced by an allowed one (noted); cpu_a ==
  // cpu_b runs both sides on one core (noted; cross-core parts are skipped). Single-threaded
  // probes run on cpu_a.
};

// note explains a fallback or a failure ("one CPU: same-core only", "affinity denied: ...");
// several notes are joined with "; ".
struct ProbeStatus {
  bool ok = true;
  std::string note;
};

// gettime_ns: cost of one clock_gettime(CLOCK_MONOTONIC) (median of batches of 1000 calls).
// resolution_ns: effective resolution, the smallest non-zero step seen between back-to-back
// reads (so >= clock_getres and >= about one read's cost). tsc_usable: x86 only — CPU flags
// constant_tsc and nonstop_tsc, and two rdtsc-vs-CLOCK_MONOTONIC calibrations agreeing within
// 1%; tsc_ghz is their mean (reported even when not usable, 0 off x86).
struct ClockResult {
  ProbeStatus status;
  double gettime_ns = 0;
  double resolution_ns = 0;
  bool tsc_usable = false;
  double tsc_ghz = 0;
};

// Median time of one memcpy of `bytes` between two distinct 64-byte-aligned, pre-faulted
// buffers (small sizes timed in batches, so cache-hot; sizes >= 4 MiB exceed L2 and, from
// 64 MiB, any L3: the nominal DRAM regime).
struct CopyPoint {
  std::int64_t bytes = 0;
  double ns = 0;
};
// Model ns(bytes) = fixed_ns + bytes / bandwidth, fitted in two parts:
//   gbytes_per_s: 1 / slope of the least-squares line through the points with bytes >= 4 MiB
//                 (bytes per ns == GB/s, decimal);
//   fixed_ns:     intercept of the least-squares line through the points with bytes <= 1 KiB
//                 (64 B .. 1 KiB: the per-call cost, L1-resident, before glibc switches
//                 strategy for larger copies), clamped to >= 0.
// Sizes are the powers of two from 64 B to 64 MiB (quick mode: to 8 MiB).
struct CopyResult {
  ProbeStatus status;
  std::vector<CopyPoint> points;
  double fixed_ns = 0;
  double gbytes_per_s = 0;
};

// Cost of syscall(SYS_getppid), a syscall doing no work: median of batches of 1000 calls.
struct SyscallResult {
  ProbeStatus status;
  double null_syscall_ns = 0;
};

// Pipe ping-pong between two threads (1-byte write, blocking read on each side), RTT samples:
// both threads on cpu_a (same_core_rtt) and on cpu_a / cpu_b (cross_core_rtt, empty with a note
// when only one CPU is available). wakeup_ns = p50 RTT / 2 of the cross-core distribution (or of
// the same-core one as a fallback); it still contains the pipe syscalls (not subtracted).
struct WakeupResult {
  ProbeStatus status;
  Distribution same_core_rtt;
  Distribution cross_core_rtt;
  double wakeup_ns = 0;
};

// One-way latency samples (each = one RTT / 2) of a `bytes`-byte message echoed back.
struct PingPongResult {
  ProbeStatus status;
  std::int64_t bytes = 0;
  Distribution one_way;
};

// first_touch_ns_per_page: time to write one byte into each of N fresh 4 KiB pages of an
// anonymous private mmap with transparent huge pages disabled (MADV_NOHUGEPAGE), i.e. a page
// fault that allocates and zeroes a page; median over repetitions. mlock_ns_per_page: mlock()
// of those already-faulted pages (the pinning part of memory registration); if mlock fails
// (RLIMIT_MEMLOCK) it is retried on a region within the limit, and if that fails too the value
// is 0 and the note says why (status.ok stays true: first touch was measured).
struct PinResult {
  ProbeStatus status;
  double first_touch_ns_per_page = 0;
  double mlock_ns_per_page = 0;
};

ClockResult probe_clock(const ProbeOptions&);
CopyResult probe_copy(const ProbeOptions&);
SyscallResult probe_syscall(const ProbeOptions&);
WakeupResult probe_wakeup(const ProbeOptions&);
// TCP over 127.0.0.1 (ephemeral port, TCP_NODELAY, blocking sockets): the server thread on
// cpu_b echoes `bytes` (1 B .. 64 KiB and more) back to the client thread on cpu_a.
PingPongResult probe_tcp_pingpong(const ProbeOptions&, std::int64_t bytes);
// UDP over 127.0.0.1, two connected sockets; bytes in [1, 65507]. A datagram not answered
// within 100 ms counts as lost and is resent (sequence number in the first bytes); losses are
// reported in the note.
PingPongResult probe_udp_pingpong(const ProbeOptions&, std::int64_t bytes);
// The kernel-bypass analogue: two threads pinned to cpu_a / cpu_b spin on two std::atomic
// 64-bit words on separate cache lines (bytes = 8). Each sample includes one clock read. With
// one CPU the spinners sched_yield() (noted).
PingPongResult probe_shm_busy_poll(const ProbeOptions&);
PinResult probe_pinning(const ProbeOptions&);

/// "CPU model (from /proc/cpuinfo), N cores, kernel <uname -r>", e.g.
/// "AMD EPYC, 2 cores, kernel 6.1.0-18-amd64"; N is the number of online CPUs.
std::string machine_description();

}  // namespace rdmasim::calibrate
