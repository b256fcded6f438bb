#include "path/link.hpp"

#include <gtest/gtest.h>

using namespace rdmasim;

TEST(Link, PropagationIsLengthOverVelocity) {
  LinkParams p;
  p.length_mm = 3'000;
  EXPECT_EQ(Link(p).propagation(), Time::ns(15));
  p.length_mm = 100'000;
  EXPECT_EQ(Link(p).propagation(), Time::ns(500));
  p.length_mm = 1;            // 1 mm / 2e8 m/s = 5 ps
  EXPECT_EQ(Link(p).propagation(), Time::ps(5));
  p.velocity_mps = 300'000'000;  // 1 mm / 3e8 = 3.33 ps -> 4
  EXPECT_EQ(Link(p).propagation(), Time::ps(4));
}

TEST(Link, AppendsTransmitterThenPropagation) {
  LinkParams p;
  PathSpec path;
  Link(p).append(path, 1);
  ASSERT_EQ(path.stages.size(), 2u);
  EXPECT_EQ(path.stages[0].kind, StageKind::serve);
  EXPECT_EQ(path.stages[0].res, ResourceKind::wire);
  EXPECT_EQ(path.stages[0].cat, Category::transmit);
  EXPECT_EQ(path.stages[0].side, 1);
  EXPECT_EQ(path.stages[0].cost.eval({}, {}, Bytes(1500)), Time::ns(120));
  EXPECT_EQ(path.stages[1].kind, StageKind::delay);
  EXPECT_EQ(path.stages[1].cat, Category::propagate);
  EXPECT_EQ(path.stages[1].label, "B.link.propagate");
}
