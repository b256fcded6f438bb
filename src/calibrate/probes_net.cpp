// Two-thread probes: pipe wake-ups, loopback TCP / UDP ping-pong, shared-memory busy polling.
// Method and invariants: calibrate/probes.hpp; helpers: calibrate/probe_support.hpp.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>

#include "calibrate/probe_support.hpp"
#include "calibrate/probes.hpp"

namespace rdmasim::calibrate {

using namespace detail;

namespace {

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

// Unblocks both ends' blocking send/recv (the watchdog's kick of the socket ping-pongs).
void shutdown_both(const Fd& a, const Fd& b) {
  ::shutdown(a.get(), SHUT_RDWR);
  ::shutdown(b.get(), SHUT_RDWR);
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
  PairRun run = sample_pair(b, cpu_server, cpu_client, deadline_ns, stop, 1.0, server, op, kick);
  return finish_samples(st, run, deadline_ns, cerr, serr, label);
}

}  // namespace

// =============================================================================================

WakeupResult probe_wakeup(const ProbeOptions& o) {
  WakeupResult r;
  const Deadline dl(o);
  const CpuPlan plan = plan_cpus_noted(o, r.status);
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
  const CpuPlan plan = plan_cpus_noted(o, r.status);

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
  auto kick = [&] { shutdown_both(cli, srv); };
  PairRun run = sample_pair(b, plan.b, plan.a, dl.end, stop, 2.0, server, op, kick);
  r.one_way = finish_samples(r.status, run, dl.end, cerr, serr, "");
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
  const CpuPlan plan = plan_cpus_noted(o, r.status);

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
  auto kick = [&] { shutdown_both(cli, srv); };
  PairRun run = sample_pair(b, plan.b, plan.a, dl.end, stop, 2.0, server, op, kick);
  if (losses > 0) add_note(r.status, std::to_string(losses) + " datagrams lost and resent (samples discarded)");
  r.one_way = finish_samples(r.status, run, dl.end, cerr, serr, "");
  return r;
}

PingPongResult probe_shm_busy_poll(const ProbeOptions& o) {
  PingPongResult r;
  r.bytes = 8;
  const Deadline dl(o);
  const CpuPlan plan = plan_cpus_noted(o, r.status);
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
  PairRun run = sample_pair(b, plan.b, plan.a, dl.end, stop, 2.0, server, op, [] {});
  r.one_way = finish_samples(r.status, run, dl.end, "", "", "");
  return r;
}

}  // namespace rdmasim::calibrate
