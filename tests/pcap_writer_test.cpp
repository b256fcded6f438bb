#include "observe/pcap_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace rdmasim;
namespace fs = std::filesystem;

namespace {

constexpr FrameKind kKinds[] = {FrameKind::roce_write, FrameKind::roce_send, FrameKind::roce_read_request,
                                FrameKind::roce_read_response, FrameKind::roce_ack, FrameKind::tcp_segment,
                                FrameKind::pfc_pause};
constexpr FramePos kPositions[] = {FramePos::only, FramePos::first, FramePos::middle, FramePos::last};

std::uint32_t be16(const std::vector<std::uint8_t>& b, std::size_t at) { return b[at] << 8 | b[at + 1]; }
std::uint32_t be24(const std::vector<std::uint8_t>& b, std::size_t at) { return b[at] << 16 | be16(b, at + 1); }
std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at) { return be16(b, at) << 16 | be16(b, at + 2); }
std::uint32_t le32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | static_cast<std::uint32_t>(b[at + 3]) << 24;
}
// One's complement sum over [at, at+n) folded: 0xFFFF when the checksum in it is right.
std::uint32_t folded_sum(const std::vector<std::uint8_t>& b, std::size_t at, std::size_t n, std::uint32_t sum = 0) {
  for (std::size_t i = 0; i < n; i += 2) sum += b[at + i] << 8 | (i + 1 < n ? b[at + i + 1] : 0);
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return sum;
}

std::vector<std::uint8_t> frame_of(const CapturedFrame& f) {
  std::vector<std::uint8_t> out;
  build_frame(f, out);
  return out;
}

fs::path temp_file(const std::string& name) {
  return fs::path(::testing::TempDir()) / ("rdmasim_" + std::to_string(::getpid()) + "_" + name);
}

std::vector<std::uint8_t> read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

// The bytes a capture shows plus preamble, FCS and inter-frame gap are the bytes wire_format
// charges on the wire, for every kind, position, link layer and payload size.
TEST(PcapFrame, LengthAgreesWithWireFormat) {
  for (FrameKind kind : kKinds) {
    for (FramePos pos : kPositions) {
      for (LinkLayer layer : {LinkLayer::roce, LinkLayer::ib}) {
        for (std::int64_t p : {0, 1, 3, 4, 1024, 4096}) {
          CapturedFrame f;
          f.kind = kind; f.pos = pos; f.layer = layer; f.payload = Bytes(p);
          std::vector<std::uint8_t> out;
          if (p > 0 && (kind == FrameKind::roce_read_request || kind == FrameKind::roce_ack ||
                        kind == FrameKind::pfc_pause)) {
            EXPECT_THROW(build_frame(f, out), std::invalid_argument);  // these carry no payload
            continue;
          }
          const std::size_t n = build_frame(f, out);
          ASSERT_EQ(n, out.size());
          const bool eth = kind == FrameKind::tcp_segment || kind == FrameKind::pfc_pause || layer == LinkLayer::roce;
          const std::int64_t extra = eth ? HeaderSizes::preamble_sfd + HeaderSizes::fcs + HeaderSizes::ifg : 0;
          EXPECT_EQ(Bytes(static_cast<std::int64_t>(n) + extra), frame_wire_bytes(kind, pos, Bytes(p), layer))
              << "kind " << int(kind) << " pos " << int(pos) << " ib " << (layer == LinkLayer::ib) << " payload " << p;
          EXPECT_TRUE(!eth || n >= 60u);  // Ethernet minimum without FCS
        }
      }
    }
  }
}

