// The trace export: valid Chrome trace-event JSON whose per-message critical-path slices add
// up, to the picosecond, to the message's end-to-end time and to the reported latency.
#include "sim/tracer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "rdmasim/bandwidth.hpp"
#include "rdmasim/exports.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/traffic.hpp"

using namespace rdmasim;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path temp_file(const std::string& name) {
  return fs::path(::testing::TempDir()) / ("rdmasim_" + std::to_string(::getpid()) + "_" + name);
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Trace {
  json events;
  std::map<std::uint64_t, json> messages;            // msg id -> its summary slice
  std::map<std::uint64_t, std::vector<json>> steps;  // msg id -> its critical-path slices, in file order
  int counters = 0;
};

// Parses the file and checks the format: every event has name/ph/ts/pid/tid, slices have dur,
// flow starts and ends pair up, and slices on one thread never overlap (exact ps from args).
Trace load(const fs::path& p) {
  Trace t;
  const json j = json::parse(read_text(p));
  EXPECT_EQ(j.at("displayTimeUnit"), "ns");
  t.events = j.at("traceEvents");
  std::map<std::uint64_t, int> flows;
  std::map<std::pair<int, std::int64_t>, std::vector<std::pair<std::int64_t, std::int64_t>>> busy;
  for (const json& e : t.events) {
    for (const char* k : {"name", "ph", "ts", "pid", "tid"}) EXPECT_TRUE(e.contains(k)) << k << " missing: " << e;
    const std::string ph = e.at("ph");
    if (ph == "s") ++flows[e.at("id").get<std::uint64_t>()];
    if (ph == "f") flows[e.at("id").get<std::uint64_t>()] += 100;
    if (ph == "C") ++t.counters;
    if (ph != "X") continue;
    EXPECT_TRUE(e.contains("dur")) << e;
    const json& a = e.at("args");
    const auto id = a.at("msg").get<std::uint64_t>();
    const std::int64_t start = a.at("start_ps"), dur = e.at("cat") == "message" ? a.at("e2e_ps") : a.at("dur_ps");
    busy[{e.at("pid").get<int>(), e.at("tid").get<std::int64_t>()}].emplace_back(start, start + dur);
    if (e.at("cat") == "message")
      t.messages[id] = e;
    else
      t.steps[id].push_back(e);
  }
  for (const auto& [id, n] : flows) EXPECT_EQ(n, 101) << "flow " << id;
  for (auto& [track, spans] : busy) {
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i)
      EXPECT_LE(spans[i - 1].second, spans[i].first) << "overlap on pid " << track.first << " tid " << track.second;
  }
  return t;
}

// Each message's steps are contiguous from its post to its delivery and add up, category by
// category, to the ledger in its summary and in total to its end-to-end time.
void expect_critical_paths(const Trace& t) {
  ASSERT_FALSE(t.messages.empty());
  for (const auto& [id, m] : t.messages) {
    const json& a = m.at("args");
    std::int64_t at = a.at("start_ps"), sum = 0;
    std::map<std::string, std::int64_t> cats;
    const auto it = t.steps.find(id);
    ASSERT_NE(it, t.steps.end());
    for (const json& s : it->second) {
      EXPECT_EQ(s.at("args").at("start_ps").get<std::int64_t>(), at) << "msg " << id << " step " << s.at("name");
      const std::int64_t d = s.at("args").at("dur_ps");
      EXPECT_GT(d, 0);
      at += d;
      sum += d;
      cats[s.at("args").at("cat")] += d;
      EXPECT_EQ(s.at("cat"), s.at("args").at("cat"));
    }
    EXPECT_EQ(sum, a.at("e2e_ps").get<std::int64_t>()) << "msg " << id;
    EXPECT_EQ(a.at("steps").get<std::size_t>(), it->second.size());
    for (const auto& [c, v] : cats) EXPECT_EQ(a.at(c).get<std::int64_t>(), v) << "msg " << id << " " << c;
  }
}

LatResult traced_lat(const LatConfig& c, const fs::path& p, std::int64_t messages = 100) {
  ExportOptions o;
  o.trace_path = p.string();
  o.trace_messages = messages;
  Exports x(o);
  LatResult r = run_latency(c, &x);
  x.publish();
  const std::int64_t posted = (r.rtt_factor == 1 ? 1 : 2) * (c.iters - 1);
  EXPECT_EQ(x.stats.messages_traced, std::min(messages, posted));
  return r;
}

}  // namespace

