// The dashboard's JSON API (docs/api.md) on an httplib server: runs (POST /api/runs with a
// scenario as JSON or ?preset=ID, GET /api/runs[/{id}], GET /api/runs/{id}/events as
// Server-Sent Events, DELETE /api/runs/{id}), presets, limits, and the computed views
// (/api/demo, /api/path, /api/topology). Every error is JSON {"error", "key"} with a 4xx
// status; a handler's unexpected exception is a 500 with the same shape, never a crash.
// At most `max_streams` SSE clients at once (each holds one server thread while open).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "web/request_head.hpp"  // error_body
#include "web/run_manager.hpp"

namespace httplib {
class Server;
}

namespace rdmasim::web {

struct ApiOptions {
  int max_streams = 32;
  int heartbeat_ms = 2000;  // an SSE comment line this often while no event comes
  // The server's connection limits, reported by /api/limits (set by WebServer).
  std::size_t max_body = 1 << 20;  // request body bytes
  std::size_t max_connections = 0;
  std::int64_t request_timeout_ms = 0, idle_timeout_ms = 0;
};

class Api {
 public:
  Api(RunManager& runs, ApiOptions o) : runs_(runs), o_(o) {}
  void install(httplib::Server& s);
  int open_streams() const { return streams_.load(); }
  /// Entries in the /api/demo cache (one per distinct validated parameter set).
  std::size_t demo_cache_size() const {
    std::lock_guard<std::mutex> g(cache_m_);
    return demo_cache_.size();
  }

 private:
  RunManager& runs_;
  ApiOptions o_;
  std::atomic<int> streams_{0};
  mutable std::mutex cache_m_;
  std::map<std::string, std::string> demo_cache_;  // by DemoParams::key
};

/// The key path at the front of a scenario parser message ("request: workload.iters: ..."), or "".
std::string error_key(const std::string& message, const std::string& source);

}  // namespace rdmasim::web
