// PacketTransfer: a packet's image carries its fields and its message's; on another rank it
// refers to a shadow per (rank, address), and each rank keeps the message fields its own hosts
// write (sim/packet_transfer.hpp).
#include "sim/packet_transfer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

using namespace rdmasim;

namespace {

std::vector<std::byte> image_of(const PacketTransfer& t, const Packet& p, std::int32_t flow) {
  std::vector<std::byte> out;
  t.write(p, flow, out);
  return out;
}

}  // namespace

TEST(PacketTransfer, AnImageCarriesThePacketAndItsMessage) {
  PacketTransfer requester(0), responder(1);
  Message m;
  m.id = 7;
  m.size = Bytes(4096);
  m.packets = 4;
  m.rc_last_psn = 41;
  Packet p;
  p.msg = &m;
  p.wire = Bytes(1100);
  p.psn = 40;
  p.index = 3;
  p.ce = true;
  p.hops = 2;
  p.route = reinterpret_cast<const Route*>(&m);  // any route: the image says only that it has one
  p.ledger.add(Category::transmit, Time::ns(85));
  const std::vector<std::byte> bytes = image_of(requester, p, 5);
  ASSERT_EQ(bytes.size(), PacketTransfer::kImageBytes);
  const PacketTransfer::Header h = PacketTransfer::header(bytes);
  EXPECT_EQ(h.flow, 5);
  EXPECT_EQ(h.routed, 1);
  EXPECT_EQ(h.origin, 0);
  Packet q;
  responder.read(bytes, q, 1);
  EXPECT_EQ(q.wire, Bytes(1100));
  EXPECT_EQ(q.psn, 40u);
  EXPECT_EQ(q.index, 3);
  EXPECT_TRUE(q.ce);
  EXPECT_EQ(q.hops, 2);
  EXPECT_EQ(q.ledger[Category::transmit], Time::ns(85));
  EXPECT_EQ(q.route, nullptr);  // the fabric gives it its flow's
  EXPECT_EQ(q.flow, nullptr);
  ASSERT_NE(q.msg, nullptr);
  EXPECT_NE(q.msg, &m);  // a shadow
  EXPECT_EQ(q.msg->id, 7u);
  EXPECT_EQ(q.msg->size, Bytes(4096));
  EXPECT_EQ(q.msg->packets, 4);
  EXPECT_EQ(q.msg->rc_last_psn, 41u);
  EXPECT_EQ(responder.shadows(), 1u);
}

TEST(PacketTransfer, EachRankKeepsTheFieldsItsHostsWrite) {
  PacketTransfer a(0), b(1), sw(2);  // requester, responder, a switch between them
  Message m;
  m.id = 1;
  m.packets = 2;
  m.splits = 1;
  Packet p;
  p.msg = &m;
  // Through the switch's rank to the responder's, which merges and counts a CE mark.
  Packet at_sw, at_b;
  sw.read(image_of(a, p, 0), at_sw, 1);
  b.read(image_of(sw, at_sw, 0), at_b, 1);
  at_b.msg->arrived = 1;
  at_b.msg->next_index = 1;
  at_b.msg->rc_ce = 1;
  // The requester's next packet of the message (it set the last PSN meanwhile): the responder
  // keeps its merge and marks, takes the requester's fields and the split's count.
  m.rc_last_psn = 9;
  Packet again;
  b.read(image_of(a, p, 0), again, 1);
  EXPECT_EQ(again.msg, at_b.msg);  // the same shadow
  EXPECT_EQ(again.msg->rc_last_psn, 9u);
  EXPECT_EQ(again.msg->packets, 2);
  EXPECT_EQ(again.msg->arrived, 1);
  EXPECT_EQ(again.msg->next_index, 1);
  EXPECT_EQ(again.msg->rc_ce, 1u);
  // The ACK back through the switch (the responder split it into one packet): the switch takes
  // everything; the original gets the ACK's count and the responder's CE marks and keeps its
  // own fields, and its merge's progress.
  at_b.msg->arrived = 0;
  at_b.msg->next_index = 0;
  at_b.msg->packets = 1;
  at_b.msg->splits = 2;
  m.arrived = 5;  // a stand-in for the requester's own merge count
  // A resend of the data that left the requester before that split does not undo it.
  Packet resend;
  b.read(image_of(a, p, 0), resend, 1);
  EXPECT_EQ(resend.msg->packets, 1);
  EXPECT_EQ(resend.msg->splits, 2u);
  Packet ack_sw, ack_a;
  sw.read(image_of(b, at_b, 0), ack_sw, 1);
  EXPECT_EQ(ack_sw.msg->rc_ce, 1u);
  m.rc_last_sent = Time::ns(5);
  a.read(image_of(sw, ack_sw, 0), ack_a, 1);
  EXPECT_EQ(ack_a.msg, &m);  // home: the original
  EXPECT_EQ(m.packets, 1);
  EXPECT_EQ(m.splits, 2u);
  EXPECT_EQ(m.arrived, 5);
  EXPECT_EQ(m.rc_ce, 1u);
  EXPECT_EQ(m.rc_last_sent, Time::ns(5));
  EXPECT_EQ(a.shadows(), 0u);
  // Both ends on the requester's rank (the path through the switch's): nothing is taken back.
  m.rc_ce = 3;
  Packet home;
  a.read(image_of(sw, ack_sw, 0), home, 0);
  EXPECT_EQ(m.rc_ce, 3u);
}

TEST(PacketTransfer, ANewMessageAtAnAddressResetsItsShadowAndPinsAreTheShadows) {
  PacketTransfer a(0), b(1);
  Message m;
  m.id = 1;
  Packet p;
  p.msg = &m;
  p.pinned = true;  // an RC copy or resend: holds a pin where it is
  Packet q;
  b.read(image_of(a, p, 0), q, 1);
  EXPECT_EQ(q.msg->pins, 1u);
  q.msg->rc_ce = 2;
  m.id = 2;  // the original recycled for another message
  p.pinned = false;
  Packet r;
  b.read(image_of(a, p, 0), r, 1);
  EXPECT_EQ(r.msg, q.msg);
  EXPECT_EQ(r.msg->id, 2u);
  EXPECT_EQ(r.msg->rc_ce, 0u);  // not the last message's marks
  EXPECT_EQ(r.msg->pins, 1u);   // the old packet still holds its pin here
  EXPECT_EQ(b.shadows(), 1u);
  EXPECT_TRUE(b.is_shadow(r.msg));
  // Home again: the original is not pinned once more (it kept the pin its packet left with).
  m.pins = 1;
  Packet home;
  p.pinned = true;
  a.read(image_of(b, [&] { Packet x = p; x.msg = r.msg; return x; }(), 0), home, 1);
  EXPECT_EQ(home.msg, &m);
  EXPECT_EQ(m.pins, 1u);
  EXPECT_FALSE(a.is_shadow(&m));
  // A frame of a message recycled meanwhile cannot come home.
  m.id = 3;
  Packet stale;
  EXPECT_THROW(a.read(image_of(b, [&] { Packet x = p; x.msg = r.msg; return x; }(), 0), stale, 1), std::logic_error);
}

TEST(PacketTransfer, APacketStillPacedDoesNotCross) {
  PacketTransfer a(0);
  Message m;
  Packet p;
  p.msg = &m;
  p.trail = 0;  // traced
  std::vector<std::byte> out;
  EXPECT_THROW(a.write(p, 0, out), std::logic_error);
  EXPECT_THROW(PacketTransfer::header(std::span<const std::byte>(out.data(), out.size())), std::logic_error);
}