// Jitter off, every exchange takes the same time: each traced message's slices add up to the
// one-way latency perftest reports (RTT/2; READ: the round trip), to the picosecond.
TEST(Tracer, LatencyCriticalPathsAddUpToTheReport) {
  std::vector<LatConfig> cases(8);
  cases[1].size = Bytes(65536);                                     // 16 packets, link-bound
  cases[2].test = TestKind::send;                                   // CQE, irq, moderation
  cases[2].toggles.busy_poll = false;
  cases[2].toggles.interrupt_coalescing = true;
  cases[3].transport = Transport::tcp;                              // kernel, copies, segments
  cases[3].test = TestKind::send;
  cases[3].size = Bytes(4096);
  cases[4].test = TestKind::read;
  cases[5].toggles.kernel_bypass = false;
  cases[5].toggles.zero_copy = false;
  cases[6].topology = LatTopology::fabric;                          // cross-pod, cut-through
  cases[6].fabric.to = 15;
  cases[6].size = Bytes(8192);
  cases[7] = cases[6];
  cases[7].profile.sw.cut_through = false;
  const fs::path p = temp_file("lat_trace.json");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    cases[i].iters = 12;
    fs::remove(p);
    const LatResult r = traced_lat(cases[i], p);
    const Trace t = load(p);
    expect_critical_paths(t);
    const auto e2e = [&](std::uint64_t id) { return t.messages.at(id).at("args").at("e2e_ps").get<std::int64_t>(); };
    if (r.rtt_factor == 1) {
      for (const auto& [id, m] : t.messages) EXPECT_EQ(static_cast<double>(e2e(id)), r.stats.typical_ps);
    } else {
      ASSERT_EQ(t.messages.size() % 2, 0u);
      for (std::uint64_t id = 1; id <= t.messages.size(); id += 2)
        EXPECT_EQ(static_cast<double>(e2e(id) + e2e(id + 1)), 2 * r.stats.typical_ps) << "iteration of msg " << id;
    }
  }
  fs::remove(p);
}

TEST(Tracer, TracesTheFirstMessagesOnly) {
  const fs::path p = temp_file("first.json");
  LatConfig c;
  c.iters = 50;
  traced_lat(c, p, 7);
  const Trace t = load(p);
  EXPECT_EQ(t.messages.size(), 7u);
  EXPECT_EQ(t.messages.rbegin()->first, 7u);
  fs::remove(p);
}

// Many flows over a fat-tree: the switch ports' and pipelines' tracks, the queue counters, and
// still exact critical paths; tracing does not change the simulation.
TEST(Tracer, FabricTracksCountersAndUnchangedResults) {
  TrafficConfig c;
  c.base.topology = LatTopology::fabric;
  c.base.fabric.k = 4;
  c.base.size = Bytes(65536);
  c.base.iters = 6;
  c.pattern = "incast";
  c.incast_senders = 6;
  c.tx_depth = 4;
  const TrafficResult plain = run_traffic(c);
  const fs::path p = temp_file("fabric.json");
  ExportOptions o;
  o.trace_path = p.string();
  o.trace_messages = 20;
  Exports x(o);
  const TrafficResult traced = run_traffic(c, &x);
  x.publish();
  EXPECT_EQ(traced.events, plain.events);
  EXPECT_EQ(traced.aggregate_bps, plain.aggregate_bps);
  const Trace t = load(p);
  expect_critical_paths(t);
  EXPECT_EQ(t.messages.size(), 20u);
  EXPECT_GT(t.counters, 0);
  std::set<std::string> names, procs;
  for (const json& e : t.events) {
    names.insert(e.at("name").get<std::string>());
    if (e.at("name") == "process_name") procs.insert(e.at("args").at("name").get<std::string>());
  }
  for (const char* n : {"edge0.0 pipeline", "edge0.0->h0 transmit", "edge0.0->h0 queue", "h1->edge0.0 propagate",
                        "A.verbs.post_send", "queue edge0.0->h0"})
    EXPECT_TRUE(names.count(n)) << n;
  for (const char* n : {"messages", "h0", "h1", "edge0.0"}) EXPECT_TRUE(procs.count(n)) << n;
  fs::remove(p);
}

TEST(Tracer, SameSeedSameBytes) {
  BwConfig c;
  c.base.size = Bytes(16384);
  c.base.iters = 40;
  c.tx_depth = 8;
  std::string text[2];
  for (int i = 0; i < 2; ++i) {
    const fs::path p = temp_file("det" + std::to_string(i) + ".json");
    ExportOptions o;
    o.trace_path = p.string();
    Exports x(o);
    run_bandwidth(c, &x);
    x.publish();
    text[i] = read_text(p);
    fs::remove(p);
  }
  EXPECT_FALSE(text[0].empty());
  EXPECT_EQ(text[0], text[1]);
}

TEST(Exports, NothingPublishedUnlessTheRunSucceeds) {
  const fs::path p = temp_file("unpublished.json"), q = temp_file("unpublished.pcapng");
  {
    ExportOptions o;
    o.trace_path = p.string();
    o.pcap_path = q.string();
    Exports x(o);
    LatConfig c;
    c.iters = 10;
    run_latency(c, &x);
  }  // never published
  for (const fs::path& f : {p, q}) {
    EXPECT_FALSE(fs::exists(f));
    EXPECT_FALSE(fs::exists(f.string() + ".tmp"));
  }
  ExportOptions bad;
  bad.trace_path = "/nonexistent-dir/t.json";
  try {
    Exports x(bad);
    FAIL() << "expected an exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--trace /nonexistent-dir/t.json"), std::string::npos) << e.what();
  }
}
