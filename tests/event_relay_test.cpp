// EventRelay (core/event_relay.hpp): an event reaches its handler only while the handler's
// slot is live; a removed slot's pending events are dropped, and a recycled slot's new owner
// never sees its predecessor's events.
#include <gtest/gtest.h>

#include <vector>

#include "core/event_relay.hpp"

using namespace rdmasim;

namespace {

struct Recorder final : EventHandler {
  std::vector<std::uint64_t> got;
  void on_event(std::uint64_t a) override { got.push_back(a); }
};

}  // namespace

TEST(EventRelay, EventsReachOnlyTheLiveOwnerOfTheirSlot) {
  Scheduler s;
  EventRelay relay;
  Recorder a, b;
  const EventRelay::Slot sa = relay.add(a);
  relay.schedule_at(s, Time::us(1), sa, 7);
  relay.schedule_at(s, Time::us(3), sa, 9);  // pending when a goes
  s.run_until(Time::us(2));
  relay.remove(sa);
  const EventRelay::Slot sb = relay.add(b);  // the same slot, a new generation
  EXPECT_EQ(sb.index, sa.index);
  EXPECT_EQ(sb.generation, sa.generation + 1);
  relay.schedule_at(s, Time::us(4), sb, 255);
  s.run();
  EXPECT_EQ(a.got, std::vector<std::uint64_t>{7});
  EXPECT_EQ(b.got, std::vector<std::uint64_t>{255});  // not a's 9
  EXPECT_EQ(s.now(), Time::us(4));
  EXPECT_EQ(relay.live(), 1u);
  EXPECT_THROW(relay.remove(sa), std::logic_error);
}
