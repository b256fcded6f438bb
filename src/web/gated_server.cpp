#include "web/gated_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace rdmasim::web {
namespace {

// httplib's accept loop hands each new socket to its task queue; this one runs the hand-off at
// once, on the accept thread: process_and_close_socket only gives the socket to the gate.
class AtOnce final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override {}
};

// The request's bytes as the gate buffered them, then the socket (or, without one, `out`) for
// writing. Reads past the buffer find its end: the gate hands only whole requests.
class BufferedStream final : public httplib::Stream {
 public:
  BufferedStream(int fd, std::string bytes, int write_timeout_ms, std::string* out = nullptr)
      : fd_(fd), bytes_(std::move(bytes)), write_timeout_ms_(write_timeout_ms), out_(out) {}
  bool is_readable() const override { return at_ < bytes_.size(); }
  bool is_writable() const override {
    if (out_) return true;
    pollfd p{fd_, POLLOUT, 0};
    return ::poll(&p, 1, write_timeout_ms_) > 0 && (p.revents & (POLLERR | POLLHUP)) == 0;
  }
  ssize_t read(char* ptr, size_t size) override {
    const std::size_t n = std::min(size, bytes_.size() - at_);
    std::memcpy(ptr, bytes_.data() + at_, n);
    at_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (out_) return out_->append(ptr, size), static_cast<ssize_t>(size);
    for (;;) {
      const ssize_t n = ::send(fd_, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n >= 0) return n;
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return -1;
      if (!is_writable()) return -1;
    }
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override { address(&::getpeername, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { address(&::getsockname, ip, port); }
  socket_t socket() const override { return fd_; }
  std::string leftover() const { return bytes_.substr(at_); }
  std::size_t consumed() const { return at_; }

 private:
  void address(int (*get)(int, sockaddr*, socklen_t*), std::string& ip, int& port) const {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    ip.clear();
    port = -1;
    if (get(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) return;
    char text[INET6_ADDRSTRLEN] = {};
    if (a.ss_family == AF_INET) {
      const auto* v4 = reinterpret_cast<const sockaddr_in*>(&a);
      ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
      port = ntohs(v4->sin_port);
    } else if (a.ss_family == AF_INET6) {
      const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&a);
      ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
      port = ntohs(v6->sin6_port);
    }
    ip = text;
  }

  int fd_;
  std::string bytes_;
  std::size_t at_ = 0;
  int write_timeout_ms_;
  std::string* out_;
};

}  // namespace

GatedServer::GatedServer(ConnectionGate::Options gate, int threads)
    : workers_(std::make_unique<httplib::ThreadPool>(static_cast<std::size_t>(threads))) {
  new_task_queue = [] { return new AtOnce; };
  gate_ = std::make_unique<ConnectionGate>(std::move(gate), [this](int fd, std::string bytes) {
    workers_->enqueue([this, fd, b = std::move(bytes)]() mutable { serve(fd, std::move(b)); });
  });
}

GatedServer::~GatedServer() { stop_gate(); }

void GatedServer::stop_gate() {
  if (stopped_) return;
  stopped_ = true;
  gate_->stop();        // no new requests reach the workers
  workers_->shutdown();  // the queued ones are answered ("Connection: close"), then the threads end
}

bool GatedServer::process_and_close_socket(socket_t sock) {
  gate_->admit(sock);
  return true;
}

std::string GatedServer::answer(const std::string& request, std::size_t* read) {
  std::string out;
  BufferedStream stream(-1, request, 0, &out);
  bool closed = false;
  process_request(stream, true, closed, {});
  if (read) *read = stream.consumed();
  return out;
}

void GatedServer::serve(int fd, std::string bytes) {
  const int write_ms = static_cast<int>(write_timeout_sec_ * 1000 + write_timeout_usec_ / 1000);
  BufferedStream stream(fd, std::move(bytes), write_ms);
  const bool stopping = svr_sock_ == INVALID_SOCKET;
  bool closed = false;
  const bool ok = process_request(stream, stopping, closed, {});
  if (ok && !closed && !stopping) return gate_->resume(fd, stream.leftover());
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
}

}  // namespace rdmasim::web
