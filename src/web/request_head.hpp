// RequestHead: how much of one HTTP/1.1 request a buffer holds, for `rdmasim serve`'s
// connection gate (connection_gate.hpp), which hands a connection to a worker thread only once
// its request is whole. Pure: no I/O.
//
// A request is whole when its head (request line and headers, ended by an empty line, CRLF
// line ends as HTTP/1.1 requires) and `Content-Length` bytes of body are in the buffer. Refused
// before any body byte is read: a head over `max_head` bytes (431), a Content-Length that is
// not one decimal number or that two headers disagree on (400), a body over `max_body` (413),
// and `Transfer-Encoding` (411: the server takes bodies with a length only, so a body can be
// waited for without a worker). `Expect: 100-continue` is reported, so the gate can answer it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rdmasim::web {

struct HeadScan {
  enum class State { need_more, whole, refused } state = State::need_more;
  std::size_t head_bytes = 0;     // with the empty line; 0 until the head is whole
  std::size_t request_bytes = 0;  // head + body, once the head is whole
  bool expect_continue = false;   // the head asks for "100 Continue"
  int status = 0;                 // refused: 400, 411, 413 or 431
  std::string key;                // refused: the error's key ("body" for 413, else "request")
  std::string error;              // refused: one line naming the header
};

HeadScan scan_request(std::string_view buffer, std::size_t max_head, std::size_t max_body);

/// `buffer` with the head's `Expect` header lines removed (the gate has answered them).
std::string without_expect(std::string_view buffer, std::size_t head_bytes);

/// {"error": message, "key": key} as text: the body of every error the server sends. A message
/// quoting request bytes that are not UTF-8 gets U+FFFD in their place (JSON is UTF-8 only).
std::string error_body(const std::string& key, const std::string& message);

/// A complete HTTP/1.1 response with that body and `Connection: close`; `extra_headers` is
/// inserted as is ("Name: value\r\n" lines).
std::string error_response(int status, const std::string& key, const std::string& error, std::string_view extra_headers);

}  // namespace rdmasim::web
