#include "web/connection_gate.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>

#include "web/request_head.hpp"

namespace rdmasim::web {
namespace {

void close_socket(int fd) {
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
}

// Best effort: the answers are small and the socket's send buffer is empty when they go.
void send_all(int fd, const std::string& s) {
  std::size_t at = 0;
  while (at < s.size()) {
    const ssize_t n = ::send(fd, s.data() + at, s.size() - at, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n <= 0) return;
    at += static_cast<std::size_t>(n);
  }
}

}  // namespace

ConnectionGate::ConnectionGate(Options o, Ready ready) : o_(std::move(o)), ready_(std::move(ready)) {
  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epoll_fd_ < 0 || wake_fd_ < 0) throw std::runtime_error("connection gate: cannot create epoll/eventfd");
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = wake_fd_;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
  thread_ = std::thread([this] { loop(); });
}

ConnectionGate::~ConnectionGate() {
  stop();
  ::close(wake_fd_);
  ::close(epoll_fd_);
}

void ConnectionGate::admit(int fd) {
  if (held_.load() >= o_.max_connections) {
    send_all(fd, error_response(503, "limits.connections",
                                std::to_string(o_.max_connections) + " connections are open (the limit)", o_.extra_headers));
    close_socket(fd);
    return;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  int yes = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  post({fd, {}, true});
}

void ConnectionGate::resume(int fd, std::string leftover) { post({fd, std::move(leftover), false}); }

void ConnectionGate::post(Incoming in) {
  std::lock_guard<std::mutex> g(m_);
  if (stopped_) return close_socket(in.fd);
  ++held_;
  inbox_.push_back(std::move(in));
  wake();
}

void ConnectionGate::wake() {
  const std::uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof one);
}

void ConnectionGate::stop() {
  {
    std::lock_guard<std::mutex> g(m_);
    if (stopped_) return;
    stopped_ = true;
    wake();
  }
  if (thread_.joinable()) thread_.join();
  for (auto& [fd, c] : conns_) close_socket(fd);
  for (const Incoming& in : inbox_) close_socket(in.fd);
  conns_.clear();
  inbox_.clear();
  held_ = 0;
}

void ConnectionGate::loop() {
  std::vector<epoll_event> events(64);
  for (;;) {
    const int n = ::epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), wait_ms(Clock::now()));
    {
      std::lock_guard<std::mutex> g(m_);
      if (stopped_) return;
    }
    for (int i = 0; i < n; ++i) {
      const int fd = events[static_cast<std::size_t>(i)].data.fd;
      if (fd == wake_fd_) {
        std::uint64_t v;
        (void)!::read(wake_fd_, &v, sizeof v);
        take_inbox();
      } else if (conns_.count(fd)) {
        read_from(fd);
      }
    }
    expire(Clock::now());
  }
}

void ConnectionGate::take_inbox() {
  std::vector<Incoming> in;
  {
    std::lock_guard<std::mutex> g(m_);
    in.swap(inbox_);
  }
  for (Incoming& x : in) hold(x.fd, std::move(x.bytes), x.fresh);
}

void ConnectionGate::hold(int fd, std::string bytes, bool fresh) {
  Conn& c = conns_[fd];
  c.idle = !fresh && bytes.empty();
  c.deadline = Clock::now() + (c.idle ? o_.idle_timeout : o_.request_timeout);
  buffered_ += bytes.size();
  c.bytes = std::move(bytes);
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP;
  ev.data.fd = fd;
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev);
  if (!c.bytes.empty()) check(fd);
}

void ConnectionGate::read_from(int fd) {
  char chunk[16384];
  for (;;) {
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return drop(fd);
    if (n < 0) return;
    Conn& c = conns_.at(fd);
    if (c.draining) continue;
    if (buffered_ + static_cast<std::size_t>(n) > o_.max_buffered)
      return refuse(fd, error_response(503, "limits.buffered", "the server holds too many request bytes; try again",
                                       o_.extra_headers));
    if (c.idle) {  // the next request's first byte: its clock starts
      c.idle = false;
      c.deadline = Clock::now() + o_.request_timeout;
    }
    c.bytes.append(chunk, static_cast<std::size_t>(n));
    buffered_ += static_cast<std::size_t>(n);
    check(fd);
    if (!conns_.count(fd) || conns_.at(fd).draining) return;  // handed on or refused
  }
}

void ConnectionGate::check(int fd) {
  Conn& c = conns_.at(fd);
  HeadScan s = scan_request(c.bytes, o_.max_head, o_.max_body);
  if (s.state == HeadScan::State::refused) return refuse(fd, error_response(s.status, s.key, s.error, o_.extra_headers));
  if (s.head_bytes > 0 && s.expect_continue) {  // answered here, so the HTTP layer must not again
    if (s.state == HeadScan::State::need_more && !c.continued) {
      send_all(fd, "HTTP/1.1 100 Continue\r\n\r\n");
      c.continued = true;
    }
    buffered_ -= c.bytes.size();
    c.bytes = without_expect(c.bytes, s.head_bytes);
    buffered_ += c.bytes.size();
    s = scan_request(c.bytes, o_.max_head, o_.max_body);
  }
  if (s.state != HeadScan::State::whole) return;
  std::string bytes = std::move(c.bytes);
  buffered_ -= bytes.size();
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  conns_.erase(fd);
  --held_;
  ready_(fd, std::move(bytes));
}

void ConnectionGate::refuse(int fd, const std::string& answer) {
  Conn& c = conns_.at(fd);
  send_all(fd, answer);
  ::shutdown(fd, SHUT_WR);
  buffered_ -= c.bytes.size();
  c.bytes = std::string();
  c.draining = true;
  c.deadline = Clock::now() + o_.linger;
}

void ConnectionGate::drop(int fd) {
  auto it = conns_.find(fd);
  if (it == conns_.end()) return;
  buffered_ -= it->second.bytes.size();
  ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  close_socket(fd);
  conns_.erase(it);
  --held_;
}

void ConnectionGate::expire(Clock::time_point now) {
  std::vector<int> late;
  for (const auto& [fd, c] : conns_)
    if (c.deadline <= now) late.push_back(fd);
  for (const int fd : late) {
    const Conn& c = conns_.at(fd);
    if (c.idle || c.bytes.empty() || c.draining)
      drop(fd);
    else
      refuse(fd, error_response(408, "request",
                                "the request was not whole within " + std::to_string(o_.request_timeout.count()) + " ms",
                                o_.extra_headers));
  }
}

int ConnectionGate::wait_ms(Clock::time_point now) const {
  auto next = now + std::chrono::seconds(60);
  for (const auto& [fd, c] : conns_) next = std::min(next, c.deadline);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(next - now).count() + 1;
  return static_cast<int>(std::max<std::int64_t>(0, ms));
}

}  // namespace rdmasim::web
