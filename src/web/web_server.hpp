// WebServer: `rdmasim serve` — an httplib server on `bind:port` (127.0.0.1 unless told
// otherwise; port 0 picks a free one) with the JSON API (api.hpp) and the dashboard's static
// assets, compiled in (embedded_files.hpp) or, with `web_dir`, read from that directory.
//
// Connections wait in a ConnectionGate (gated_server.hpp) until a whole request has arrived, so
// slow or idle clients hold no worker thread; the gate's timeouts and limits are `gate`.
// Hardening: request bodies above `max_body` get 413 (from their Content-Length); unknown routes 404; a static path with
// "..", a backslash, a NUL or a '%' left after URL decoding (double encoding) gets 400 and never
// reaches the file system; under `web_dir` the resolved file must stay inside it (symlinks
// included). Every error body is JSON {"error", "key"}. The listen backlog is SOMAXCONN, not
// httplib's 5, so a burst of new connections is queued rather than reset.
//
// Same origin only (request_guard.hpp): a Host that is not this server's, an Origin that is not
// its own, or a POST/DELETE that is not JSON is refused before its body is read. Every response
// carries a Content-Security-Policy without inline script, nosniff and frame-ancestors 'none'.
// The socket is bound without SO_REUSEPORT, so a second server on a port in use fails to start
// instead of sharing the requests; TCP_NODELAY, so a kept-alive request is not held by Nagle.
#pragma once

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "web/api.hpp"
#include "web/connection_gate.hpp"
#include "web/run_manager.hpp"

namespace rdmasim::web {

class GatedServer;

struct ServerOptions {
  std::string bind = "127.0.0.1";
  int port = 8080;
  std::vector<std::string> allowed_hosts;  // Host names served besides loopback and `bind`
  std::string web_dir;            // "" = the embedded assets
  std::size_t max_body = 1 << 20;  // bytes
  int threads = 48;               // HTTP worker threads (SSE clients hold one each)
  ConnectionGate::Options gate;   // where connections wait for a whole request (max_body is set from above)
  RunLimits limits;
  ApiOptions api;
};

class WebServer {
 public:
  explicit WebServer(ServerOptions o);
  ~WebServer();
  /// Binds (std::runtime_error naming the address when it cannot) and returns the port.
  int bind();
  /// Serves until stop() (blocking).
  void listen();
  /// bind() and serve on a background thread (tests).
  int start();
  void stop();
  RunManager& runs() { return *runs_; }
  const Api& api() const { return *api_; }
  /// Connections waiting in the gate for a whole request (or idle between requests).
  std::size_t gate_held() const;
  /// The answer to one whole request as bytes, without a socket (the HTTP fuzz target).
  std::string answer(const std::string& request, std::size_t* read = nullptr);

  /// The static file for a decoded URL path: 400 for a path that tries to leave the asset tree,
  /// 404 for none; the content type by extension.
  struct Asset {
    int status = 200;
    std::string body, type;
  };
  Asset asset(const std::string& path) const;

 private:
  ServerOptions o_;
  std::unique_ptr<RunManager> runs_;
  std::unique_ptr<Api> api_;
  std::unique_ptr<GatedServer> http_;
  std::thread thread_;
  int listen_fd_ = -1;  // httplib's listening socket, set while bind() creates it
  int port_ = 0;        // set by bind(); the guard compares Origin ports with it
};

}  // namespace rdmasim::web
