// The connection gate of `rdmasim serve`: the request scanner's verdicts byte by byte, and a
// real server on 127.0.0.1 with slow, silent, pipelining and 100-continue clients.
#include <gtest/gtest.h>
#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "web/request_head.hpp"
#include "web/web_server.hpp"

using namespace rdmasim::web;
using State = HeadScan::State;
using Clock = std::chrono::steady_clock;

namespace {

TEST(RequestHead, WholeOnlyWithTheHeadAndTheBody) {
  const std::string req = "POST /api/runs HTTP/1.1\r\nHost: x\r\ncontent-length: 5\r\n\r\nhello";
  for (std::size_t n = 0; n < req.size(); ++n) EXPECT_EQ(scan_request(req.substr(0, n), 1024, 64).state, State::need_more) << n;
  const HeadScan s = scan_request(req + "GET / HTTP/1.1\r\n", 1024, 64);  // a pipelined request follows
  EXPECT_EQ(s.state, State::whole);
  EXPECT_EQ(s.head_bytes, req.size() - 5);
  EXPECT_EQ(s.request_bytes, req.size());
  EXPECT_FALSE(s.expect_continue);
  EXPECT_EQ(scan_request("GET / HTTP/1.1\r\nHost: x\r\n\r\n", 1024, 0).state, State::whole);
}

TEST(RequestHead, RefusedBeforeTheBody) {
  auto refused = [](const std::string& head, std::size_t max_head = 1024) {
    const HeadScan s = scan_request(head, max_head, 64);
    EXPECT_EQ(s.state, State::refused) << head;
    return std::to_string(s.status) + " " + s.key + " " + s.error;
  };
  EXPECT_EQ(refused("POST / HTTP/1.1\r\nContent-Length: 65\r\n\r\n"),
            "413 body the request body is larger than the limit: 65 bytes (Content-Length) is over the body limit of 64 bytes");
  EXPECT_EQ(refused("POST / HTTP/1.1\r\nContent-Length: 5x\r\n\r\n"), "400 request Content-Length: \"5x\" is not a byte count");
  EXPECT_EQ(refused("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"), "400 request Content-Length: \"-1\" is not a byte count");
  EXPECT_EQ(refused("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"),
            "400 request Content-Length: two headers disagree");
  EXPECT_EQ(refused("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            "411 request Transfer-Encoding: a request body needs a Content-Length");
  EXPECT_EQ(refused("GET / HTTP/1.1\r\nX: " + std::string(40, 'a'), 32), "431 request the request head is longer than 32 bytes");
  EXPECT_EQ(refused("GET / HTTP/1.1\r\nX: " + std::string(20, 'a') + "\r\n\r\n", 32),
            "431 request the request head is longer than 32 bytes");
  EXPECT_EQ(scan_request("GET / HTTP/1.1\r\nX: " + std::string(12, 'a'), 32, 64).state, State::need_more);
}

TEST(RequestHead, ExpectContinueIsReportedAndRemoved) {
  const std::string head = "POST / HTTP/1.1\r\nHost: x\r\nexpect:  100-Continue \r\nContent-Length: 2\r\n\r\n";
  const HeadScan s = scan_request(head, 1024, 64);
  EXPECT_EQ(s.state, State::need_more);
  EXPECT_TRUE(s.expect_continue);
  EXPECT_EQ(without_expect(head + "ab", s.head_bytes), "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab");
  EXPECT_EQ(without_expect("GET / HTTP/1.1\r\n\r\nExpect: 1\r\n", 18), "GET / HTTP/1.1\r\n\r\nExpect: 1\r\n");  // a body is not a head
}

// A raw loopback connection: what a slow, pipelining or hostile client sends.
struct Raw {
  int fd = -1;
  mutable bool eof = false;  // read() saw the peer close
  explicit Raw(int port) {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) ADD_FAILURE() << "connect";
  }
  ~Raw() { ::close(fd); }
  void send(const std::string& s) const { ASSERT_EQ(::send(fd, s.data(), s.size(), MSG_NOSIGNAL), static_cast<ssize_t>(s.size())); }
  // Reads until `until` appears in what was read, the peer closes, or `ms` pass.
  std::string read(const std::string& until, int ms = 3000) const {
    std::string got;
    const auto end = Clock::now() + std::chrono::milliseconds(ms);
    while (got.find(until) == std::string::npos && Clock::now() < end) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      char b[4096];
      const ssize_t n = ::recv(fd, b, sizeof b, 0);
      if (n <= 0) {
        eof = n == 0;
        break;
      }
      got.append(b, static_cast<std::size_t>(n));
    }
    return got;
  }
  bool closed_by_peer(int ms) const {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, ms) <= 0) return false;
    char b[1];
    return ::recv(fd, b, 1, 0) == 0;
  }
};

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

ServerOptions gated(int threads, int request_ms, int idle_ms) {
  ServerOptions o;
  o.port = 0;
  o.threads = threads;
  o.gate.request_timeout = std::chrono::milliseconds(request_ms);
  o.gate.idle_timeout = std::chrono::milliseconds(idle_ms);
  o.gate.linger = std::chrono::milliseconds(300);
  return o;
}

