#include "net/wire_format.hpp"

namespace rdmasim {

Bytes frame_wire_bytes(FrameKind kind, FramePos pos, Bytes payload, LinkLayer layer) {
  using H = HeaderSizes;
  const std::int64_t p = payload.count();
  if (kind == FrameKind::pfc_pause) return Bytes(H::preamble_sfd + H::min_eth_frame + H::ifg);
  if (kind == FrameKind::tcp_segment) {
    std::int64_t frame = H::eth + H::ipv4 + H::tcp + H::tcp_timestamps + p + H::fcs;
    if (frame < H::min_eth_frame) frame = H::min_eth_frame;
    return Bytes(H::preamble_sfd + frame + H::ifg);
  }
  std::int64_t ext = 0;
  const bool first = pos == FramePos::first || pos == FramePos::only;
  const bool last = pos == FramePos::last || pos == FramePos::only;
  switch (kind) {
    case FrameKind::roce_write: ext = first ? H::reth : 0; break;
    case FrameKind::roce_send: ext = 0; break;
    case FrameKind::roce_read_request: ext = H::reth; break;
    case FrameKind::roce_read_response: ext = (first || last) ? H::aeth : 0; break;
    case FrameKind::roce_ack: ext = H::aeth; break;
    case FrameKind::roce_cnp: ext = H::cnp; break;
    case FrameKind::tcp_segment: case FrameKind::pfc_pause: break;
  }
  const std::int64_t padded = (p + 3) / 4 * 4;  // BTH PadCnt
  const std::int64_t transport = H::bth + ext + padded + H::icrc;
  if (layer == LinkLayer::ib) return Bytes(H::lrh + transport + H::vcrc);
  std::int64_t frame = H::eth + H::ipv4 + H::udp + transport + H::fcs;
  if (frame < H::min_eth_frame) frame = H::min_eth_frame;
  return Bytes(H::preamble_sfd + frame + H::ifg);
}

Bytes message_wire_bytes(FrameKind kind, Bytes size, Bytes segment, LinkLayer layer) {
  const std::int32_t n = packet_count(size, segment);
  Bytes total{};
  for (std::int32_t i = 0; i < n; ++i)
    total += frame_wire_bytes(kind, frame_pos(i, n), packet_payload(size, segment, i), layer);
  return total;
}

}  // namespace rdmasim
