#include "net/wire_format.hpp"

#include <gtest/gtest.h>

using namespace rdmasim;

TEST(WireFormat, RoceWriteOnlyCarriesReth) {
  // preamble 8 + eth 14 + ipv4 20 + udp 8 + bth 12 + reth 16 + payload 2 padded to 4 + icrc 4
  // + fcs 4 + ifg 12
  EXPECT_EQ(frame_wire_bytes(FrameKind::roce_write, FramePos::only, Bytes(2), LinkLayer::roce), Bytes(102));
  // middle packets have no RETH
  EXPECT_EQ(frame_wire_bytes(FrameKind::roce_write, FramePos::middle, Bytes(4096), LinkLayer::roce),
            Bytes(8 + 14 + 20 + 8 + 12 + 4096 + 4 + 4 + 12));
}

TEST(WireFormat, InfinibandFraming) {
  // LRH 8 + BTH 12 + RETH 16 + 4 + ICRC 4 + VCRC 2
  EXPECT_EQ(frame_wire_bytes(FrameKind::roce_write, FramePos::only, Bytes(2), LinkLayer::ib), Bytes(46));
  EXPECT_EQ(frame_wire_bytes(FrameKind::roce_send, FramePos::first, Bytes(4096), LinkLayer::ib), Bytes(8 + 12 + 4096 + 6));
}

TEST(WireFormat, ReadRequestAndResponseHeaders) {
  EXPECT_EQ(frame_overhead(FrameKind::roce_read_request, FramePos::only, Bytes(0), LinkLayer::ib), Bytes(8 + 12 + 16 + 6));
  EXPECT_EQ(frame_overhead(FrameKind::roce_read_response, FramePos::first, Bytes(1024), LinkLayer::ib), Bytes(8 + 12 + 4 + 6));
  EXPECT_EQ(frame_overhead(FrameKind::roce_read_response, FramePos::middle, Bytes(1024), LinkLayer::ib), Bytes(8 + 12 + 6));
  EXPECT_EQ(frame_overhead(FrameKind::roce_read_response, FramePos::last, Bytes(100), LinkLayer::ib), Bytes(8 + 12 + 4 + 6));
}

TEST(WireFormat, TcpSegmentAndMinimumFrame) {
  EXPECT_EQ(frame_wire_bytes(FrameKind::tcp_segment, FramePos::only, Bytes(1448), LinkLayer::roce),
            Bytes(8 + 14 + 20 + 32 + 1448 + 4 + 12));  // a full 1500 B MTU frame + 24
  // A RoCE SEND of 1 B: 14+20+8+12+4+4+4 = 66 >= 64, no padding; TCP of 1 B: 71.
  EXPECT_EQ(frame_wire_bytes(FrameKind::roce_send, FramePos::only, Bytes(1), LinkLayer::roce), Bytes(8 + 66 + 12));
  EXPECT_EQ(frame_wire_bytes(FrameKind::tcp_segment, FramePos::only, Bytes(1), LinkLayer::roce), Bytes(8 + 71 + 12));
}

TEST(WireFormat, Segmentation) {
  EXPECT_EQ(packet_count(Bytes(1), Bytes(4096)), 1);
  EXPECT_EQ(packet_count(Bytes(4096), Bytes(4096)), 1);
  EXPECT_EQ(packet_count(Bytes(4097), Bytes(4096)), 2);
  EXPECT_EQ(packet_payload(Bytes(4097), Bytes(4096), 1), Bytes(1));
  EXPECT_EQ(frame_pos(0, 1), FramePos::only);
  EXPECT_EQ(frame_pos(0, 3), FramePos::first);
  EXPECT_EQ(frame_pos(1, 3), FramePos::middle);
  EXPECT_EQ(frame_pos(2, 3), FramePos::last);
  // 3 packets of a 9000 B write at MTU 4096: 4096 (RETH) + 4096 + 808
  const std::int64_t hdr = 8 + 14 + 20 + 8 + 12 + 4 + 4 + 12;
  EXPECT_EQ(message_wire_bytes(FrameKind::roce_write, Bytes(9000), Bytes(4096), LinkLayer::roce),
            Bytes(9000 + 3 * hdr + 16));
}