TEST(PcapFrame, Opcodes) {
  struct Case { FrameKind kind; FramePos pos; int opcode; };
  const Case cases[] = {
      {FrameKind::roce_write, FramePos::first, 0x06},         {FrameKind::roce_write, FramePos::middle, 0x07},
      {FrameKind::roce_write, FramePos::last, 0x08},          {FrameKind::roce_write, FramePos::only, 0x0A},
      {FrameKind::roce_send, FramePos::first, 0x00},          {FrameKind::roce_send, FramePos::middle, 0x01},
      {FrameKind::roce_send, FramePos::last, 0x02},           {FrameKind::roce_send, FramePos::only, 0x04},
      {FrameKind::roce_read_request, FramePos::only, 0x0C},   {FrameKind::roce_read_response, FramePos::first, 0x0D},
      {FrameKind::roce_read_response, FramePos::middle, 0x0E}, {FrameKind::roce_read_response, FramePos::last, 0x0F},
      {FrameKind::roce_read_response, FramePos::only, 0x10},  {FrameKind::roce_ack, FramePos::only, 0x11}};
  for (const Case& c : cases) {
    EXPECT_EQ(bth_opcode(c.kind, c.pos), c.opcode);
    CapturedFrame f;
    f.kind = c.kind; f.pos = c.pos;
    EXPECT_EQ(frame_of(f)[42], c.opcode);  // Ethernet 14 + IPv4 20 + UDP 8
    f.layer = LinkLayer::ib;
    EXPECT_EQ(frame_of(f)[8], c.opcode);   // LRH 8
  }
  EXPECT_THROW(bth_opcode(FrameKind::tcp_segment, FramePos::only), std::invalid_argument);
  CapturedFrame negative;
  negative.payload = Bytes(-1);
  EXPECT_THROW(frame_of(negative), std::invalid_argument);
}

TEST(PcapFrame, RoceWriteFirstByteByByte) {
  CapturedFrame f;
  f.kind = FrameKind::roce_write; f.pos = FramePos::first; f.payload = Bytes(1025);
  f.src_host = 3; f.dst_host = 0x0102; f.udp_sport = 0xC123; f.dest_qp = 0xABCDEF; f.psn = 0x123456;
  f.ack_req = true; f.remote_va = 0x1122334455667788ULL; f.rkey = 0xCAFEBABE; f.dma_len = 65536;
  const auto b = frame_of(f);
  ASSERT_EQ(b.size(), 14u + 20 + 8 + 12 + 16 + 1028 + 4);
  const std::vector<std::uint8_t> dst_mac = {0x02, 0x00, 0x00, 0x00, 0x01, 0x02}, src_mac = {0x02, 0, 0, 0, 0, 3};
  EXPECT_TRUE(std::equal(dst_mac.begin(), dst_mac.end(), b.begin()));
  EXPECT_TRUE(std::equal(src_mac.begin(), src_mac.end(), b.begin() + 6));
  EXPECT_EQ(be16(b, 12), 0x0800u);
  // IPv4
  EXPECT_EQ(b[14], 0x45);
  EXPECT_EQ(b[15], 26 << 2 | 0x2);  // DSCP 26, ECT(0)
  EXPECT_EQ(be16(b, 16), b.size() - 14);
  EXPECT_EQ(be16(b, 20), 0x4000u);  // DF
  EXPECT_EQ(b[22], 64); EXPECT_EQ(b[23], 17);  // TTL, protocol UDP
  EXPECT_EQ(folded_sum(b, 14, 20), 0xFFFFu);  // header checksum verifies
  EXPECT_EQ(be32(b, 26), 0x0A000004u);        // 10.0.0.4 = host 3
  EXPECT_EQ(be32(b, 30), 0x0A000103u);        // 10.0.1.3 = host 0x102
  // UDP
  EXPECT_EQ(be16(b, 34), 0xC123u); EXPECT_EQ(be16(b, 36), 4791u);
  EXPECT_EQ(be16(b, 38), b.size() - 34); EXPECT_EQ(be16(b, 40), 0u);  // length, checksum 0
  // BTH
  EXPECT_EQ(b[42], 0x06);
  EXPECT_EQ(b[43], 3 << 4);  // PadCnt 3, SE 0, M 0, TVer 0
  EXPECT_EQ(be16(b, 44), 0xFFFFu); EXPECT_EQ(b[46], 0);   // P_Key, reserved
  EXPECT_EQ(be24(b, 47), 0xABCDEFu);                      // DestQP
  EXPECT_EQ(b[50], 0x80); EXPECT_EQ(be24(b, 51), 0x123456u);  // AckReq, PSN
  // RETH
  EXPECT_EQ(be32(b, 54), 0x11223344u); EXPECT_EQ(be32(b, 58), 0x55667788u);  // VA
  EXPECT_EQ(be32(b, 62), 0xCAFEBABEu); EXPECT_EQ(be32(b, 66), 65536u);       // R_Key, DMA length
  // payload pattern, pad, ICRC
  EXPECT_EQ(b[70], 0x56); EXPECT_EQ(b[71], 0x57);
  EXPECT_EQ(b[70 + 1024], static_cast<std::uint8_t>(0x56 + 1024));
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(b[70 + 1024 + i], 0);
  EXPECT_EQ(le32(b, b.size() - 4), rocev2_icrc(b.data() + 14, b.size() - 14 - 4));
}

