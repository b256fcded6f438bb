// Switch buffer policies (rdmasim/buffer_policy.hpp): each one's admission rule at its exact
// boundary, each one selected through `switch.buffer_policy` shaping a lossy incast's queue as
// it should (a static limit, alpha x the free buffer, or the whole buffer), the registry's
// names and its error, and a policy registered from outside the library.
#include <gtest/gtest.h>

#include "buffer/complete_sharing.hpp"
#include "buffer/dynamic_threshold.hpp"
#include "buffer/static_threshold.hpp"
#include "fabric_rig.hpp"
#include "rdmasim/buffer_policy.hpp"

using namespace rdmasim;
using rdmasim::testing::Rig;

namespace {

const std::int64_t kFrame =
    frame_wire_bytes(FrameKind::roce_write, FramePos::middle, Bytes(4096), LinkLayer::roce).count();

// Two senders of 600 MTU frames each into h0's port, lossy, no ECN: h0's port's counters.
PortCounters incast(const std::string& policy, std::int64_t buffer, std::int64_t queue_limit = 512 * 1024) {
  FabricOptions o;
  o.sw.lossless = false;
  o.sw.ecn = false;
  o.sw.buffer = Bytes(buffer);
  o.sw.queue_limit = Bytes(queue_limit);
  Profile p;
  apply_override(p, "switch.buffer_policy=" + policy);
  o.sw.buffer_policy = p.sw.buffer_policy;
  Rig r(3, o);
  r.incast({{1, 600, 3}, {2, 600, 3}});
  EXPECT_EQ(r.client.got.size() + r.client.dropped_tc.size(), 1200u) << policy;
  return r.port("sw0->h0");
}

}  // namespace

TEST(BufferPolicy, EachRuleAdmitsExactlyUpToItsBoundary) {
  const DynamicThreshold dt(0.5);  // free 600: a queue may reach 300
  EXPECT_TRUE(dt.admit({.queue = 200, .frame = 100, .shared_used = 400, .shared_size = 1000}));
  EXPECT_FALSE(dt.admit({.queue = 200, .frame = 101, .shared_used = 400, .shared_size = 1000}));
  const StaticThreshold st(1000);
  EXPECT_TRUE(st.admit({.queue = 900, .frame = 100, .shared_used = 0, .shared_size = 1}));
  EXPECT_FALSE(st.admit({.queue = 901, .frame = 100, .shared_used = 0, .shared_size = 1 << 30}));
  EXPECT_TRUE(CompleteSharing().admit({.queue = 1 << 30, .frame = 1, .shared_used = 1 << 30, .shared_size = 1}));
}

TEST(BufferPolicy, StaticThresholdHoldsTheQueueToWholeFramesUnderTheLimit) {
  const std::int64_t limit = 100 * 1024;
  const PortCounters c = incast("static-threshold", 4 << 20, limit);
  EXPECT_GT(c.drops, 0u);
  EXPECT_EQ(c.max_queue_bytes, limit / kFrame * kFrame);
  // A larger buffer changes nothing: the limit is static.
  EXPECT_EQ(incast("static-threshold", 16 << 20, limit).max_queue_bytes, c.max_queue_bytes);
}

TEST(BufferPolicy, CompleteSharingLetsOneQueueFillTheBufferDynamicThresholdsHalfOfIt) {
  const std::int64_t buffer = 256 * 1024;
  const PortCounters all = incast("complete-sharing", buffer);
  EXPECT_GT(all.drops, 0u);
  EXPECT_LE(all.max_queue_bytes, buffer);
  EXPECT_GT(all.max_queue_bytes, buffer - 2 * kFrame);
  // Alpha 1: q <= (B - q), so about B / 2.
  const PortCounters dt = incast("dynamic-threshold", buffer);
  EXPECT_LE(dt.max_queue_bytes, buffer / 2 + kFrame);
  EXPECT_GT(dt.max_queue_bytes, buffer / 2 - 2 * kFrame);
  EXPECT_GT(dt.drops, all.drops);
}

TEST(BufferPolicy, RegistryListsTheBuiltInsAndNamesThemInItsError) {
  std::vector<std::string> names;
  for (const BufferPolicySpec* s : buffer_policies()) {
    names.push_back(s->name);
    EXPECT_FALSE(s->description.empty());
    EXPECT_FALSE(s->source.empty());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"dynamic-threshold", "static-threshold", "complete-sharing"}));
  EXPECT_EQ(Profile{}.sw.buffer_policy, "dynamic-threshold");
  Profile p;
  try {
    apply_override(p, "switch.buffer_policy=red");
    FAIL() << "accepted an unknown policy";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("switch.buffer_policy"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("valid: dynamic-threshold, static-threshold, complete-sharing"),
              std::string::npos)
        << e.what();
  }
}

TEST(BufferPolicy, APolicyRegisteredFromOutsideIsSelectedByName) {
  struct NoLossyTraffic final : BufferPolicy {
    bool admit(const BufferOccupancy&) const override { return false; }
  };
  register_buffer_policy({"no-lossy", "drops every lossy frame", "", "a test",
                          [](const SwitchParams&) { return std::make_unique<NoLossyTraffic>(); }});
  const PortCounters c = incast("no-lossy", 4 << 20);
  EXPECT_EQ(c.drops, 1200u);
  EXPECT_EQ(c.max_queue_bytes, 0);
  EXPECT_THROW(register_buffer_policy({"no-lossy", "again", "", "", {}}), std::invalid_argument);
}
