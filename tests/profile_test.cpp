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

namespace {
// The message validate() gives for `assignment` on the default profile ("" when it passes).
std::string validate_error(const std::string& assignment) {
  Profile p = make_profile("default");
  apply_override(p, assignment);
  try {
    validate(p);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}
const ParamDef& param(std::string_view key) {
  for (const ParamDef& d : profile_params())
    if (d.key == key) return d;
  throw std::out_of_range(std::string(key));
}
}  // namespace

// Every parameter states the values it accepts, every registered profile is inside them, and
// a range written lo..hi parses back: both endpoints are accepted.
TEST(Profile, EveryParameterHasARangeWhoseEndpointsItAccepts) {
  for (const std::string& name : profile_names())
    for (const ParamDef& d : profile_params()) EXPECT_TRUE(d.in_range(make_profile(name))) << name << " " << d.key;
  int bounded = 0;
  for (const ParamDef& d : profile_params()) {
    ASSERT_FALSE(d.range.empty()) << d.key;
    std::string r = d.range;
    const std::string off = "0 (off) or ";
    if (r.rfind(off, 0) == 0) r = r.substr(off.size());
    const auto dots = r.find("..");
    if (dots == std::string::npos || r[0] == '(' || r[0] == '[') continue;
    ++bounded;
    for (const std::string& end : {r.substr(0, dots), r.substr(dots + 2)}) {
      Profile p = make_profile("default");
      apply_override(p, d.key + "=" + end);
      EXPECT_TRUE(d.in_range(p)) << d.key << "=" << end;
    }
  }
  EXPECT_GE(bounded, 80);
}

// The boundaries themselves, one parameter of each kind of range, and the message naming the
// key and its range.
TEST(Profile, RangesAreExactAtTheirBoundaries) {
  EXPECT_EQ(param("link.rate").range, "1Mbps..100Tbps");
  EXPECT_EQ(validate_error("link.rate=1Mbps"), "");
  EXPECT_EQ(validate_error("link.rate=999999bps"), "link.rate: must be 1Mbps..100Tbps");
  EXPECT_EQ(validate_error("link.rate=100000000000001bps"), "link.rate: must be 1Mbps..100Tbps");

  EXPECT_EQ(param("nic.tx_window").range, "0 (off) or 16KiB..1GiB");
  EXPECT_EQ(validate_error("nic.tx_window=0B"), "");
  EXPECT_EQ(validate_error("nic.tx_window=16383B"), "nic.tx_window: must be 0 (off) or 16KiB..1GiB");
  EXPECT_EQ(validate_error("nic.tx_window=1073741825B"), "nic.tx_window: must be 0 (off) or 16KiB..1GiB");

  EXPECT_EQ(param("switch.dt_alpha").range, "(0, 64]");
  EXPECT_EQ(validate_error("switch.dt_alpha=0"), "switch.dt_alpha: must be (0, 64]");
  EXPECT_EQ(validate_error("switch.dt_alpha=64"), "");
  EXPECT_EQ(validate_error("switch.dt_alpha=64.001"), "switch.dt_alpha: must be (0, 64]");

  EXPECT_EQ(validate_error("pcie.lanes=3"), "pcie.lanes: must be 1, 2, 4, 8 or 16");
  EXPECT_EQ(validate_error("pcie.lanes=8"), "");
  EXPECT_EQ(validate_error("link.length=100000001mm"), "link.length: must be 0km..100km");
  EXPECT_EQ(validate_error("kernel.irq=10000000000001ps"), "kernel.irq: must be 0s..10s");
  EXPECT_EQ(validate_error("kernel.irq=-1ps"), "kernel.irq: must be 0s..10s");
  EXPECT_EQ(validate_error("rc.min_rnr_timer=32"), "rc.min_rnr_timer: must be 0..31");
  EXPECT_EQ(param("switch.cut_through").range, "on|off");
}

// What one parameter's range cannot say is checked as a relation, with both keys named.
TEST(Profile, RelationsBetweenParameters) {
  EXPECT_EQ(validate_error("switch.pfc_xoff=17MiB"), "switch.pfc_xoff: must not exceed switch.buffer");
  EXPECT_EQ(validate_error("verbs.doorbell=1us"), "verbs.doorbell: must not exceed verbs.post (it is part of it)");
  EXPECT_EQ(validate_error("timely.t_low=500us"), "timely.t_low: must be below timely.t_high");
  EXPECT_EQ(validate_error("tcp.rwnd=100B"), "tcp.rwnd: must hold at least one segment (tcp.mss)");
  EXPECT_EQ(validate_error("nic.read_buffer=256B"), "nic.read_buffer: must be 0 (not modelled) or at least pcie.max_read_request");
}
