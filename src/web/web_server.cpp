#include "web/web_server.hpp"

#include <httplib.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "web/embedded_files.hpp"
#include "web/gated_server.hpp"
#include "web/request_guard.hpp"

namespace rdmasim::web {
namespace {

std::string content_type(const std::string& path) {
  const auto dot = path.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "json") return "application/json";
  if (ext == "png") return "image/png";
  if (ext == "svg") return "image/svg+xml";
  return "application/octet-stream";
}

bool unsafe(const std::string& p) {
  return p.empty() || p[0] != '/' || p.find("..") != std::string::npos || p.find('\\') != std::string::npos ||
         p.find('%') != std::string::npos || p.find('\0') != std::string::npos || p.find("//") != std::string::npos;
}

}  // namespace

WebServer::WebServer(ServerOptions o)
    : o_(std::move(o)),
      runs_(std::make_unique<RunManager>(o_.limits)),
      api_(std::make_unique<Api>(*runs_, [this] {
        ApiOptions a = o_.api;
        a.max_body = o_.max_body;
        a.max_connections = o_.gate.max_connections;
        a.request_timeout_ms = o_.gate.request_timeout.count();
        a.idle_timeout_ms = o_.gate.idle_timeout.count();
        return a;
      }())),
      http_(std::make_unique<GatedServer>(
          [this] {
            ConnectionGate::Options g = o_.gate;
            g.max_body = o_.max_body;
            for (const auto& [name, value] : security_headers()) g.extra_headers += name + ": " + value + "\r\n";
            return g;
          }(),
          o_.threads)) {
  httplib::Server& s = *http_;
  s.set_payload_max_length(o_.max_body);
  s.set_tcp_nodelay(true);
  // What the Keep-Alive response header announces; the gate closes idle connections.
  s.set_keep_alive_timeout(std::max<time_t>(1, std::chrono::duration_cast<std::chrono::seconds>(o_.gate.idle_timeout).count()));
  s.set_keep_alive_max_count(1000);
  // SO_REUSEADDR only: httplib's default also sets SO_REUSEPORT, with which a second server on
  // the same port starts and the kernel splits the requests between the two. The listening
  // socket's fd is kept for bind(), which widens httplib's compiled-in listen backlog of 5.
  s.set_socket_options([this](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    listen_fd_ = sock;
  });
  s.set_default_headers(httplib::Headers(security_headers().begin(), security_headers().end()));
  s.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    const GuardConfig g{o_.bind, port_, o_.allowed_hosts};
    const GuardVerdict v = check_request(g, req.method, req.get_header_value("Host"), req.has_header("Origin"),
                                         req.get_header_value("Origin"), req.get_header_value("Content-Type"));
    if (v.status == 0) return httplib::Server::HandlerResponse::Unhandled;
    res.status = v.status;
    res.set_header("Connection", "close");  // its body, if any, is never read
    res.set_content(error_body(v.key, v.error), "application/json");
    return httplib::Server::HandlerResponse::Handled;
  });
  s.set_write_timeout(10);
  api_->install(s);
  s.Get(R"(/api(/.*)?)", [](const httplib::Request& req, httplib::Response& res) {
    res.status = 404;
    res.set_content(error_body("path", "no API route " + req.path), "application/json");
  });
  s.Get(".*", [this](const httplib::Request& req, httplib::Response& res) {
    const Asset a = asset(req.path);
    res.status = a.status;
    res.set_content(a.body, a.type);
  });
  s.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (res.get_header_value("Content-Type") == "application/json" && !res.body.empty()) return;
    std::string msg;
    switch (res.status) {
      case 404: msg = "no route " + req.method + " " + req.path; break;
      case 413: msg = "the request body is larger than the limit"; break;
      case 400: msg = "bad request"; break;
      default: msg = "HTTP " + std::to_string(res.status);
    }
    res.set_content(error_body(res.status == 413 ? "body" : "path", msg), "application/json");
  });
  s.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "internal error";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = std::string("internal error: ") + e.what();
    } catch (...) {
    }
    res.status = 500;
    res.set_content(error_body("", what), "application/json");
  });
}

WebServer::~WebServer() { stop(); }

std::size_t WebServer::gate_held() const { return http_->gate().held(); }

std::string WebServer::answer(const std::string& request, std::size_t* read) { return http_->answer(request, read); }

WebServer::Asset WebServer::asset(const std::string& raw) const {
  if (unsafe(raw)) return {400, error_body("path", "path not allowed: " + raw), "application/json"};
  const std::string path = raw == "/" ? "/index.html" : raw;
  if (o_.web_dir.empty()) {
    for (const EmbeddedFile& f : embedded_files())
      if (path == f.name) return {200, std::string(f.text()), content_type(path)};
    return {404, error_body("path", "no file " + path), "application/json"};
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path root = fs::canonical(o_.web_dir, ec);
  if (ec) return {404, error_body("path", "no web directory " + o_.web_dir), "application/json"};
  const fs::path file = fs::weakly_canonical(root / path.substr(1), ec);
  const std::string r = root.string() + "/", f = file.string();
  if (ec || f.rfind(r, 0) != 0) return {400, error_body("path", "path not allowed: " + raw), "application/json"};
  if (!fs::is_regular_file(file, ec)) return {404, error_body("path", "no file " + path), "application/json"};
  std::ifstream in(file, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return {200, ss.str(), content_type(path)};
}

int WebServer::bind() {
  const int port = o_.port == 0 ? http_->bind_to_any_port(o_.bind) : (http_->bind_to_port(o_.bind, o_.port) ? o_.port : -1);
  if (port < 0)
    throw std::runtime_error("cannot listen on " + o_.bind + ":" + std::to_string(o_.port) +
                             (errno == EADDRINUSE ? " (the address is in use: is another server running?)" : ""));
  port_ = port;
  // libcpp-httplib listens with a backlog of 5 (CPPHTTPLIB_LISTEN_BACKLOG, fixed when the
  // library was built). A burst of new connections (clients without keep-alive) overflows it:
  // the kernel drops SYNs (1 s connect retries) and falls back to SYN cookies, and a client
  // segment that is not the first after the handshake (a POST's body, written after its
  // headers) then fails the cookie check and is answered with a RST (Error::Read at the
  // client). listen() again on the listening socket only raises its backlog (Linux, POSIX).
  if (listen_fd_ < 0 || ::listen(listen_fd_, SOMAXCONN) != 0)
    throw std::runtime_error("cannot listen on " + o_.bind + ":" + std::to_string(port) + " with a backlog of " +
                             std::to_string(SOMAXCONN));
  return port;
}

void WebServer::listen() { http_->listen_after_bind(); }

int WebServer::start() {
  const int port = bind();
  thread_ = std::thread([this] { http_->listen_after_bind(); });
  // httplib's stop() does nothing before the loop runs: return only once it does.
  while (!http_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return port;
}

void WebServer::stop() {
  runs_->cancel_all();  // ends the runs' event streams, so their SSE clients let go
  if (http_) http_->stop();
  if (thread_.joinable()) thread_.join();
  if (http_) http_->stop_gate();
}

}  // namespace rdmasim::web