// 200 clients that send half a request head hold no worker: with 2 workers, a whole request
// is still answered at once; when their time is up each gets 408 and is closed.
TEST(ConnectionGate, SlowClientsHoldNoWorker) {
  WebServer s(gated(2, 1500, 10000));
  const int port = s.start();
  std::vector<std::unique_ptr<Raw>> slow;
  for (int i = 0; i < 200; ++i) {
    slow.push_back(std::make_unique<Raw>(port));
    slow.back()->send("GET /api/limits HTTP/1.1\r\nHost: 127.0.0.1\r\n");
  }
  httplib::Client c("127.0.0.1", port);
  const auto t0 = Clock::now();
  for (int i = 0; i < 20; ++i) ASSERT_EQ(c.Get("/api/limits")->status, 200);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
  EXPECT_LT(ms, 1000) << "20 requests beside 200 slow connections";
  for (int i = 0; i < 50 && s.gate_held() < 200; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_GE(s.gate_held(), 200u);
  const std::string late = slow.front()->read("\r\n\r\n{", 4000);
  EXPECT_EQ(late.rfind("HTTP/1.1 408 Request Timeout\r\n", 0), 0u) << late;
  EXPECT_NE(late.find("X-Content-Type-Options: nosniff\r\n"), std::string::npos) << late;
  for (std::size_t i = 1; i < slow.size(); ++i) EXPECT_NE(slow[i]->read("not whole within 1500 ms").find("408"), std::string::npos);
  for (int i = 0; i < 100 && s.gate_held() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(s.gate_held(), 0u);  // httplib's client closes after each request
  s.stop();
}

TEST(ConnectionGate, SilentAndIdleConnectionsAreClosed) {
  WebServer s(gated(2, 300, 200));
  const int port = s.start();
  Raw silent(port);
  EXPECT_TRUE(silent.closed_by_peer(2000));  // nothing sent: closed without an answer
  Raw kept(port);
  kept.send("GET /api/limits HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  EXPECT_NE(kept.read("}").find("HTTP/1.1 200 OK"), std::string::npos);
  const auto t0 = Clock::now();
  EXPECT_TRUE(kept.closed_by_peer(2000));
  EXPECT_GE(Clock::now() - t0, std::chrono::milliseconds(150));  // kept for the idle timeout first
  s.stop();
}

TEST(ConnectionGate, PipelinedRequestsAreAnsweredInOrder) {
  WebServer s(gated(2, 2000, 2000));
  Raw r(s.start());
  r.send("GET /api/limits HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /nope.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
         "GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  const std::string got = r.read("(read to the end)", 5000);
  EXPECT_TRUE(r.eof) << "closed after the third (Connection: close)";
  const std::size_t a = got.find("HTTP/1.1 200"), b = got.find("HTTP/1.1 404"), c = got.find("HTTP/1.1 200", b);
  EXPECT_TRUE(a < b && b < c && c != std::string::npos) << got;
  EXPECT_EQ(count(got, "HTTP/1.1 "), 3u);
  s.stop();
}

// curl sends `Expect: 100-continue` for bodies over 1 KiB: one "100 Continue", then the answer.
TEST(ConnectionGate, ExpectContinueIsAnsweredOnce) {
  WebServer s(gated(2, 2000, 2000));
  Raw r(s.start());
  const std::string body = R"({"command":"lat","workload":{"iters":5}})";
  r.send("POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n");
  EXPECT_EQ(r.read("\r\n\r\n"), "HTTP/1.1 100 Continue\r\n\r\n");
  r.send(body);
  const std::string got = r.read("}");
  EXPECT_EQ(got.rfind("HTTP/1.1 201", 0), 0u) << got;
  EXPECT_EQ(count(got, "100 Continue"), 0u);
  s.stop();
}

TEST(ConnectionGate, ConnectionAndBodyLimits) {
  ServerOptions o = gated(2, 2000, 2000);
  o.gate.max_connections = 3;
  o.max_body = 1000;
  WebServer s(o);
  const int port = s.start();
  Raw a(port), b(port), c(port);
  for (int i = 0; i < 50 && s.gate_held() < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  Raw d(port);
  EXPECT_NE(d.read("}").find("HTTP/1.1 503 Service Unavailable"), std::string::npos);
  Raw big(port);  // a freed place (d closed): refused from its Content-Length, no body sent
  a.send("POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1001\r\n\r\n");
  const std::string got = a.read("}");
  EXPECT_EQ(got.rfind("HTTP/1.1 413 Payload Too Large\r\n", 0), 0u) << got;
  EXPECT_NE(got.find(R"("key":"body")"), std::string::npos) << got;
  b.send("POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n");
  EXPECT_NE(b.read("}").find("HTTP/1.1 411 Length Required"), std::string::npos);
  // A refused body still being sent is read and dropped, so its client gets the answer, not a reset.
  c.send("POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 300000\r\n\r\n");
  const std::string body(300000, ' ');
  EXPECT_EQ(::send(c.fd, body.data(), body.size(), MSG_NOSIGNAL), static_cast<ssize_t>(body.size()));
  const std::string answer = c.read("(read to the end)");
  EXPECT_EQ(answer.rfind("HTTP/1.1 413", 0), 0u) << answer;
  EXPECT_TRUE(c.eof) << "closed when the linger ends";
  s.stop();
}

// The bytes held over all connections are bounded: the request that would pass the bound gets
// 503 (limits.buffered), though its own body is within the body limit.
TEST(ConnectionGate, BufferedBytesAreBounded) {
  ServerOptions o = gated(2, 2000, 2000);
  o.gate.max_buffered = 2000;
  o.max_body = 4096;
  WebServer s(o);
  Raw r(s.start());
  r.send("POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 3000\r\n\r\n");
  r.send(std::string(2500, ' '));
  const std::string got = r.read("}");
  EXPECT_EQ(got.rfind("HTTP/1.1 503 Service Unavailable\r\n", 0), 0u) << got;
  EXPECT_NE(got.find(R"("key":"limits.buffered")"), std::string::npos) << got;
  s.stop();
}

}  // namespace
