// Wire formats: how many bytes a packet occupies on the wire, from the real headers.
//
// RoCEv2: preamble+SFD 8 | Ethernet 14 | IPv4 20 | UDP 8 | BTH 12 | [RETH 16 | AETH 4] |
//         payload padded to 4 B (BTH PadCnt) | ICRC 4 | FCS 4 | inter-frame gap 12,
//         with the Ethernet frame (header..FCS) padded to the 64 B minimum.
// InfiniBand: LRH 8 | BTH 12 | [RETH | AETH] | payload padded to 4 B | ICRC 4 | VCRC 2
//         (local subnet, no GRH; link-level delimiters/idles are not counted).
// TCP over Ethernet: preamble 8 | Ethernet 14 | IPv4 20 | TCP 20 + timestamps 12 | payload |
//         FCS 4 | IFG 12, 64 B minimum frame.
// Extension headers follow the RC opcodes: WRITE First/Only carry RETH; READ Request carries
// RETH and no payload; READ Response First/Last/Only carry AETH; SEND carries none; an
// ACKNOWLEDGE carries AETH and no payload. A PFC frame (802.1Qbb MAC control, pfc_pause) is a
// minimum Ethernet frame on any link layer: 64 B + preamble/SFD 8 + IFG 12 = 84 B.
#pragma once

#include <cstdint>

#include "net/packet.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

enum class FrameKind : std::uint8_t {
  roce_write, roce_send, roce_read_request, roce_read_response, roce_ack, tcp_segment, pfc_pause,
  roce_cnp  // RoCEv2 congestion notification packet (BTH opcode 0x81, 16 reserved bytes)
};

struct HeaderSizes {
  static constexpr std::int64_t preamble_sfd = 8, ifg = 12, eth = 14, fcs = 4, ipv4 = 20, udp = 8;
  static constexpr std::int64_t bth = 12, reth = 16, aeth = 4, icrc = 4, lrh = 8, vcrc = 2, cnp = 16;
  static constexpr std::int64_t tcp = 20, tcp_timestamps = 12, min_eth_frame = 64;
};

/// Bytes on the wire for one packet carrying `payload` bytes at position `pos` of its message.
Bytes frame_wire_bytes(FrameKind kind, FramePos pos, Bytes payload, LinkLayer layer);

/// Header/trailer bytes (everything but payload) for that packet.
inline Bytes frame_overhead(FrameKind kind, FramePos pos, Bytes payload, LinkLayer layer) {
  return frame_wire_bytes(kind, pos, payload, layer) - payload;
}

/// Position of packet `index` among `count` packets.
constexpr FramePos frame_pos(std::int32_t index, std::int32_t count) {
  if (count == 1) return FramePos::only;
  if (index == 0) return FramePos::first;
  return index == count - 1 ? FramePos::last : FramePos::middle;
}

/// Number of packets a message of `size` needs with `segment` payload bytes per packet
/// (a zero-payload READ request is one packet).
constexpr std::int32_t packet_count(Bytes size, Bytes segment) {
  if (size.count() <= 0) return 1;
  return static_cast<std::int32_t>((size.count() + segment.count() - 1) / segment.count());
}

/// Payload of packet `index` of a message of `size` cut into `segment`-byte packets.
constexpr Bytes packet_payload(Bytes size, Bytes segment, std::int32_t index) {
  const std::int64_t start = static_cast<std::int64_t>(index) * segment.count();
  const std::int64_t left = size.count() - start;
  return Bytes(left < segment.count() ? (left > 0 ? left : 0) : segment.count());
}

/// Total wire bytes of a whole message.
Bytes message_wire_bytes(FrameKind kind, Bytes size, Bytes segment, LinkLayer layer);

}  // namespace rdmasim
