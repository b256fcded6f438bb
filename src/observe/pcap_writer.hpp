// Packet capture of simulated frames: the real bytes of each frame, written as pcapng.
//
// build_frame() lays out a frame as a capture shows it (no preamble, FCS or inter-frame gap):
//   RoCEv2: Ethernet II | IPv4 (DSCP 26, ECN ECT(0) or CE, DF, TTL 64, valid checksum) |
//           UDP (dport 4791, checksum 0) | BTH | [RETH | AETH] | payload | pad | ICRC,
//           zero-padded to the 60 B Ethernet minimum (64 B with the FCS).
//   InfiniBand (LINKTYPE_INFINIBAND): LRH | BTH | [RETH | AETH] | payload | pad | ICRC | VCRC.
//   TCP: Ethernet II | IPv4 (proto 6) | TCP 20 + NOP,NOP,timestamps 12 (valid checksum) |
//        payload, padded to 60 B; the link layer is ignored (always Ethernet, as in wire_format).
//   PFC (pfc_pause): an 802.1Qbb MAC control frame, always Ethernet: destination
//        01:80:c2:00:00:01, EtherType 0x8808, opcode 0x0101, class-enable vector (pfc_classes),
//        eight 16-bit pause times (pfc_quanta for each enabled class, 0 for the others; 0 is
//        XON), zero-padded to 60 B.
// Extension headers follow the RC opcodes exactly as wire_format.hpp counts them, so
// build_frame().size() + preamble 8 + FCS 4 + IFG 12 == frame_wire_bytes() for Ethernet frames
// and build_frame().size() == frame_wire_bytes() for InfiniBand. READ requests and ACKs carry no
// payload: build_frame rejects a non-zero payload for them.
//
// The ICRC is the real one: CRC-32 (reflected 0xEDB88320, init/xorout 0xFFFFFFFF, appended
// least significant byte first) over the packet with its variant fields set to ones — for
// RoCEv2 an all-ones 8-byte LRH stand-in, IPv4 TOS/TTL/checksum, UDP checksum and BTH byte 4
// (IBA Annex A17, Linux rxe_icrc.c); for InfiniBand the real LRH with VL set to ones, and BTH
// byte 4. The RoCEv2 ICRC matches a ConnectX-4 Lx capture (test). The VCRC is CRC-16 with
// polynomial 0x100B (reflected 0xD008, init/xorout 0xFFFF) over LRH..ICRC, appended least
// significant byte first; no hardware capture was at hand to confirm its byte order.
// tshark 4.0 decodes the Ethernet frames as RRoCE; its RPC-over-RDMA heuristic marks SEND
// payloads shorter than 16 B with pad "Malformed" (--disable-protocol rpcordma silences it).
//
// Addresses derive from host ids: MAC 02:00:hh:hh:hh:hh (the 32-bit id), IPv4 10.0.0.0 + id + 1
// (host 0 is 10.0.0.1; ids up to 2^24 - 3), IB LID id + 1 (ids up to 0xBFFE, unicast LIDs).
// Payload bytes are a deterministic pattern, (psn + i) mod 256.
//
// PcapWriter streams pcapng to "<path>.tmp" and renames it to <path> in close(); destroying a
// writer that was never closed removes the .tmp file and publishes nothing. All I/O failures
// throw std::runtime_error naming the path. One member buffer is reused for every frame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "net/packet.hpp"
#include "net/wire_format.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/units.hpp"