TEST(PcapFrame, EcnCeAndIcrcMasksIt) {
  CapturedFrame f;
  f.kind = FrameKind::roce_send; f.payload = Bytes(8);
  const auto ect = frame_of(f);
  f.ecn_ce = true;
  const auto ce = frame_of(f);
  EXPECT_EQ(ect[15] & 0x3, 0x2); EXPECT_EQ(ce[15] & 0x3, 0x3); EXPECT_EQ(ce[15] >> 2, 26);
  EXPECT_EQ(folded_sum(ce, 14, 20), 0xFFFFu);
  // TOS and the IPv4 checksum are variant: the ICRC does not change.
  EXPECT_EQ(le32(ce, ce.size() - 4), le32(ect, ect.size() - 4));
  f.psn = 1;
  EXPECT_NE(le32(frame_of(f), ce.size() - 4), le32(ce, ce.size() - 4));
}

TEST(PcapFrame, AckAndReadResponseHeaders) {
  CapturedFrame f;
  f.kind = FrameKind::roce_ack; f.msn = 0x0A0B0C; f.psn = 77;
  auto b = frame_of(f);
  ASSERT_EQ(b.size(), 62u);
  EXPECT_EQ(b[42], 0x11);
  EXPECT_EQ(b[43], 0);
  EXPECT_EQ(b[54], 0x1F);  // AETH syndrome: ACK, invalid credit count
  EXPECT_EQ(be24(b, 55), 0x0A0B0Cu);
  f.kind = FrameKind::roce_read_response; f.pos = FramePos::middle; f.payload = Bytes(4);
  b = frame_of(f);
  EXPECT_EQ(b[42], 0x0E);
  EXPECT_EQ(b[54], 77);  // payload starts right after the BTH: no AETH in a middle packet
  f.pos = FramePos::last;
  b = frame_of(f);
  EXPECT_EQ(b[42], 0x0F);
  EXPECT_EQ(be24(b, 55), 0x0A0B0Cu);
}

TEST(PcapFrame, ShortFramePaddedTo60) {
  CapturedFrame f;
  f.kind = FrameKind::roce_send; f.payload = Bytes(0);
  const auto b = frame_of(f);
  ASSERT_EQ(b.size(), 60u);
  EXPECT_EQ(be16(b, 16), 20u + 8 + 12 + 4);  // IPv4 length excludes the Ethernet padding
  EXPECT_EQ(le32(b, 54), rocev2_icrc(b.data() + 14, 40));
  EXPECT_EQ(b[58], 0); EXPECT_EQ(b[59], 0);
}

