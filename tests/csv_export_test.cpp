// CSV tables (io/csv_export.hpp): a lat run's per-iteration rows add up to its RTTs and
// ledgers; bw rows are its messages; flows and ports mirror the run's counters; quoting.
#include "io/csv_export.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "rdmasim/bandwidth.hpp"
#include "rdmasim/exports.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;

namespace {

std::vector<std::vector<std::string>> parse(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::stringstream in(csv);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    std::string x;
    while (std::getline(ls, x, ',')) f.push_back(x);
    rows.push_back(f);
  }
  return rows;
}

}  // namespace

TEST(CsvExport, LatRowsAreTheIterationsAndTheirLedgersAddUp) {
  LatConfig c;
  c.iters = 50;
  c.record_samples = true;
  c.profile.nic.tx_jitter = Time::ns(100);  // samples differ
  const LatResult r = run_latency(c);
  const auto rows = parse(lat_messages_csv(r));
  ASSERT_EQ(rows.size(), 1u + 49u);  // iters - 1 samples
  EXPECT_EQ(rows[0][0], "iteration");
  EXPECT_EQ(rows[0].size(), 4u + kCategoryCount);
  std::int64_t start = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const std::int64_t rtt = std::stoll(rows[i][2]);
    EXPECT_EQ(std::stoll(rows[i][1]), start);  // each iteration starts when the last ended
    start += rtt;
    std::int64_t sum = 0;
    for (std::size_t k = 4; k < rows[i].size(); ++k) sum += std::stoll(rows[i][k]);
    EXPECT_EQ(sum, rtt);
  }
  LatConfig plain = c;
  plain.record_samples = false;
  EXPECT_TRUE(run_latency(plain).iterations.empty());
}

TEST(CsvExport, BwFlowsAndPortsMirrorTheRun) {
  BwConfig b;
  b.base.topology = LatTopology::fabric;
  b.base.fabric.topology = "single-switch";
  b.base.size = Bytes(65536);
  b.base.iters = 20;
  b.base.record_samples = true;
  const BwResult r = run_bandwidth(b);
  const auto m = parse(bw_messages_csv(r));
  ASSERT_EQ(m.size(), 21u);
  for (std::size_t i = 1; i < m.size(); ++i)
    EXPECT_EQ(std::stoll(m[i][3]), std::stoll(m[i][2]) - std::stoll(m[i][1]));
  const auto p = parse(ports_csv(*r.fabric));
  ASSERT_EQ(p.size(), r.fabric->ports.size() + 1);
  EXPECT_EQ(p[1][0], r.fabric->ports[0].port);
  EXPECT_EQ(std::stoull(p[1][2]), r.fabric->ports[0].tx_packets);

  TrafficConfig t;
  t.base = b.base;
  t.base.fabric.hosts = 4;
  t.pattern = "incast";
  t.incast_senders = 2;
  const TrafficResult tr = run_traffic(t);
  const auto f = parse(flows_csv(tr));
  ASSERT_EQ(f.size(), tr.flows.size() + 1);
  EXPECT_EQ(f[1][1], "h" + std::to_string(tr.flows[0].src));
  EXPECT_EQ(std::stoll(f[1][7]), tr.flows[0].completed);
}

TEST(CsvExport, FieldsWithSeparatorsAreQuoted) {
  EXPECT_EQ(csv_field("h0->sw0"), "h0->sw0");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
}

TEST(CsvExport, DirectoryIsCheckedBeforeTheRun) {
  EXPECT_THROW(CsvDir("/proc/version"), std::invalid_argument);  // a file, not a directory
  EXPECT_THROW(CsvDir("/proc/no/such/dir"), std::invalid_argument);
}

TEST(CsvExport, TimeseriesRowsAreTheProbesSlices) {
  TrafficConfig t;
  t.base.topology = LatTopology::fabric;
  t.base.fabric.topology = "single-switch";
  t.base.fabric.hosts = 4;
  t.base.size = Bytes(65536);
  t.base.iters = 50;
  t.pattern = "incast";
  t.incast_senders = 3;  // 3 x 100G into one 100G port: its queue builds and PFC pauses the senders
  const std::string watched = "sw0->h0";
  std::vector<Sample> samples;
  ProbeOptions o;
  o.interval = Time::us(20);
  o.target_samples = 1 << 30;  // fixed slices
  o.watch = {watched};
  o.sink = [&](Sample&& s) { samples.push_back(std::move(s)); };
  SampleProbe probe(o);
  Exports x{ExportOptions{}};
  x.set_probe(&probe);
  const TrafficResult r = run_traffic(t, &x);
  const auto rows = parse(timeseries_csv(samples, probe.port_names(), o.watch));
  ASSERT_EQ(rows.size(), samples.size() + 1);
  const std::vector<std::string> header{"t_us", "dt_us", "messages", "total_messages", "gbps", "p50_us", "p99_us",
                                        "max_us", "events", "pause_frames", "paused_us", "max_mean_queue_bytes",
                                        "max_queue_port", "queue_bytes sw0->h0", "pause_frames sw0->h0"};
  EXPECT_EQ(rows[0], header);
  std::int64_t messages = 0;
  std::uint64_t pauses = 0, watched_pauses = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    // Slices end at multiples of 20 us; empty ones are skipped, so a row spans one or more.
    EXPECT_EQ(std::fmod(std::stod(rows[i][0]), 20.0), 0.0);
    EXPECT_EQ(std::fmod(std::stod(rows[i][1]), 20.0), 0.0);
    EXPECT_GE(std::stod(rows[i][1]), 20.0);
    messages += std::stoll(rows[i][2]);
    EXPECT_EQ(std::stoll(rows[i][3]), messages);
    pauses += std::stoull(rows[i][9]);
    watched_pauses += std::stoull(rows[i][14]);
  }
  EXPECT_EQ(messages, 3 * 50);
  std::uint64_t run_pauses = 0;
  for (const PortStats& p : r.fabric.ports) run_pauses += p.pause_tx;
  EXPECT_GT(run_pauses, 0u);
  EXPECT_EQ(pauses, run_pauses);  // the slices' PFC frames are the run's
  EXPECT_EQ(watched_pauses, 0u);  // the switch's egress to the receiver is paused by nobody
  // The watched egress port is the bottleneck: its queue is the deepest in some slice.
  bool deepest = false;
  for (std::size_t i = 1; i < rows.size(); ++i) deepest = deepest || rows[i][12] == watched;
  EXPECT_TRUE(deepest);
}
