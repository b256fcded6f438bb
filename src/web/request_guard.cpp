#include "web/request_guard.hpp"

#include <algorithm>
#include <cctype>

namespace rdmasim::web {
namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return r;
}

bool allowed_host(const GuardConfig& c, const std::string& h) {
  if (h.empty()) return false;
  if (is_loopback_name(h) || h == lower(c.bind)) return true;
  return std::any_of(c.allowed_hosts.begin(), c.allowed_hosts.end(), [&](const std::string& a) { return lower(a) == h; });
}

}  // namespace

std::string host_name(std::string_view a, std::string* port) {
  std::string_view host = a, p;
  if (!a.empty() && a.front() == '[') {  // [v6]:port
    const auto close = a.find(']');
    if (close == std::string_view::npos) return "";
    host = a.substr(1, close - 1);
    if (close + 1 < a.size()) {
      if (a[close + 1] != ':') return "";
      p = a.substr(close + 2);
    }
  } else if (const auto colon = a.find(':'); colon != std::string_view::npos) {
    if (a.find(':', colon + 1) != std::string_view::npos) return "";  // a bare v6 address is not a Host
    host = a.substr(0, colon);
    p = a.substr(colon + 1);
  }
  if (port) *port = std::string(p);
  return lower(host);
}

bool is_loopback_name(std::string_view h) {
  if (h == "localhost" || h == "::1") return true;
  if (h.substr(0, 4) != "127.") return false;
  int parts = 2, digits = 0, value = 0;  // "127" and the part being read
  for (const char c : h.substr(4)) {
    if (c == '.') {
      if (digits == 0) return false;
      parts += 1, digits = 0, value = 0;
    } else if (c >= '0' && c <= '9' && digits < 3) {
      value = value * 10 + (c - '0'), digits += 1;
      if (value > 255) return false;
    } else {
      return false;
    }
  }
  return parts == 4 && digits > 0;
}

bool binds_loopback_only(std::string_view bind) { return is_loopback_name(host_name(bind)) || bind == "::1"; }

GuardVerdict check_request(const GuardConfig& c, std::string_view method, std::string_view host_header, bool has_origin,
                           std::string_view origin, std::string_view content_type) {
  const std::string host = host_name(host_header);
  if (!allowed_host(c, host))
    return {403, "host",
            "host: \"" + std::string(host_header) + "\" is not this server (loopback names, " + c.bind +
                ", or `rdmasim serve --allow-host NAME`)"};
  if (has_origin) {
    const std::string_view scheme = "http://";
    std::string port;
    const bool ok = origin.substr(0, scheme.size()) == scheme &&
                    allowed_host(c, host_name(origin.substr(scheme.size()), &port)) && port == std::to_string(c.port);
    if (!ok)
      return {403, "origin",
              "origin: requests from \"" + std::string(origin) + "\" are refused (only this server's own pages)"};
  }
  if (method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE") {
    const std::string type = lower(content_type.substr(0, content_type.find(';')));
    const auto end = type.find_last_not_of(" \t");
    if (end == std::string::npos || type.substr(0, end + 1) != "application/json")
      return {415, "content-type",
              "content-type: " + std::string(method) + " needs \"Content-Type: application/json\", got \"" +
                  std::string(content_type) + "\""};
  }
  return {};
}

const std::vector<std::pair<std::string, std::string>>& security_headers() {
  static const std::vector<std::pair<std::string, std::string>> h{
      {"Content-Security-Policy",
       "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
      {"X-Content-Type-Options", "nosniff"},
      {"X-Frame-Options", "DENY"},
      {"Referrer-Policy", "no-referrer"}};
  return h;
}

}  // namespace rdmasim::web