// A CNP captured on a ConnectX-4 Lx (from Scapy's RoCE tests): the ICRC on the wire is
// 82 fd 00 2a, and it covers BECN (BTH byte 4 = 0x40) as a masked field.
TEST(PcapFrame, IcrcMatchesHardwareCapture) {
  const std::vector<std::uint8_t> ip = {
      0x45, 0xc2, 0x00, 0x3c, 0x71, 0x8c, 0x40, 0x00, 0x40, 0x11, 0x91, 0x61, 0x0a, 0x00, 0x11, 0x01,
      0x0a, 0x00, 0x12, 0x01, 0x00, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00, 0x81, 0x00, 0xff, 0xff,
      0x40, 0x00, 0x01, 0x18, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(rocev2_icrc(ip.data(), ip.size()), 0x2a00fd82u);
  const std::uint8_t check[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(crc32_update(0, check, 9), 0xCBF43926u);  // the CRC-32 check value
}

TEST(PcapFrame, InfinibandNative) {
  CapturedFrame f;
  f.layer = LinkLayer::ib; f.kind = FrameKind::roce_write; f.pos = FramePos::only; f.payload = Bytes(6);
  f.src_host = 4; f.dst_host = 9; f.dest_qp = 0x42; f.psn = 5; f.ecn_ce = true;
  const auto b = frame_of(f);
  ASSERT_EQ(b.size(), 8u + 12 + 16 + 8 + 4 + 2);
  EXPECT_EQ(b[0], 0x00);        // VL 0, LVer 0
  EXPECT_EQ(b[1] & 0x3, 0x2);   // LNH: BTH follows
  EXPECT_EQ(be16(b, 2), 10u);   // DLID
  EXPECT_EQ(be16(b, 4), (b.size() - 2) / 4);  // PktLen: LRH..ICRC in words
  EXPECT_EQ(be16(b, 6), 5u);    // SLID
  EXPECT_EQ(b[8], 0x0A); EXPECT_EQ(b[9], 2 << 4);  // opcode, PadCnt
  EXPECT_EQ(b[12], 0x80);                          // FECN
  EXPECT_EQ(be24(b, 13), 0x42u); EXPECT_EQ(be24(b, 17), 5u);
  EXPECT_EQ(le32(b, b.size() - 6), ib_icrc(b.data(), b.size() - 6));
  EXPECT_EQ(b[b.size() - 2] | b[b.size() - 1] << 8, ib_vcrc(b.data(), b.size() - 2));
  f.ecn_ce = false;  // FECN is variant: same ICRC, different VCRC
  const auto c = frame_of(f);
  EXPECT_EQ(le32(c, c.size() - 6), le32(b, b.size() - 6));
  EXPECT_NE(be16(c, c.size() - 2), be16(b, b.size() - 2));
}

TEST(PcapFrame, TcpSegment) {
  CapturedFrame f;
  f.kind = FrameKind::tcp_segment; f.payload = Bytes(100); f.psn = 3; f.udp_sport = 40000;
  f.at = Time::ms(7);
  const auto b = frame_of(f);
  ASSERT_EQ(b.size(), 14u + 20 + 32 + 100);
  EXPECT_EQ(b[23], 6);
  EXPECT_EQ(folded_sum(b, 14, 20), 0xFFFFu);
  EXPECT_EQ(be16(b, 34), 40000u);
  EXPECT_EQ(be32(b, 38), 3u * 1448);
  EXPECT_EQ(b[46] >> 4, 8);  // data offset: 32 bytes
  EXPECT_EQ(b[54], 1); EXPECT_EQ(b[55], 1); EXPECT_EQ(b[56], 8); EXPECT_EQ(b[57], 10);
  EXPECT_EQ(be32(b, 58), 7u);  // TSval in ms
  const std::uint32_t pseudo = folded_sum(b, 26, 8) + 6 + 132;
  EXPECT_EQ(folded_sum(b, 34, 132, pseudo), 0xFFFFu);  // TCP checksum verifies
}

// An 802.1Qbb PFC frame: MAC control to 01:80:c2:00:00:01, opcode 0x0101, the class-enable
// vector and eight pause times (only the enabled classes' are set), 60 B without FCS; an
// Ethernet frame even on an InfiniBand run.
TEST(PcapFrame, PfcPauseFrame) {
  CapturedFrame f;
  f.kind = FrameKind::pfc_pause;
  f.layer = LinkLayer::ib;
  f.src_host = 0x01000007;
  f.pfc_classes = 0x09;  // classes 0 and 3
  f.pfc_quanta = 0xFFFF;
  const auto b = frame_of(f);
  ASSERT_EQ(b.size(), 60u);
  const std::vector<std::uint8_t> dst = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01}, src = {0x02, 0x00, 0x01, 0x00, 0x00, 0x07};
  EXPECT_TRUE(std::equal(dst.begin(), dst.end(), b.begin()));
  EXPECT_TRUE(std::equal(src.begin(), src.end(), b.begin() + 6));
  EXPECT_EQ(be16(b, 12), 0x8808u);
  EXPECT_EQ(be16(b, 14), 0x0101u);
  EXPECT_EQ(be16(b, 16), 0x09u);
  for (int c = 0; c < 8; ++c) EXPECT_EQ(be16(b, 18 + 2 * c), c == 0 || c == 3 ? 0xFFFFu : 0u) << c;
  for (std::size_t i = 34; i < 60; ++i) EXPECT_EQ(b[i], 0);
  EXPECT_EQ(frame_linktype(f), kLinktypeEthernet);
  EXPECT_EQ(frame_wire_bytes(FrameKind::pfc_pause, FramePos::only, Bytes(0), LinkLayer::roce), Bytes(84));
  EXPECT_THROW(bth_opcode(FrameKind::pfc_pause, FramePos::only), std::invalid_argument);
  f.pfc_quanta = 0;  // XON
  EXPECT_EQ(be16(frame_of(f), 18 + 2 * 3), 0u);
}

// Parse the pcapng back: blocks, lengths, byte-order magic, options, timestamps, snaplen.
TEST(PcapWriter, WritesParseablePcapng) {
  const fs::path path = temp_file("capture.pcapng");
  fs::remove(path);
  std::vector<CapturedFrame> frames(3);
  frames[0].at = Time::ps(1'234'567'890'123);  // 1234567890 ns
  frames[0].payload = Bytes(2);
  frames[1].at = Time::ps(5'000'000'000'000'999);  // 5e12 ns: needs the high word
  frames[1].kind = FrameKind::roce_send; frames[1].pos = FramePos::middle; frames[1].payload = Bytes(1024);
  frames[2].at = Time::ns(10);
  frames[2].layer = LinkLayer::ib; frames[2].payload = Bytes(7);
  {
    PcapWriter w(path.string(), 64);
    EXPECT_EQ(w.add_interface("roce0", kLinktypeEthernet), 0u);
    EXPECT_EQ(w.add_interface("ib0", kLinktypeInfiniband), 1u);
    w.write(0, frames[0]);
    w.write(0, frames[1]);
    w.write(1, frames[2]);
    EXPECT_THROW(w.write(0, frames[2]), std::invalid_argument);  // IB frame on Ethernet
    EXPECT_THROW(w.write(2, frames[0]), std::invalid_argument);
    EXPECT_TRUE(fs::exists(path.string() + ".tmp"));
    EXPECT_FALSE(fs::exists(path));
    w.close();
    EXPECT_EQ(w.frames_written(), 3u);
  }
  EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
  const auto b = read_all(path);
  const auto u16 = [&](std::size_t at) { std::uint16_t v; std::memcpy(&v, &b[at], 2); return v; };
  const auto u32 = [&](std::size_t at) { std::uint32_t v; std::memcpy(&v, &b[at], 4); return v; };
  std::size_t at = 0;
  std::vector<std::uint32_t> types;
  std::vector<std::size_t> starts;
  while (at < b.size()) {
    ASSERT_LE(at + 12, b.size());
    const std::uint32_t len = u32(at + 4);
    ASSERT_EQ(len % 4, 0u);
    ASSERT_LE(at + len, b.size());
    EXPECT_EQ(u32(at + len - 4), len);  // trailing length
    types.push_back(u32(at));
    starts.push_back(at);
    at += len;
  }
  ASSERT_EQ(types, (std::vector<std::uint32_t>{0x0A0D0D0A, 1, 1, 6, 6, 6}));
  EXPECT_EQ(u32(8), 0x1A2B3C4Du);
  EXPECT_EQ(u16(12), 1u); EXPECT_EQ(u16(14), 0u);  // version 1.0
  const std::uint16_t linktypes[] = {1, 247};
  const char* names[] = {"roce0", "ib0"};
  for (int i = 0; i < 2; ++i) {
    const std::size_t s = starts[1 + i];
    EXPECT_EQ(u16(s + 8), linktypes[i]);
    EXPECT_EQ(u32(s + 12), 64u);  // snaplen
    std::size_t o = s + 16;
    bool saw_name = false, saw_resol = false;
    while (u16(o) != 0) {
      const std::uint16_t code = u16(o), n = u16(o + 2);
      if (code == 2) { saw_name = true; EXPECT_EQ(std::string(b.begin() + o + 4, b.begin() + o + 4 + n), names[i]); }
      if (code == 9) { saw_resol = true; EXPECT_EQ(n, 1); EXPECT_EQ(b[o + 4], 9); }
      o += 4 + (n + 3) / 4 * 4;
    }
    EXPECT_TRUE(saw_name && saw_resol);
  }
  const std::uint32_t ifaces[] = {0, 0, 1};
  for (int i = 0; i < 3; ++i) {
    const std::size_t s = starts[3 + i];
    const auto full = frame_of(frames[i]);
    const std::uint64_t ns = static_cast<std::uint64_t>(frames[i].at.count_ps()) / 1000;
    EXPECT_EQ(u32(s + 8), ifaces[i]);
    EXPECT_EQ((static_cast<std::uint64_t>(u32(s + 12)) << 32) | u32(s + 16), ns);
    const std::uint32_t cap = u32(s + 20), orig = u32(s + 24);
    EXPECT_EQ(orig, full.size());
    EXPECT_EQ(cap, std::min<std::size_t>(full.size(), 64));
    EXPECT_TRUE(std::equal(full.begin(), full.begin() + cap, b.begin() + s + 28));
  }
  fs::remove(path);
}

TEST(PcapWriter, InterfaceLinktypes) {
  CapturedFrame eth, ib, tcp;
  ib.layer = LinkLayer::ib;
  tcp.kind = FrameKind::tcp_segment;
  tcp.layer = LinkLayer::ib;  // TCP is always Ethernet
  EXPECT_TRUE(interface_accepts(kLinktypeEthernet, eth));
  EXPECT_TRUE(interface_accepts(kLinktypeEthernet, tcp));
  EXPECT_FALSE(interface_accepts(kLinktypeEthernet, ib));
  EXPECT_TRUE(interface_accepts(kLinktypeInfiniband, ib));
  EXPECT_TRUE(interface_accepts(kLinktypeUser0, ib));
  EXPECT_TRUE(interface_accepts(kLinktypeUser0 + 15, ib));
  EXPECT_FALSE(interface_accepts(kLinktypeUser0 + 16, ib));
  EXPECT_FALSE(interface_accepts(kLinktypeUser0, eth));
  EXPECT_FALSE(interface_accepts(kLinktypeInfiniband, tcp));
}

TEST(PcapWriter, NotClosedPublishesNothing) {
  const fs::path path = temp_file("unclosed.pcapng");
  fs::remove(path);
  {
    PcapWriter w(path.string());
    w.write(w.add_interface("eth0", kLinktypeEthernet), CapturedFrame{});
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
}

TEST(PcapWriter, FailureNamesThePath) {
  try {
    PcapWriter w("/nonexistent-dir/x.pcapng");
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x.pcapng"), std::string::npos);
  }
}