namespace rdmasim {

struct CapturedFrame {
  Time at{};                           // capture time (pcapng keeps nanoseconds: ps / 1000)
  FrameKind kind = FrameKind::roce_write;
  FramePos pos = FramePos::only;
  Bytes payload{};
  LinkLayer layer = LinkLayer::roce;
  std::uint32_t src_host = 0, dst_host = 1;
  std::uint16_t udp_sport = 49152;     // RoCEv2 entropy; the TCP source port for tcp_segment
  std::uint32_t dest_qp = 0x11;        // 24 bits
  std::uint32_t psn = 0;               // 24 bits (TCP: sequence number = psn * tcp_mss)
  bool ack_req = false;
  bool ecn_ce = false;                 // IPv4 ECN CE (else ECT(0)); InfiniBand: BTH FECN
  std::uint64_t remote_va = 0;         // RETH
  std::uint32_t rkey = 0;              // RETH
  std::uint32_t dma_len = 0;           // RETH
  std::uint32_t msn = 0;               // AETH, 24 bits
  std::uint8_t syndrome = 0x1F;        // AETH: 0x1F ACK (invalid credit count), 0x60 NAK PSN sequence error
  std::uint32_t tcp_mss = 1448;        // TCP only
  std::uint8_t pfc_classes = 0;        // PFC: class-enable vector (bit i = priority i)
  std::uint16_t pfc_quanta = 0;        // PFC: pause time of the enabled classes (512-bit times)
};

inline constexpr std::uint16_t kLinktypeEthernet = 1;
inline constexpr std::uint16_t kLinktypeInfiniband = 247;  // LINKTYPE_INFINIBAND (see below)
inline constexpr std::uint16_t kLinktypeUser0 = 147;        // LINKTYPE_USER0 .. USER15 = 162
inline constexpr std::uint16_t kRoceV2Port = 4791;
inline constexpr std::uint16_t kTcpDestPort = 18515;  // perftest's default port

inline constexpr std::uint16_t kEtherTypeMacControl = 0x8808;
inline constexpr std::uint16_t kPfcOpcode = 0x0101;

/// BTH opcode of an RC frame (IBA table 38); tcp_segment and pfc_pause have none (throws).
std::uint8_t bth_opcode(FrameKind kind, FramePos pos);

/// Link type of the capture interface a frame belongs on (Ethernet or InfiniBand).
std::uint16_t frame_linktype(const CapturedFrame& f);
/// Whether an interface of `linktype` takes the frame: its own link type, or for InfiniBand
/// frames also a user link type 147..162. (Wireshark 4.0 does not map LINKTYPE_INFINIBAND 247
/// to its InfiniBand dissector; a USER0 interface decodes with
/// tshark -o 'uat:user_dlts:"User 0 (DLT=147)","infiniband","0","","0",""'.)
bool interface_accepts(std::uint16_t linktype, const CapturedFrame& f);

/// Writes the frame's bytes into `out` (cleared first; its capacity is reused) and returns
/// the length. Throws std::invalid_argument for a negative payload, a payload on a READ
/// request, ACK or PFC frame, or a frame too long for IPv4 / the LRH packet length.
std::size_t build_frame(const CapturedFrame& f, std::vector<std::uint8_t>& out);

/// Standard CRC-32 (as zlib's crc32) continued from `crc` (start with 0).
std::uint32_t crc32_update(std::uint32_t crc, const std::uint8_t* data, std::size_t n);
/// RoCEv2 ICRC of an IPv4 packet: `n` bytes from the IPv4 header (20 B, no options) through
/// the BTH pad, ICRC excluded. Appended to the packet least significant byte first.
std::uint32_t rocev2_icrc(const std::uint8_t* ip, std::size_t n);
/// InfiniBand ICRC of `n` bytes from the LRH (no GRH) through the pad, ICRC excluded.
std::uint32_t ib_icrc(const std::uint8_t* lrh, std::size_t n);
/// InfiniBand VCRC of `n` bytes from the LRH through the ICRC.
std::uint16_t ib_vcrc(const std::uint8_t* lrh, std::size_t n);

class PcapWriter {
 public:
  /// Opens "<path>.tmp". `snaplen` limits the captured bytes per frame (0 = unlimited); the
  /// original length always records the whole frame.
  explicit PcapWriter(std::string path, std::uint32_t snaplen = 262144);
  ~PcapWriter();
  PcapWriter(const PcapWriter&) = delete;
  PcapWriter& operator=(const PcapWriter&) = delete;

  /// Writes an Interface Description Block (if_name, if_tsresol = 9) and returns its id.
  std::uint32_t add_interface(std::string_view name, std::uint16_t linktype);
  /// Writes one Enhanced Packet Block. Throws std::invalid_argument for an unknown interface,
  /// a frame the interface does not accept (interface_accepts), or a negative time.
  void write(std::uint32_t interface_id, const CapturedFrame& f);
  /// Flushes, closes and renames the .tmp file onto the path. Idempotent.
  void close();

  const std::string& path() const { return path_; }
  std::uint64_t frames_written() const { return frames_; }

 private:
  void put(const void* data, std::size_t n);
  void require_open() const;

  std::string path_, tmp_path_;
  std::FILE* file_ = nullptr;
  std::uint32_t snaplen_ = 0;
  std::vector<std::uint16_t> linktypes_;
  std::vector<std::uint8_t> frame_;   // reused for every frame
  std::vector<std::uint8_t> block_;   // reused for block headers and options
  std::uint64_t frames_ = 0;
};

}  // namespace rdmasim
