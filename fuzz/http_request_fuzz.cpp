// libFuzzer target for `rdmasim serve`'s request handling: the input is what a client sends on
// one connection. The gate's scanner (request_head.hpp) cuts it into whole requests, as the
// server does, and each goes through httplib's parser and every route (the dashboard's API,
// the static assets, the guards), answered into memory. Every answer must be an HTTP/1.1
// response that is not a 5xx (a 500 is a handler's unexpected exception); a crash, a hang or a
// sanitizer report is a bug. Runs are started for real (small limits), so their scenarios are
// checked too. Run: `make fuzz-smoke`, or ./build/fuzz/fuzz/http_request_fuzz <a copy of fuzz/corpus/http>;
// RDMASIM_FUZZ_SHOW=1 prints each answer (to see why an input failed).
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <string>
#include <string_view>

#include "web/request_head.hpp"
#include "web/web_server.hpp"

namespace {

rdmasim::web::WebServer& server() {
  static rdmasim::web::WebServer* s = [] {
    rdmasim::web::ServerOptions o;
    o.port = 0;
    o.limits.workers = 1;
    o.limits.max_active = 2;
    o.limits.max_kept = 4;
    o.limits.max_hosts = 16;
    o.limits.max_messages = 200;
    o.limits.max_events = 200'000;
    o.limits.max_sim_time_us = 10'000;
    return new rdmasim::web::WebServer(o);  // lives for the process: runs finish on its workers
  }();
  return *s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  for (int request = 0; request < 8; ++request) {
    const rdmasim::web::HeadScan s = rdmasim::web::scan_request(bytes, 16 << 10, 1 << 20);
    if (s.state == rdmasim::web::HeadScan::State::refused && s.error.empty()) __builtin_trap();
    if (s.state != rdmasim::web::HeadScan::State::whole) break;
    std::string one = s.expect_continue ? rdmasim::web::without_expect(bytes, s.head_bytes) : bytes;
    const std::size_t whole = s.request_bytes - (bytes.size() - one.size());
    std::size_t read = 0;
    const std::string answer = server().answer(one.substr(0, whole), &read);
    if (std::getenv("RDMASIM_FUZZ_SHOW")) std::fprintf(stderr, "[%s]\n", answer.c_str());
    if (answer.rfind("HTTP/1.1 ", 0) != 0 || answer.size() < 12 || answer[9] < '1' || answer[9] > '4') __builtin_trap();
    if (read > whole) __builtin_trap();
    bytes = one.substr(whole);
  }
  return 0;
}
