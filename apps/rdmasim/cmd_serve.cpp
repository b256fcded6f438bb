#include "cmd_serve.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <pthread.h>
#include <thread>

#include "web/request_guard.hpp"
#include "web/web_server.hpp"

namespace rdmasim::cli {

std::function<int()> add_serve_command(CLI::App& app, CLI::App*& sub) {
  auto o = std::make_shared<web::ServerOptions>();
  sub = app.add_subcommand("serve", "web dashboard: latency ledgers, fabric heat maps and runs driven by the simulator (JSON API)");
  sub->add_option("--port", o->port, "TCP port (0: any free port, printed)")->check(CLI::Range(0, 65535))->capture_default_str();
  sub->add_option("--bind", o->bind, "address to listen on")->capture_default_str();
  sub->add_option("--allow-host", o->allowed_hosts,
                  "also answer requests whose Host (and Origin) is this name (default: loopback names and --bind only)");
  sub->add_option("--web-dir", o->web_dir, "serve the page from this directory instead of the compiled-in copy")
      ->check(CLI::ExistingDirectory);
  sub->add_option("--max-body", o->max_body, "request body limit in bytes")->check(CLI::Range(1024, 64 << 20))->capture_default_str();
  sub->add_option("--workers", o->limits.workers, "runs simulated at once")->check(CLI::Range(1, 64))->capture_default_str();
  sub->add_option("--max-runs", o->limits.max_active, "runs queued or running at once")->check(CLI::Range(1, 1024))->capture_default_str();
  sub->add_option("--max-hosts", o->limits.max_hosts, "hosts in a run's topology")->check(CLI::Range(2, 100000))->capture_default_str();
  sub->add_option("--max-messages", o->limits.max_messages, "iterations x flows per run")->check(CLI::Range(1, 1'000'000'000))->capture_default_str();
  sub->add_option("--max-events", o->limits.max_events, "simulation events per run")->capture_default_str();
  sub->add_option("--max-sim-time-us", o->limits.max_sim_time_us, "simulated time per run (microseconds)")
      ->check(CLI::Range(1.0, 1e12))->capture_default_str();
  sub->add_option("--max-streams", o->api.max_streams, "event-stream (SSE) clients at once")->check(CLI::Range(1, 1000))->capture_default_str();
  sub->add_option("--max-connections", o->gate.max_connections, "connections held at once (beyond: 503)")
      ->check(CLI::Range(16, 100000))->capture_default_str();
  auto request_ms = std::make_shared<int>(static_cast<int>(o->gate.request_timeout.count()));
  sub->add_option("--request-timeout-ms", *request_ms, "a request must arrive whole this soon after its first byte (else 408)")
      ->check(CLI::Range(100, 600'000))->capture_default_str();
  return [o, request_ms]() {
    o->gate.request_timeout = std::chrono::milliseconds(*request_ms);
    o->threads = o->api.max_streams + 16;
    // SIGINT / SIGTERM stop the server from a thread of their own (no work in a signal handler).
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    web::WebServer server(*o);
    int port = 0;
    try {
      port = server.bind();
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "rdmasim: error: serve: %s\n", e.what());
      return 2;
    }
    if (!web::binds_loopback_only(o->bind))
      std::fprintf(stderr,
                   "rdmasim: warning: serve: listening on %s, not loopback only: anyone who can reach it can start "
                   "simulations\n",
                   o->bind.c_str());
    std::printf("rdmasim serve: http://%s:%d/ (Ctrl-C stops)\n", o->bind.c_str(), port);
    std::fflush(stdout);
    std::thread waiter([&server, set] {
      int sig = 0;
      sigwait(&set, &sig);
      server.stop();
    });
    server.listen();
    pthread_kill(waiter.native_handle(), SIGTERM);  // if listen() ended for another reason
    waiter.join();
    return 0;
  };
}

}  // namespace rdmasim::cli
