#include "rdmasim/profile.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

using namespace rdmasim;

namespace {
std::string error_of(Profile& p, const char* assignment) {
  try {
    apply_override(p, assignment);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Profile, NamedProfiles) {
  EXPECT_EQ(make_profile("default").name, "default");
  const Profile s = make_profile("seed-demo");
  EXPECT_EQ(s.mem.copy_fixed, Time::ns(800));
  EXPECT_EQ(s.host.tx_copies + s.host.rx_copies, 4);
  EXPECT_EQ(s.kernel.tx_stack + s.kernel.rx_stack, Time::ns(3000));
  EXPECT_EQ(s.nic.tx_pipeline + s.nic.rx_pipeline, Time::ns(1200));
  EXPECT_EQ(s.nic.tx_jitter, Time::ns(300));
  EXPECT_THROW(make_profile("fast"), std::invalid_argument);
  validate(make_profile("default"));
  validate(s);
}

TEST(Profile, RegistryCoversEveryKeyOnceAndRoundTrips) {
  std::set<std::string> keys;
  Profile p = make_profile("default");
  for (const ParamDef& d : profile_params()) {
    EXPECT_TRUE(keys.insert(d.key).second) << d.key;
    EXPECT_FALSE(d.help.empty()) << d.key;
    EXPECT_FALSE(d.source.empty()) << d.key;
    const std::string v = d.get(p);
    Profile q = p;
    apply_override(q, d.key + "=" + v);  // get() output parses back to the same value
    EXPECT_EQ(d.get(q), v) << d.key;
  }
  EXPECT_GE(keys.size(), 30u);
}

TEST(Profile, OverridesApply) {
  Profile p = make_profile("default");
  apply_override(p, "link.rate=200Gbps");
  apply_override(p, "kernel.irq=1.5us");
  apply_override(p, "nic.blueflame=off");
  apply_override(p, "host.tx_copies=3");
  EXPECT_EQ(p.link.rate, Rate::gbps(200));
  EXPECT_EQ(p.kernel.irq, Time::ns(1500));
  EXPECT_FALSE(p.nic.blueflame);
  EXPECT_EQ(p.host.tx_copies, 3);
}

TEST(Profile, ErrorsNameTheKey) {
  Profile p = make_profile("default");
  const std::string unknown = error_of(p, "link.speed=100Gbps");
  EXPECT_NE(unknown.find("unknown parameter \"link.speed\""), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("link.rate"), std::string::npos) << unknown;  // nearest suggestion
  const std::string bad = error_of(p, "link.rate=fast");
  EXPECT_NE(bad.find("link.rate: expected a rate like \"100Gbps\", got \"fast\""), std::string::npos) << bad;
  EXPECT_NE(error_of(p, "norate").find("key=value"), std::string::npos);
}

TEST(Profile, ValidateRejectsOutOfRange) {
  Profile p = make_profile("default");
  p.pcie.gen = 7;
  EXPECT_THROW(validate(p), std::invalid_argument);
  p = make_profile("default");
  apply_override(p, "kernel.irq=-1ns");
  EXPECT_THROW(validate(p), std::invalid_argument);
  p = make_profile("default");
  p.nic.rx_frames = 0;
  EXPECT_THROW(validate(p), std::invalid_argument);
}
