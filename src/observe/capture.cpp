#include "observe/capture.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/fabric.hpp"
#include "sim/packet_queue.hpp"

namespace rdmasim {
namespace {

constexpr std::uint32_t kPsnMask = 0xFFFFFF;
constexpr std::uint32_t kSwitchMacBase = 0x01000000;  // PFC source MAC: 02:00:01:xx:xx:xx + port id

}  // namespace

Capture::Capture(PcapWriter& out, Options o) : out_(out), opt_(o) {
  if (o.max_frames < 0) throw std::invalid_argument("--pcap-frames must be at least 0");
}

void Capture::add_wire(const FifoServer& wire, const std::string& name, int src, int dst) {
  const std::uint16_t lt = opt_.layer == LinkLayer::ib ? kLinktypeUser0 : kLinktypeEthernet;
  wires_.push_back(Wire{&wire, out_.add_interface(name, lt), src, dst});
}

void Capture::add_port(const Fabric& fabric, int port) {
  if (port_iface_.empty()) port_iface_.assign(static_cast<std::size_t>(fabric.port_count()), -1);
  auto& slot = port_iface_.at(static_cast<std::size_t>(port));
  if (slot >= 0) return;
  const std::uint16_t lt = opt_.layer == LinkLayer::ib ? kLinktypeUser0 : kLinktypeEthernet;
  slot = static_cast<std::int32_t>(out_.add_interface(fabric.port_name(port), lt));
}

int Capture::find_port(const Fabric& fabric, const std::string& name) {
  for (int p = 0; p < fabric.port_count(); ++p)
    if (fabric.port_name(p) == name) return p;
  std::string some;
  for (int p : {fabric.host_port(0), fabric.host_port(0) ^ 1, 2, 3, fabric.port_count() - 1}) {
    if (p < 0 || p >= fabric.port_count()) continue;
    some += (some.empty() ? "" : ", ") + fabric.port_name(p);
  }
  throw std::invalid_argument("--pcap-port: no port \"" + name + "\" in this topology; ports are NODE->PEER, e.g. " +
                              some);
}

void Capture::write(std::uint32_t iface, const CapturedFrame& f) {
  if (static_cast<std::int64_t>(out_.frames_written()) >= opt_.max_frames) {
    ++dropped_;
    return;
  }
  out_.write(iface, f);
}

void Capture::flush_until(Time t) {
  std::size_t n = 0;
  while (n < held_.size() && held_[n].second.at <= t) ++n;
  for (std::size_t i = 0; i < n; ++i) write(held_[i].first, held_[i].second);
  held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(n));
}

void Capture::finish() { flush_until(Time::max()); }

void Capture::fill(CapturedFrame& f, const Packet& p, Time now, int src, int dst, std::uint16_t sport) const {
  const Message& m = *p.msg;
  f.at = now;
  f.kind = static_cast<FrameKind>(m.frame);
  f.pos = p.pos;
  f.payload = p.payload;
  f.layer = opt_.layer;
  f.src_host = static_cast<std::uint32_t>(src);
  f.dst_host = static_cast<std::uint32_t>(dst);
  f.udp_sport = sport;
  f.dest_qp = m.dest_qp;
  f.psn = f.kind == FrameKind::roce_ack ? m.acked_psn : (m.psn + static_cast<std::uint32_t>(p.index)) & kPsnMask;
  if (!p.route) {  // an RC control frame (sim/rc_connection.hpp): a NAK or CNP names its own PSN
    f.psn = p.psn & kPsnMask;
    // A NAK's AETH syndrome: the control frame's Message::tag (sim/rc_connection.cpp), else
    // 0x60, PSN sequence error; an RNR NAK is 0x20 | its min_rnr_timer code.
    if (f.kind == FrameKind::roce_ack) f.syndrome = m.tag ? static_cast<std::uint8_t>(m.tag) : 0x60;
  }
  const bool first = p.pos == FramePos::first || p.pos == FramePos::only;
  const bool last = last_of_message(p);
  const bool request = f.kind == FrameKind::roce_write || f.kind == FrameKind::roce_send ||
                       f.kind == FrameKind::roce_read_request;
  f.ack_req = request && (f.kind == FrameKind::roce_read_request ? last : asks_ack(p, opt_.ack_every));
  f.ecn_ce = p.ce;
  const bool to_responder = (m.dest_qp - kFirstQpn) % 2 == 1;
  if ((f.kind == FrameKind::roce_write && first) || f.kind == FrameKind::roce_read_request) {
    f.remote_va = to_responder ? 0x7f0000100000ULL : 0x7f0000000000ULL;  // as perftest's header
    f.rkey = (to_responder ? 0x2000u : 0x1000u) | (m.dest_qp & 0xFFF);
    f.dma_len = static_cast<std::uint32_t>(m.size.count());
  }
  f.msn = m.msn;
  f.tcp_mss = opt_.tcp_mss;
}

void Capture::wire_start(const FifoServer& wire, const Packet& p, Time now) {
  for (const Wire& w : wires_) {
    if (w.server != &wire) continue;
    CapturedFrame f;
    fill(f, p, now, w.src, w.dst, opt_.udp_sport);
    flush_until(now);
    write(w.iface, f);
    return;
  }
}

void Capture::port_start(int port, const Packet& p, Time now) {
  if (port_iface_.empty() || port_iface_[static_cast<std::size_t>(port)] < 0) return;
  CapturedFrame f;
  fill(f, p, now, p.flow->src, p.flow->dst, p.flow->key.src_port);
  flush_until(now);
  write(static_cast<std::uint32_t>(port_iface_[static_cast<std::size_t>(port)]), f);
}

void Capture::pfc_start(int port, std::uint8_t tc, bool xoff, Time at) {
  if (port_iface_.empty() || port_iface_[static_cast<std::size_t>(port)] < 0) return;
  CapturedFrame f;
  f.at = at;
  f.kind = FrameKind::pfc_pause;
  f.src_host = kSwitchMacBase + static_cast<std::uint32_t>(port);
  f.pfc_classes = static_cast<std::uint8_t>(1u << tc);
  f.pfc_quanta = xoff ? 0xFFFF : 0;
  const auto pos = std::upper_bound(held_.begin(), held_.end(), at,
                                    [](Time t, const auto& h) { return t < h.second.at; });
  held_.insert(pos, {static_cast<std::uint32_t>(port_iface_[static_cast<std::size_t>(port)]), f});
}

}  // namespace rdmasim
