#include "web/request_head.hpp"

#include <cctype>
#include <nlohmann/json.hpp>
#include <string>

namespace rdmasim::web {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

HeadScan refuse(int status, std::string error) {
  HeadScan r;
  r.state = HeadScan::State::refused;
  r.status = status;
  r.key = "request";
  r.error = std::move(error);
  return r;
}

// Calls f(name, value, line_begin, line_end) for each header line of the head (not the request
// line, not the empty line); line_end is past its CRLF.
template <class F>
void for_each_header(std::string_view head, F&& f) {
  std::size_t at = head.find("\r\n");
  while (at != std::string_view::npos && at + 2 < head.size()) {
    const std::size_t begin = at + 2, end = head.find("\r\n", begin);
    if (end == std::string_view::npos || end == begin) return;
    const std::string_view line = head.substr(begin, end - begin);
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos) f(trim(line.substr(0, colon)), trim(line.substr(colon + 1)), begin, end + 2);
    at = end;
  }
}

}  // namespace

HeadScan scan_request(std::string_view buffer, std::size_t max_head, std::size_t max_body) {
  const std::size_t end = buffer.find("\r\n\r\n");
  if (end == std::string_view::npos || end + 4 > max_head) {
    if (end != std::string_view::npos || buffer.size() > max_head)
      return refuse(431, "the request head is longer than " + std::to_string(max_head) + " bytes");
    return {};
  }
  HeadScan r;
  r.head_bytes = end + 4;
  std::string_view length;
  bool conflicting = false, chunked = false;
  for_each_header(buffer.substr(0, r.head_bytes), [&](std::string_view name, std::string_view value, std::size_t, std::size_t) {
    if (iequals(name, "Content-Length")) {
      if (!length.empty() && length != value) conflicting = true;
      length = value;
    } else if (iequals(name, "Transfer-Encoding")) {
      chunked = true;
    } else if (iequals(name, "Expect") && iequals(value, "100-continue")) {
      r.expect_continue = true;
    }
  });
  if (chunked) return refuse(411, "Transfer-Encoding: a request body needs a Content-Length");
  if (conflicting) return refuse(400, "Content-Length: two headers disagree");
  std::size_t body = 0;
  if (!length.empty()) {
    if (length.size() > 18 || length.find_first_not_of("0123456789") != std::string_view::npos)
      return refuse(400, "Content-Length: \"" + std::string(length.substr(0, 32)) + "\" is not a byte count");
    body = std::stoull(std::string(length));
    if (body > max_body) {
      HeadScan r413 = refuse(413, "the request body is larger than the limit: " + std::to_string(body) +
                                      " bytes (Content-Length) is over the body limit of " + std::to_string(max_body) + " bytes");
      r413.key = "body";
      return r413;
    }
  }
  r.request_bytes = r.head_bytes + body;
  if (buffer.size() >= r.request_bytes) r.state = HeadScan::State::whole;
  return r;
}

std::string without_expect(std::string_view buffer, std::size_t head_bytes) {
  std::string out;
  out.reserve(buffer.size());
  std::size_t kept = 0;
  for_each_header(buffer.substr(0, head_bytes), [&](std::string_view name, std::string_view, std::size_t begin, std::size_t end) {
    if (!iequals(name, "Expect")) return;
    out.append(buffer.substr(kept, begin - kept));
    kept = end;
  });
  out.append(buffer.substr(kept));
  return out;
}

std::string error_body(const std::string& key, const std::string& message) {
  return nlohmann::ordered_json{{"error", message}, {"key", key}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string error_response(int status, const std::string& key, const std::string& error, std::string_view extra_headers) {
  const char* reason = status == 400   ? "Bad Request"
                       : status == 408 ? "Request Timeout"
                       : status == 411 ? "Length Required"
                       : status == 413 ? "Payload Too Large"
                       : status == 431 ? "Request Header Fields Too Large"
                       : status == 503 ? "Service Unavailable"
                                       : "Error";
  const std::string body = error_body(key, error);
  std::string r = "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\nContent-Type: application/json\r\n";
  r.append(extra_headers);
  r += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
  return r;
}

}  // namespace rdmasim::web
