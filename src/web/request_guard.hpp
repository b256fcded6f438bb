// RequestGuard: who may talk to `rdmasim serve`. The server runs simulations for anyone who can
// reach it, so it answers only its own pages on this machine:
//   - Host must be a loopback name (localhost, 127.0.0.0/8, ::1), the --bind address, or a name
//     allowed with --allow-host: a page on evil.example that DNS-rebinds to 127.0.0.1 sends
//     `Host: evil.example` and gets 403.
//   - Origin, when a browser sends one, must be this server's own (http, an allowed host, this
//     port): a page on another port or site gets 403 even for a "simple" request.
//   - POST, PUT, PATCH and DELETE must carry `Content-Type: application/json` (415 otherwise), so
//     no HTML form or no-cors `text/plain` fetch can start a run without a CORS preflight, which
//     the server never grants.
// Pure functions of the request's headers; the server applies them before reading a body.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rdmasim::web {

struct GuardConfig {
  std::string bind = "127.0.0.1";
  int port = 0;                            // the port the server listens on
  std::vector<std::string> allowed_hosts;  // names allowed besides loopback and `bind`
};

struct GuardVerdict {
  int status = 0;  // 0: allowed; else 403 or 415
  std::string key, error;
};

/// The host part of a Host header or an origin's authority: "[::1]:80" -> "::1",
/// "Localhost:80" -> "localhost" (lower case); `port` gets the port text ("" when none).
std::string host_name(std::string_view authority, std::string* port = nullptr);
/// localhost, a dotted-quad 127.x.y.z, or ::1.
bool is_loopback_name(std::string_view host);
/// Whether a bind address is loopback only (a warning is printed otherwise).
bool binds_loopback_only(std::string_view bind);

/// The headers every response carries: a Content-Security-Policy without inline script,
/// nosniff, no framing, no referrer.
const std::vector<std::pair<std::string, std::string>>& security_headers();

GuardVerdict check_request(const GuardConfig& c, std::string_view method, std::string_view host_header,
                           bool has_origin, std::string_view origin, std::string_view content_type);

}  // namespace rdmasim::web
