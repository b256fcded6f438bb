// CriticalPath: a packet behind its own message's packet continues that packet's ledger; a
// control frame served between them back to back keeps the path, charged to `queue`; a gap
// breaks it.
#include "sim/critical_path.hpp"

#include <gtest/gtest.h>

namespace rdmasim {
namespace {

struct Frames {
  Message data, control;
  Packet first, second, ack;
  Frames() {
    data.id = 1;
    control.id = 99;
    first.msg = second.msg = &data;
    ack.msg = &control;
    first.ledger.add(Category::transmit, Time::ns(40));  // its path so far, up to its start at 40 ns
    first.stamp = Time::ns(40);
    second.stamp = Time::ns(10);  // queued since 10 ns
    second.ledger.add(Category::nic, Time::ns(10));
  }
};

TEST(CriticalPath, AControlFrameBackToBackKeepsThePathAsQueue) {
  Frames f;
  CriticalPath path;
  path.departed<false>(f.first, Category::transmit, Time::ns(100), Time::ns(40), 0);  // busy 40..140 ns
  path.freed(Time::ns(140));
  path.interposed(Time::ns(140), Time::ns(6));  // an ACK frame 140..146 ns
  path.freed(Time::ns(146));
  path.start<false>(f.second, Time::ns(146), 0);
  EXPECT_EQ(f.second.ledger[Category::transmit], Time::ns(140));
  EXPECT_EQ(f.second.ledger[Category::queue], Time::ns(6));
  EXPECT_EQ(f.second.ledger.total(), Time::ns(146));  // the path ends where it starts
  EXPECT_EQ(f.second.stamp, Time::ns(146));
}

TEST(CriticalPath, AControlFrameAfterAGapBreaksThePath) {
  Frames f;
  CriticalPath path;
  path.departed<false>(f.first, Category::transmit, Time::ns(100), Time::ns(40), 0);
  path.freed(Time::ns(140));
  path.interposed(Time::ns(150), Time::ns(6));  // the port idled 140..150 ns first
  path.freed(Time::ns(156));
  path.start<false>(f.second, Time::ns(156), 0);
  EXPECT_EQ(f.second.ledger[Category::transmit], Time::zero());  // its own ledger...
  EXPECT_EQ(f.second.ledger[Category::nic], Time::ns(10));
  EXPECT_EQ(f.second.ledger[Category::queue], Time::ns(146));  // ...and its whole wait as queue
}

TEST(CriticalPath, AnotherMessagesPacketBreaksThePath) {
  Frames f;
  Message other;
  other.id = 2;
  Packet p;
  p.msg = &other;
  CriticalPath path;
  path.departed<false>(p, Category::transmit, Time::ns(100), Time::ns(40), 0);
  path.freed(Time::ns(140));
  path.start<false>(f.second, Time::ns(140), 0);
  EXPECT_EQ(f.second.ledger[Category::queue], Time::ns(130));
  EXPECT_EQ(f.second.ledger.total(), Time::ns(140));
}

}  // namespace
}  // namespace rdmasim
