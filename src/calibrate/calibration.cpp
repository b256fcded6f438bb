#include "calibrate/calibration.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "rdmasim/latency.hpp"

namespace rdmasim::calibrate {
namespace {

Time ps_of(double ns) { return Time::ps(std::llround(std::max(0.0, ns) * 1000.0)); }

std::string fmt(const char* f, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

void require(const ProbeStatus& s, const char* what) {
  if (!s.ok) throw std::runtime_error(std::string(what) + " probe failed: " + s.note);
}

}  // namespace

CalibrationReport run_probes(const CalibrationOptions& o, const Progress& progress) {
  ProbeOptions p = o.probe;
  if (o.same_core) p.cpu_b = p.cpu_a;
  CalibrationReport r;
  r.machine = machine_description();
  r.placement = o.same_core ? "both ends on cpu " + std::to_string(p.cpu_a)
                            : "cpus " + std::to_string(p.cpu_a) + " and " + std::to_string(p.cpu_b);
  const int total = 7 + static_cast<int>(o.tcp_sizes.size());
  int done = 0;
  auto step = [&](const std::string& name) {
    if (progress) progress(name, done, total);
    ++done;
  };
  step("clock");
  r.clock = probe_clock(p);
  step("memcpy");
  r.copy = probe_copy(p);
  step("syscall");
  r.syscall = probe_syscall(p);
  step("wake-up");
  r.wakeup = probe_wakeup(p);
  for (std::int64_t b : o.tcp_sizes) {
    step("tcp " + std::to_string(b) + " B");
    r.tcp.push_back(probe_tcp_pingpong(p, b));
  }
  step("udp");
  r.udp = probe_udp_pingpong(p, 64);
  step("busy-poll");
  r.shm = probe_shm_busy_poll(o.probe);  // always two cores when there are two
  step("pinning");
  r.pin = probe_pinning(p);
  if (progress) progress("done", total, total);
  return r;
}

FitResult fit_host_profile(const CalibrationReport& r) {
  require(r.syscall.status, "syscall");
  require(r.copy.status, "memcpy");
  require(r.wakeup.status, "wake-up");
  if (r.tcp.empty()) throw std::runtime_error("no TCP loopback measurement to fit");
  require(r.tcp.front().status, "TCP loopback");
  FitResult f;
  const Profile def = make_profile("default");
  const Time syscall = ps_of(r.syscall.null_syscall_ns);
  const Time copy_fixed = ps_of(r.copy.fixed_ns);
  // Per-byte cost as the kernel path sees it: the least-squares slope of TCP p50 over size,
  // across the sizes that fit one loopback segment (two copies per message; a ping-pong's
  // buffers are cache-hot, so this is faster than the DRAM memcpy figure).
  Rate copy_bw = Rate::bytes_per_sec(std::llround(r.copy.gbytes_per_s * 1e9));
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, max_x = 0;
  for (const PingPongResult& t : r.tcp) {
    if (!t.status.ok || t.bytes > def.tcp.loopback_mss.count()) continue;
    const double x = static_cast<double>(t.bytes), y = t.one_way.p50_ns;
    n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
    max_x = std::max(max_x, x);
  }
  const int copies = def.host.tx_copies + def.host.rx_copies;
  const double var = n * sxx - sx * sx;
  const double slope = n >= 2 && var > 0 ? (n * sxy - sx * sy) / var : 0.0;  // ns per byte
  if (slope > 0 && max_x >= 16384) {
    copy_bw = Rate::bytes_per_sec(std::llround(1e9 * copies / slope));
    f.notes.push_back(fmt("copy bandwidth %.2f GB/s per copy from the TCP p50 slope up to %.0f B (memcpy probe: %.2f GB/s)",
                          static_cast<double>(copy_bw.bits_per_sec()) / 8e9, max_x, r.copy.gbytes_per_s));
  } else {
    f.notes.push_back("no usable TCP size slope (need single-segment sizes up to >= 16 KiB): copy bandwidth from the memcpy probe");
  }
  if (copy_bw.bits_per_sec() <= 0) throw std::runtime_error("memcpy probe gave no bandwidth");
  // Pipe RTT/2 = write() + wake-up of the reader + read() return.
  const Distribution& pipe = r.wakeup.cross_core_rtt.count > 0 && r.placement.rfind("cpus", 0) == 0
                                 ? r.wakeup.cross_core_rtt
                                 : r.wakeup.same_core_rtt;
  Time wakeup = ps_of(pipe.p50_ns / 2.0) - syscall * 2;
  if (wakeup < Time::zero()) {
    f.notes.push_back("pipe ping-pong faster than two syscalls: wake-up set to 0");
    wakeup = Time::zero();
  }
  const std::int64_t first_bytes = r.tcp.front().bytes;
  const Time copy1 = copy_fixed + serialization_time(Bytes(first_bytes), copy_bw);
  const Time measured = ps_of(r.tcp.front().one_way.p50_ns);
  Time kernel = measured - syscall * 2 - copy1 * 2 - wakeup;
  if (kernel < Time::zero()) {
    f.notes.push_back("TCP loopback p50 below its known parts: kernel stack costs set to 0");
    kernel = Time::zero();
  }
  // Split the kernel total in the default profile's proportions; the last part takes the rest
  // so the four add up exactly.
  const KernelParams& k = def.kernel;
  const Time parts[] = {k.tx_stack, k.tx_per_packet, k.rx_per_packet, k.rx_stack};
  const char* keys[] = {"kernel.tx_stack", "kernel.tx_per_packet", "kernel.rx_per_packet", "kernel.rx_stack"};
  std::int64_t sum_default = 0;
  for (Time t : parts) sum_default += t.count_ps();
  Time assigned{};
  f.parameters.emplace_back("kernel.syscall", format_time(syscall));
  f.parameters.emplace_back("kernel.wakeup", format_time(wakeup));
  f.parameters.emplace_back("mem.copy_fixed", format_time(copy_fixed));
  f.parameters.emplace_back("mem.copy_bw", format_rate(copy_bw));
  for (int i = 0; i < 4; ++i) {
    Time v = i < 3 ? Time::ps(static_cast<std::int64_t>(static_cast<i128>(kernel.count_ps()) *
                                                        parts[i].count_ps() / sum_default))
                   : kernel - assigned;
    assigned += v;
    f.parameters.emplace_back(keys[i], format_time(v));
  }
  f.notes.push_back("kernel stack split over tx/rx in the default profile's proportions (16:4:6:18)");
  return f;
}

HostProfileDoc host_profile_doc(const CalibrationReport& r, const FitResult& f) {
  HostProfileDoc d;
  d.machine = r.machine + "; ping-pong " + r.placement;
  d.generated_by = "rdmasim calibrate";
  d.parameters = f.parameters;
  auto m = [&](const std::string& k, double v) { d.measurements.emplace_back(k, v); };
  m("clock_gettime_ns", r.clock.gettime_ns);
  m("null_syscall_ns", r.syscall.null_syscall_ns);
  m("memcpy_fixed_ns", r.copy.fixed_ns);
  m("memcpy_gbytes_per_s", r.copy.gbytes_per_s);
  for (const CopyPoint& c : r.copy.points) m("memcpy_" + std::to_string(c.bytes) + "B_ns", c.ns);
  m("pipe_rtt_same_core_p50_ns", r.wakeup.same_core_rtt.p50_ns);
  m("pipe_rtt_cross_core_p50_ns", r.wakeup.cross_core_rtt.p50_ns);
  for (const PingPongResult& t : r.tcp) {
    m("tcp_" + std::to_string(t.bytes) + "B_one_way_p50_ns", t.one_way.p50_ns);
    m("tcp_" + std::to_string(t.bytes) + "B_one_way_p99_ns", t.one_way.p99_ns);
  }
  m("udp_64B_one_way_p50_ns", r.udp.one_way.p50_ns);
  m("shm_busy_poll_one_way_p50_ns", r.shm.one_way.p50_ns);
  m("first_touch_ns_per_page", r.pin.first_touch_ns_per_page);
  m("mlock_ns_per_page", r.pin.mlock_ns_per_page);
  return d;
}

std::vector<CheckRow> check_model(const CalibrationReport& r, const Profile& fitted) {
  std::vector<CheckRow> rows;
  for (const PingPongResult& t : r.tcp) {
    if (!t.status.ok) continue;
    LatConfig c;
    c.transport = Transport::tcp;
    c.test = TestKind::send;
    c.topology = LatTopology::loopback;
    c.profile = fitted;
    c.size = Bytes(t.bytes);
    c.iters = 100;
    const LatResult lat = run_latency(c);
    rows.push_back({t.bytes, t.one_way.p50_ns, t.one_way.p99_ns, lat.stats.typical_ps / 1e3, lat.stats.p99_ps / 1e3});
  }
  return rows;
}

std::string report_text(const CalibrationReport& r) {
  std::string s = "rdmasim calibrate: " + r.machine + "\nping-pong placement: " + r.placement + "\n\n";
  auto status = [&](const char* what, const ProbeStatus& st) {
    if (!st.note.empty()) s += std::string("  note (") + what + "): " + st.note + "\n";
    if (!st.ok) s += std::string("  ") + what + ": FAILED\n";
  };
  s += fmt("clock_gettime      %8.1f ns/call, resolution %.1f ns\n", r.clock.gettime_ns, r.clock.resolution_ns);
  status("clock", r.clock.status);
  s += fmt("null syscall       %8.1f ns\n", r.syscall.null_syscall_ns);
  status("syscall", r.syscall.status);
  s += fmt("memcpy             %8.1f ns fixed + %.2f GB/s\n", r.copy.fixed_ns, r.copy.gbytes_per_s);
  for (const CopyPoint& c : r.copy.points)
    s += fmt("  %10.0f B   %12.1f ns\n", static_cast<double>(c.bytes), c.ns);
  status("memcpy", r.copy.status);
  s += fmt("pipe ping-pong RTT p50 %8.2f us same core, %8.2f us across cores\n", r.wakeup.same_core_rtt.p50_ns / 1e3,
           r.wakeup.cross_core_rtt.p50_ns / 1e3);
  status("wake-up", r.wakeup.status);
  s += fmt("page first touch   %8.1f ns/page, mlock %.1f ns/page\n", r.pin.first_touch_ns_per_page,
           r.pin.mlock_ns_per_page);
  status("pinning", r.pin.status);
  for (const PingPongResult& t : r.tcp) {
    s += "\nTCP loopback ping-pong, " + std::to_string(t.bytes) + " B, one-way (RTT/2):\n";
    s += sockperf_lines(t.one_way, "  ");
    status("tcp", t.status);
  }
  s += "\nUDP loopback ping-pong, 64 B, one-way:\n" + sockperf_lines(r.udp.one_way, "  ");
  status("udp", r.udp.status);
  s += "\nShared-memory busy-poll ping-pong (the kernel-bypass analogue), one-way:\n" +
       sockperf_lines(r.shm.one_way, "  ");
  status("busy-poll", r.shm.status);
  return s;
}

Profile fitted_profile(const FitResult& f) {
  Profile p = make_profile("default");
  for (const auto& [k, v] : f.parameters) apply_override(p, k + "=" + v);
  return p;
}

std::string fit_text(const FitResult& f) {
  std::string s = "\nFitted host profile:\n";
  char buf[256];
  for (const auto& [k, v] : f.parameters) {
    std::snprintf(buf, sizeof buf, "  %-22s = %s\n", k.c_str(), v.c_str());
    s += buf;
  }
  for (const std::string& n : f.notes) s += "  note: " + n + "\n";
  return s;
}

std::string check_text(const std::vector<CheckRow>& rows) {
  std::string s =
      "\nMeasured TCP loopback vs the model (rdmasim lat --transport tcp --topology loopback, fitted profile)\n";
  s += " #bytes   measured p50   model p50   error    measured p99   model p99\n";
  for (const CheckRow& r : rows) {
    char buf[256];
    std::snprintf(buf, sizeof buf, " %-8lld %10.3f us %9.3f us %6.1f%% %12.3f us %9.3f us\n",
                  static_cast<long long>(r.bytes), r.measured_p50_ns / 1e3, r.model_p50_ns / 1e3,
                  100.0 * (r.model_p50_ns - r.measured_p50_ns) / r.measured_p50_ns, r.measured_p99_ns / 1e3,
                  r.model_p99_ns / 1e3);
    s += buf;
  }
  s += " (the model has no jitter configured, so its p99 equals its p50: the tail is what it does not explain)\n";
  return s;
}

}  // namespace rdmasim::calibrate
