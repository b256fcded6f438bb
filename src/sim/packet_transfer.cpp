#include "sim/packet_transfer.hpp"

#include "core/byte_io.hpp"

#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace rdmasim {

static_assert(std::is_trivially_copyable_v<Packet> && std::is_trivially_copyable_v<Message>,
              "PacketTransfer copies packets and messages as bytes");

void PacketTransfer::write(const Packet& p, std::int32_t flow, std::vector<std::byte>& out) const {
  if (p.pacer || p.trail >= 0) throw std::logic_error("PacketTransfer: a packet crossing ranks still paced or traced");
  Header h;
  h.flow = flow;
  h.routed = p.route ? 1 : 0;
  Message m{};
  if (p.msg) {
    m = *p.msg;
    m.tracer = nullptr;
    m.pins = 0;
    if (const auto it = identity_.find(p.msg); it != identity_.end()) {
      h.origin = it->second->origin;
      h.address = it->second->address;
    } else {
      h.origin = rank_;
      h.address = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p.msg));
    }
  }
  Packet copy = p;
  copy.msg = nullptr;
  copy.next_in_queue = nullptr;  // a stale link (off every queue on a wire)
  copy.flow = nullptr;
  copy.route = nullptr;
  copy.service_owner = nullptr;
  ByteWriter w(out);
  w.put(h);
  w.put(copy);
  w.put(m);
}

PacketTransfer::Header PacketTransfer::header(std::span<const std::byte> image) {
  if (image.size() != kImageBytes) throw std::logic_error("PacketTransfer: an image of the wrong size");
  Header h;
  std::memcpy(&h, image.data(), sizeof h);
  return h;
}

void PacketTransfer::read(std::span<const std::byte> image, Packet& p, int responder) {
  const Header h = header(image);  // (its size checked)
  ByteReader r(image.subspan(sizeof h));
  p = r.get<Packet>();
  const Message m = r.get<Message>();
  p.msg = h.origin < 0 ? nullptr : &resolve(h, m, responder);
  if (p.pinned && p.msg && h.origin != rank_) ++p.msg->pins;  // the shadow's (the original kept its own)
}

Message& PacketTransfer::resolve(const Header& h, const Message& image, int responder) {
  if (h.origin == rank_) {  // the original: a later split (its ACK's), and the responder's CE count from its rank
    Message& m = *reinterpret_cast<Message*>(static_cast<std::uintptr_t>(h.address));
    if (m.id != image.id) throw std::logic_error("PacketTransfer: a frame came home to a message recycled meanwhile");
    if (image.splits > m.splits) m.packets = image.packets, m.splits = image.splits;
    if (responder != rank_) m.rc_ce = image.rc_ce;
    return m;
  }
  auto [it, fresh] = shadows_.try_emplace({h.origin, h.address}, nullptr);
  if (fresh) {
    it->second = &storage_.emplace_back(Shadow{image, h.origin, h.address});
    identity_.emplace(&it->second->m, it->second);
  }
  Message& s = it->second->m;
  const Message own = s;
  s = image;
  if (!fresh && own.id == image.id) {  // the same message: this rank's merge goes on, its marks stay
    s.arrived = own.arrived;
    s.next_index = own.next_index;
    if (own.splits > image.splits) s.packets = own.packets, s.splits = own.splits;  // a resend from before this rank's split
    if (responder == rank_) s.rc_ce = own.rc_ce;
  }
  s.pins = fresh ? 0 : own.pins;
  s.tracer = nullptr;
  return s;
}

}  // namespace rdmasim
