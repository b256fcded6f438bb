#include "workload/export_scope.hpp"

#include <stdexcept>

#include "observe/capture.hpp"
#include "workload/run_probe.hpp"

namespace rdmasim {

ExportScope::ExportScope(Exports* x, SimWorld& w, const LatConfig& c) : x_(x), w_(w), c_(c) {
  if (!x_) return;
  const bool fabric = c.topology == LatTopology::fabric;
  if (x_->pcap() && c.topology == LatTopology::loopback)
    throw std::invalid_argument("--pcap: the loopback topology has no wire to capture");
  if (!x_->options().pcap_ports.empty() && !fabric)
    throw std::invalid_argument("--pcap-port needs a switched --topology (back to back: both wires are captured)");
  if (x_->trace()) {
    Tracer::Options o;
    o.max_messages = x_->options().trace_messages;
    tracer_ = std::make_unique<Tracer>(*x_->trace(), o);
    w_.ctx.tracer = tracer_.get();
  }
  if (x_->pcap()) {
    Capture::Options o;
    o.layer = c.transport == Transport::tcp ? LinkLayer::roce : c.link_layer;
    o.tcp_mss = static_cast<std::uint32_t>(c.profile.tcp.mss.count());
    o.udp_sport = c.fabric.udp_sport;
    o.ack_every = c.profile.rc.ack_interval();
    o.max_frames = x_->options().pcap_frames;
    capture_ = std::make_unique<Capture>(*x_->pcap(), o);
    w_.ctx.tap = capture_.get();
  }
}

ExportScope::~ExportScope() {
  // The world may outlive the scope: leave nothing pointing at it.
  w_.ctx.tracer = nullptr;
  w_.ctx.tap = nullptr;
  if (w_.fabric) w_.fabric->attach(nullptr, nullptr);
  if (probing_) x_->probe()->detach(w_);
}

void ExportScope::add_host(HostResources& h, int host) {
  hosts_.emplace_back(&h, host);
  if (!tracer_) return;
  if (c_.topology == LatTopology::fabric) {
    std::string name = "h";  // (not "h" + to_string: a GCC 12 -Wrestrict false positive)
    name += std::to_string(host);
    tracer_->add_host(h, host, std::move(name));
  } else {
    tracer_->add_host(h, host, host == 0 ? "host A" : "host B");
  }
}

void ExportScope::add_pair() {
  const bool fabric = c_.topology == LatTopology::fabric;
  add_host(w_.a, fabric ? c_.fabric.from : 0);
  add_host(w_.b, fabric ? c_.fabric.to : 1);
}

void ExportScope::start(int client) {
  if (!x_) return;
  if (x_->probe() && !probing_) {
    x_->probe()->attach(w_);
    probing_ = true;
  }
  if (w_.fabric) {
    w_.fabric->attach(tracer_.get(), capture_.get());
    if (capture_) {
      const auto& names = x_->options().pcap_ports;
      if (names.empty()) {
        if (client < 0 || client >= w_.fabric->topology().host_count())
          throw std::invalid_argument("--pcap: the client h" + std::to_string(client) + " is not a host of this topology");
        const int port = w_.fabric->host_port(client);
        capture_->add_port(*w_.fabric, port);
        capture_->add_port(*w_.fabric, port ^ 1);
      }
      for (const std::string& n : names) capture_->add_port(*w_.fabric, Capture::find_port(*w_.fabric, n));
    }
    return;
  }
  if (capture_)
    for (const auto& [h, host] : hosts_)
      capture_->add_wire(h->wire, host == 0 ? "host A wire" : "host B wire", host, 1 - host);
}

void ExportScope::finish() {
  if (!x_) return;
  if (tracer_) {
    tracer_->finish();
    if (tracer_->violations() != 0)
      throw std::logic_error("trace: a traced message's steps do not add up to its end-to-end time");
    x_->stats.messages_traced = tracer_->messages_written();
    if (x_->options().hop_ledger) x_->stats.hops = tracer_->hop_ledger();
  }
  if (capture_) {
    capture_->finish();
    x_->stats.frames_captured = capture_->frames_written();
    x_->stats.frames_dropped = capture_->frames_dropped();
  }
}

}  // namespace rdmasim
