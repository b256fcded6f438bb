// The fit from probe results to a host profile, on hand-made measurements: exact, machine
// independent. (The probes themselves are tested in calibrate_test.cpp.)
#include "calibrate/calibration.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "rdmasim/latency.hpp"

using namespace rdmasim;
using namespace rdmasim::calibrate;

namespace {

CalibrationReport synthetic() {
  CalibrationReport r;
  r.placement = "both ends on cpu 0";
  r.syscall.null_syscall_ns = 200;
  r.copy.fixed_ns = 40;
  r.copy.gbytes_per_s = 10;
  r.wakeup.same_core_rtt.count = 100;
  r.wakeup.same_core_rtt.p50_ns = 6000;  // RTT/2 = 3000 = 2 x 200 + wake-up 2600
  PingPongResult t;
  t.bytes = 1;
  t.one_way.count = 100;
  t.one_way.p50_ns = 9000;
  t.one_way.p99_ns = 12000;
  r.tcp.push_back(t);
  t.bytes = 65536;
  t.one_way.p50_ns = 20000;
  r.tcp.push_back(t);
  return r;
}

}  // namespace

TEST(CalibrationFit, DerivesEachParameter) {
  const FitResult f = fit_host_profile(synthetic());
  const Profile p = fitted_profile(f);
  EXPECT_EQ(p.kernel.syscall, Time::ns(200));
  EXPECT_EQ(p.kernel.wakeup, Time::ns(2600));
  EXPECT_EQ(p.mem.copy_fixed, Time::ns(40));
  EXPECT_EQ(p.mem.copy_bw, Rate::bytes_per_sec(10'000'000'000));
  // kernel = 9000 - 2*200 - 2*(40 + 0.1) - 2600 = 5919.8 ns, split 16:4:6:18 exactly.
  const Time kernel = p.kernel.tx_stack + p.kernel.tx_per_packet + p.kernel.rx_per_packet + p.kernel.rx_stack;
  EXPECT_EQ(kernel, Time::ps(5'919'800));
  EXPECT_EQ(p.kernel.tx_stack.count_ps(), 5'919'800LL * 16 / 44);
}

TEST(CalibrationFit, ModelReproducesTheFittedMeasurementExactly) {
  const CalibrationReport r = synthetic();
  const std::vector<CheckRow> rows = check_model(r, fitted_profile(fit_host_profile(r)));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(rows[0].model_p50_ns, 9000.0);
  EXPECT_DOUBLE_EQ(rows[0].measured_p50_ns, 9000.0);
  // 64 KiB adds two copies of 65535 more bytes at 10 GB/s (13.107 us) and a second segment.
  EXPECT_GT(rows[1].model_p50_ns, 9000.0 + 13'000.0);
}

TEST(CalibrationFit, ImpossibleMeasurementsClampWithANote) {
  CalibrationReport r = synthetic();
  r.tcp[0].one_way.p50_ns = 100;  // faster than its known parts
  const FitResult f = fit_host_profile(r);
  EXPECT_EQ(fitted_profile(f).kernel.rx_stack, Time::zero());
  bool noted = false;
  for (const auto& n : f.notes) noted = noted || n.find("set to 0") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(CalibrationFit, FailedProbeIsAnError) {
  CalibrationReport r = synthetic();
  r.syscall.status = {false, "affinity denied"};
  EXPECT_THROW(fit_host_profile(r), std::runtime_error);
}

TEST(CalibrationFit, DocumentCarriesParametersAndMeasurements) {
  const CalibrationReport r = synthetic();
  const HostProfileDoc d = host_profile_doc(r, fit_host_profile(r));
  EXPECT_EQ(d.parameters.size(), 8u);
  bool has = false;
  for (const auto& [k, v] : d.measurements) has = has || k == "tcp_1B_one_way_p50_ns";
  EXPECT_TRUE(has);
}

TEST(CalibrationFit, CopyBandwidthFromTheSingleSegmentSlope) {
  CalibrationReport r = synthetic();
  PingPongResult t;
  t.bytes = 32768;
  t.one_way.count = 100;
  t.one_way.p50_ns = 9000 + 0.4 * 32767;  // 0.2 ns/B per copy, two copies: 5 GB/s
  r.tcp.push_back(t);
  const Profile p = fitted_profile(fit_host_profile(r));
  EXPECT_NEAR(static_cast<double>(p.mem.copy_bw.bits_per_sec()), 40e9, 1e3);
  // The 1 B point is still reproduced exactly with that bandwidth.
  EXPECT_DOUBLE_EQ(check_model(r, p)[0].model_p50_ns, 9000.0);
}

TEST(CalibrationFit, FitTextListsEveryParameterAndNote) {
  const FitResult f = fit_host_profile(synthetic());
  const std::string text = fit_text(f);
  EXPECT_EQ(text.rfind("\nFitted host profile:\n", 0), 0u);
  for (const auto& [k, v] : f.parameters) EXPECT_NE(text.find(k), std::string::npos) << k;
  for (const std::string& n : f.notes) EXPECT_NE(text.find("  note: " + n + "\n"), std::string::npos) << n;
}
