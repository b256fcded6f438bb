// GatedServer: an httplib server whose connections wait in a ConnectionGate
// (connection_gate.hpp) until a whole request has arrived, and only then take one of `threads`
// worker threads for as long as the request's handling and response last (an SSE stream: its
// whole life). httplib's own loop holds a thread per connection from accept to close, so slow
// or idle clients could occupy every thread; here they hold only a file descriptor.
//
// httplib parses the request from the gate's bytes and writes the response to the socket (a
// write gives up after the server's write timeout); a kept-alive connection then goes back to
// the gate with any bytes read past its request.
#pragma once

#include <httplib.h>

#include <memory>
#include <string>

#include "web/connection_gate.hpp"

namespace rdmasim::web {

class GatedServer final : public httplib::Server {
 public:
  GatedServer(ConnectionGate::Options gate, int threads);
  ~GatedServer() override;
  /// After stop(): closes the held connections and joins the workers (once).
  void stop_gate();
  const ConnectionGate& gate() const { return *gate_; }
  /// The server's answer to one whole request, without a socket (the HTTP fuzz target); sets
  /// `*read` to the request bytes httplib consumed.
  std::string answer(const std::string& request, std::size_t* read = nullptr);

 private:
  bool process_and_close_socket(socket_t sock) override;  // httplib's accept loop calls it
  void serve(int fd, std::string bytes);

  std::unique_ptr<httplib::ThreadPool> workers_;
  std::unique_ptr<ConnectionGate> gate_;
  bool stopped_ = false;
};

}  // namespace rdmasim::web
