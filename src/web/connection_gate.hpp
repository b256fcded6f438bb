// ConnectionGate: holds every connection of `rdmasim serve` on one epoll thread until it has
// sent a whole HTTP request (request_head.hpp), then hands the socket and its bytes to `ready`
// (a worker thread). A slow or silent client so holds a file descriptor and a buffer, never a
// worker: 200 connections sending a header byte a second delay nobody else. After a response,
// a kept-alive connection comes back (resume) and waits here, not on a worker, for its next
// request.
//
// Bounds, each answered with one JSON error and `Connection: close`:
//   - a request must be whole `request_timeout` after the gate took the connection or after
//     its first byte following a response (408; a connection that sent nothing is just closed);
//   - an idle kept-alive connection is closed after `idle_timeout`;
//   - at most `max_connections` held (503), at most `max_buffered` bytes over all of them (503
//     to the connection whose bytes would pass it);
//   - a head of at most `max_head` bytes (431), a body of at most `max_body` (413, refused
//     from its Content-Length before any of it is read), no chunked request body (411).
// After such an answer the gate stops writing and reads (and discards) what the client still
// sends for up to `linger`, so a client that is still sending a refused body reads the answer
// instead of a reset. `extra_headers` ("Name: value\r\n" lines) go into the gate's own answers. Memory: the
// buffered bytes plus ~100 B per held connection. Thread-safe: admit/resume from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace rdmasim::web {

class ConnectionGate {
 public:
  struct Options {
    std::chrono::milliseconds request_timeout{10'000};
    std::chrono::milliseconds idle_timeout{5'000};
    std::chrono::milliseconds linger{2'000};
    std::size_t max_connections = 512;
    std::size_t max_buffered = 64u << 20;
    std::size_t max_head = 16u << 10;
    std::size_t max_body = 1u << 20;
    std::string extra_headers;
  };
  /// Gets a socket whose buffer starts with a whole request (pipelined bytes may follow); it
  /// owns the socket from then on (resume it or close it). Called on the gate's thread.
  using Ready = std::function<void(int fd, std::string bytes)>;

  ConnectionGate(Options o, Ready ready);
  ~ConnectionGate();
  ConnectionGate(const ConnectionGate&) = delete;
  ConnectionGate& operator=(const ConnectionGate&) = delete;

  /// A newly accepted connection (made non-blocking here).
  void admit(int fd);
  /// A kept-alive connection after its response, with the bytes read past that request.
  void resume(int fd, std::string leftover);
  /// Closes every held connection and joins the thread; later admits and resumes close at once.
  void stop();
  /// Connections held now (waiting for bytes or idle).
  std::size_t held() const { return held_.load(); }

 private:
  using Clock = std::chrono::steady_clock;
  struct Conn {
    std::string bytes;
    Clock::time_point deadline;
    bool idle = false;       // kept alive, no byte of the next request yet
    bool continued = false;  // "100 Continue" sent for this request
    bool draining = false;   // answered and shut for writing: what comes is discarded
  };
  struct Incoming {
    int fd;
    std::string bytes;
    bool fresh;  // admitted (else resumed)
  };
  void post(Incoming in);  // to the gate's thread (closes the socket once stopped)
  void wake();             // the gate's thread looks at its inbox
  void loop();
  void take_inbox();
  void hold(int fd, std::string bytes, bool fresh);
  void read_from(int fd);
  void check(int fd);  // hands, refuses or keeps the connection after its bytes changed
  void refuse(int fd, const std::string& answer);  // answers, then drains until `linger` ends
  void drop(int fd);
  void expire(Clock::time_point now);
  int wait_ms(Clock::time_point now) const;

  Options o_;
  Ready ready_;
  int epoll_fd_ = -1, wake_fd_ = -1;
  std::mutex m_;
  std::vector<Incoming> inbox_;
  bool stopped_ = false;
  std::unordered_map<int, Conn> conns_;  // the gate thread's only
  std::size_t buffered_ = 0;             // sum of conns_' bytes
  std::atomic<std::size_t> held_{0};
  std::thread thread_;
};

}  // namespace rdmasim::web
