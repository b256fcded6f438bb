// The RDMA rate-control registry: lookups and their errors, and a component registered from
// outside the library (as an embedding program would) that the command line's checks, the
// scenario keys, `rdmasim list` and a packet-level run all see without a library change.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "cli_common.hpp"
#include "config/catalogue.hpp"
#include "core/registry.hpp"
#include "error_text.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/rate_control.hpp"
#include "config/scenario.hpp"

using namespace rdmasim;
using rdmasim::testing::error_text;

namespace {

struct Thing {
  std::string name, description;
};

// Paces at a fixed 25 Gb/s and counts what the transport tells it.
class FixedRate final : public RateControl {
 public:
  static inline std::int64_t sent = 0, acked_packets = 0, acks = 0;
  void on_sent(std::int64_t, Time) override { ++sent; }
  void on_cnp(Time) override {}
  void on_ack(const AckSignal& a) override {
    ++acks;
    acked_packets += a.packets;
  }
  double rate_bps(Time) override { return 25e9; }
  double current_bps() const override { return 25e9; }
};

void register_fixed_once() {
  static const bool done = [] {
    register_rate_control({"fixed-25g", "a test's fixed 25 Gb/s pacer", "", "", false,
                           [](const Profile&, Rate) { return std::make_unique<FixedRate>(); }});
    return true;
  }();
  (void)done;
}

}  // namespace

TEST(Registry, FindsInOrderAndRefusesDuplicatesAndUnknownNames) {
  Registry<Thing> r("widget");
  r.add({"a", "first"});
  r.add({"b", "second"});
  EXPECT_EQ(r.names(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.get("b").description, "second");
  EXPECT_EQ(r.find("c"), nullptr);
  EXPECT_EQ(error_text([&] { r.get("c"); }), "unknown widget \"c\" (valid: a, b)");
  EXPECT_EQ(error_text([&] { r.add({"a", "again"}); }), "widget \"a\" is registered already");
  EXPECT_EQ(error_text([&] { r.add({"", "nameless"}); }), "widget: a component needs a name");
  const Thing* a = &r.get("a");
  for (int i = 0; i < 100; ++i) r.add({"x" + std::to_string(i), ""});
  EXPECT_EQ(a, &r.get("a"));  // entries never move
}

TEST(RateControlRegistry, BuiltInsAndTheUnknownNameMessage) {
  EXPECT_EQ(rate_control("none").make, nullptr);
  EXPECT_TRUE(rate_control("dcqcn").cnps);
  EXPECT_EQ(rate_control("dcqcn").params, "dcqcn.");
  EXPECT_EQ(error_text([] { rate_control("bbr"); }).rfind("unknown congestion control \"bbr\" (valid: none, dcqcn", 0), 0u);
}

TEST(RateControlRegistry, AComponentRegisteredFromOutsideRunsEverywhere) {
  register_fixed_once();
  const std::vector<std::string> names = cli::rate_control_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "fixed-25g"), names.end());
  const auto comps = config::components();
  EXPECT_TRUE(std::any_of(comps.begin(), comps.end(), [](const config::Component& c) {
    return c.kind == "congestion control" && c.name == "fixed-25g";
  }));
  // A scenario names it; the run paces every packet at 25 Gb/s.
  const Scenario s = parse_scenario(
      "command = \"bw\"\n[workload]\nsize = \"64KiB\"\niters = 100\n[network]\ntopology = \"single-switch\"\ncc = \"fixed-25g\"\n",
      "fixed.toml");
  FixedRate::sent = FixedRate::acked_packets = FixedRate::acks = 0;
  const BwResult r = run_bandwidth(cli::to_bw_config(s.options));
  ASSERT_TRUE(r.rc);
  EXPECT_EQ(r.rc->final_rate_bps, 25e9);
  EXPECT_EQ(FixedRate::sent, 100 * 16);          // 16 packets of 4 KiB per message, none resent
  EXPECT_EQ(FixedRate::acks, 100);               // one ACK per message
  EXPECT_EQ(FixedRate::acked_packets, 100 * 16);
  // Paced at 25 Gb/s of wire bytes: the goodput is 25 Gb/s x payload / wire, less the first packet's head start.
  const double paced = 25e9 * 65536.0 / static_cast<double>(r.wire_bytes_per_message.count());
  EXPECT_LE(r.bw_avg_bps, paced * 1.001);
  EXPECT_GE(r.bw_avg_bps, paced * 0.99);
}
