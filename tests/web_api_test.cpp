// The dashboard's HTTP API against a real server on 127.0.0.1 (ephemeral port): every
// endpoint, every limit, malformed input and traversal attempts get the right status and a
// JSON error naming the key.
#include <gtest/gtest.h>
#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "io/json_report.hpp"
#include "rdmasim/demo.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/scenario.hpp"
#include "io/list_report.hpp"
#include "web/presets.hpp"
#include "web/web_server.hpp"

using namespace rdmasim;
using namespace rdmasim::web;
using nlohmann::json;

namespace {

class WebApi : public ::testing::Test {
 protected:
  static ServerOptions options() {
    ServerOptions o;
    o.port = 0;
    o.max_body = 4096;
    o.limits.workers = 1;
    o.limits.max_active = 2;
    o.limits.max_hosts = 16;
    o.limits.max_messages = 5000;
    o.limits.max_events = 2'000'000;
    o.limits.max_sim_time_us = 500'000;
    o.api.max_streams = 2;
    o.api.heartbeat_ms = 100;
    return o;
  }
  void SetUp() override {
    server = std::make_unique<WebServer>(options());
    port = server->start();
    client = std::make_unique<httplib::Client>("127.0.0.1", port);
    client->set_read_timeout(30);
  }
  void TearDown() override { server->stop(); }

  json body(const httplib::Result& r) { return json::parse(r->body); }
  // POSTs a scenario; returns the result.
  httplib::Result post(const std::string& scenario, const std::string& query = "") {
    return client->Post(("/api/runs" + query).c_str(), scenario, "application/json");
  }
  std::string start(const std::string& scenario, const std::string& query = "") {
    auto r = post(scenario, query);
    EXPECT_EQ(r->status, 201) << r->body;
    return body(r)["id"];
  }
  // DELETE /api/runs/ID as the dashboard sends it (a write must say it is JSON).
  httplib::Result del(const std::string& id) {
    return client->Delete(("/api/runs/" + id).c_str(), {{"Content-Type", "application/json"}});
  }
  json finished(const std::string& id) {
    EXPECT_TRUE(server->runs().wait(id, std::chrono::seconds(60)));
    auto r = client->Get(("/api/runs/" + id).c_str());
    EXPECT_EQ(r->status, 200);
    return body(r);
  }
  void expect_error(const httplib::Result& r, int status, const std::string& key, const std::string& contains) {
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, status) << r->body;
    const json j = body(r);
    EXPECT_EQ(j["key"], key) << r->body;
    EXPECT_NE(j["error"].get<std::string>().find(contains), std::string::npos) << r->body;
  }

  std::unique_ptr<WebServer> server;
  int port = 0;
  std::unique_ptr<httplib::Client> client;
};

const char* kLat = R"({"command":"lat","workload":{"size":"64","iters":200}})";

TEST_F(WebApi, LatencyRunReportsTheSameMetricsAsTheCli) {
  const json j = finished(start(kLat));
  EXPECT_EQ(j["status"], "done");
  EXPECT_EQ(j["command"], "lat");
  // The CLI's figure for a 64 B WRITE back to back (README: 1.026 us one way; with 200 iterations).
  EXPECT_NEAR(j["metrics"]["t_typical_us"].get<double>(), 1.026, 0.001);
  EXPECT_EQ(j["messages"], 2 * 199);  // both legs of 199 exchanges (perftest runs iters - 1)
  EXPECT_GT(j["samples"].get<int>(), 10);
}

TEST_F(WebApi, OpenLoopFlowsRunObservedWithTheLibrarysFigures) {
  // Watching never changes what is simulated: the API's observed run has the unobserved
  // library run's figures, and its samples count every flow.
  const char* flows = R"({"command":"flows","workload":{"cdf":"hadoop","flows":40,"load":0.5}})";
  const json j = finished(start(flows));
  ASSERT_EQ(j["status"], "done") << j.dump();
  const RunResult r = run(parse_scenario(flows, "body", true));
  EXPECT_EQ(j["metrics"]["completed"], 40);
  EXPECT_DOUBLE_EQ(j["metrics"]["slowdown.all.p99"].get<double>(), r.metric("slowdown.all.p99"));
  EXPECT_DOUBLE_EQ(j["metrics"]["slowdown.all.p50"].get<double>(), r.metric("slowdown.all.p50"));
  EXPECT_EQ(j["messages"], 40);
  EXPECT_GT(j["samples"].get<int>(), 5);
}

TEST_F(WebApi, EventStreamDeliversStatusSamplesAndDone) {
  const std::string id = start(R"({"command":"bw","workload":{"size":"64KiB","iters":300}})");
  std::string all;
  auto r = client->Get(("/api/runs/" + id + "/events").c_str(),
                       [&](const char* d, size_t n) { all.append(d, n); return true; });
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/event-stream");
  EXPECT_NE(all.find("event: status\ndata: {\"id\":\"" + id + "\",\"status\":\"running\"}"), std::string::npos);
  EXPECT_NE(all.find("event: done"), std::string::npos);
  std::size_t samples = 0;
  double gbps = 0;
  for (std::size_t p = 0; (p = all.find("event: sample\ndata: ", p)) != std::string::npos; ++p) {
    ++samples;
    const auto start = p + 20;
    const json s = json::parse(all.substr(start, all.find('\n', start) - start));
    gbps = std::max(gbps, s["gbps"].get<double>());
  }
  const json j = finished(id);
  EXPECT_EQ(static_cast<std::int64_t>(samples), j["samples"].get<std::int64_t>());
  EXPECT_EQ(j["messages"], 300);
  EXPECT_GT(gbps, 90.0);   // a slice of the window at line rate
  EXPECT_LT(gbps, 100.0);
}

TEST_F(WebApi, PresetsParseAndRun) {
  auto r = client->Get("/api/presets");
  ASSERT_EQ(r->status, 200);
  const json p = body(r);
  EXPECT_EQ(p.size(), presets().size());
  bool found = false;
  for (const auto& x : p) {
    found = found || (x["id"] == "incast-pfc" && x["scenario"]["workload"]["pattern"] == "incast");
    // The ports offered to watch: the preset's own fabric, switch-to-host ports first; none without one.
    if (x["id"] == "incast-pfc") {
      EXPECT_EQ(x["ports"].size(), 96u);  // k=4 fat-tree: 48 cables, both directions
      EXPECT_EQ(x["ports"][0], "edge0.0->h0");
      EXPECT_EQ(x["ports"][16], "agg0.0->core0");  // then the others, cable by cable
    }
    if (x["id"] == "pfc-deadlock") {
      EXPECT_EQ(x["ports"][1], "sw1->h1");
    }
    if (x["id"] == "tcp-baseline") {
      EXPECT_EQ(x["ports"].size(), 0u);
    }
  }
  EXPECT_TRUE(found);
  const json j = finished(start("", "?preset=incast-pfc&ports=edge0.0-%3Eh0"));
  EXPECT_EQ(j["status"], "done");
  EXPECT_EQ(j["preset"], "incast-pfc");
  EXPECT_EQ(j["messages"], 8 * 20);
  EXPECT_GT(j["metrics"]["fabric.pause_frames"].get<double>(), 0);
  EXPECT_EQ(j["ports"].size(), 96u);  // k=4: 48 cables, two ports each
  expect_error(post("", "?preset=nope"), 404, "preset", "no preset \"nope\"");
  expect_error(post(kLat, "?preset=incast-pfc"), 400, "preset", "not both");
  expect_error(post("", "?preset=incast-pfc&ports=edge9->h0"), 400, "ports", "no port \"edge9->h0\"");
}

TEST_F(WebApi, BadScenariosNameTheKey) {
  expect_error(post(R"({"command":"lat",)"), 400, "", "invalid JSON");
  // Open-loop runs may not name files on the server.
  expect_error(post(R"({"command":"flows","workload":{"flow_file":"/etc/passwd"}})"), 400, "workload.flow_file",
               "files on the server");
  expect_error(post(R"({"command":"flows","workload":{"cdf":"/etc/passwd"}})"), 400, "workload.cdf",
               "not a file on the server");
  expect_error(post(R"({"command":"lat","workload":{"itrs":3}})"), 400, "workload.itrs", "unknown key");
  expect_error(post(R"({"command":"bw","network":{"topology":"fat-tree"},"workload":{"pattern":"permutation","threads":2}})"),
               422, "workload.threads", "from the command line");
  expect_error(post(R"({"command":"lat","workload":{"iters":"x"}})"), 400, "workload.iters", "expected an integer");
  expect_error(post(R"([1,2])"), 400, "", "");
  expect_error(post(""), 400, "", "the body must be a scenario");
  expect_error(post(R"({"command":"lat","host_profile":"/etc/passwd"})"), 400, "host_profile", "cannot be named");
  expect_error(post(R"({"command":"lat","outputs":{"csv":"/tmp/x"}})"), 400, "outputs.csv", "the server writes no files");
  expect_error(post(R"({"command":"lat","workload":{"all":true}})"), 422, "workload.all", "one message size");
  expect_error(post(kLat, "?sample_us=abc"), 400, "sample_us", "microseconds");
}

// Regression: the host limit's error named network.k whatever the topology.
TEST_F(WebApi, HostLimitNamesTheTopologysOwnKey) {
  expect_error(post(R"({"command":"bw","workload":{"pattern":"permutation","iters":5},"network":{"topology":"single-switch","hosts":20}})"),
               422, "network.hosts", "20 hosts (limit 16)");
  expect_error(post(R"({"command":"bw","workload":{"pattern":"permutation","iters":5},"network":{"topology":"ring","switches":6,"hosts_per_switch":3}})"),
               422, "network.switches", "18 hosts (limit 16)");
  expect_error(post(R"({"command":"bw","workload":{"pattern":"permutation","iters":5},"network":{"topology":"leaf-spine","leaves":5,"hosts_per_leaf":4}})"),
               422, "network.leaves", "20 hosts (limit 16)");
}

// Regression: POST /api/runs echoed workload.qps and workload.bidirectional and ran one QP one way.
TEST_F(WebApi, RunHonoursQpsAndBidirectional) {
  const json j = finished(start(R"({"command":"bw","workload":{"size":"64KiB","iters":200,"qps":4,"bidirectional":true}})"));
  ASSERT_EQ(j["status"], "done") << j.dump();
  EXPECT_NEAR(j["metrics"]["msg_rate_Mpps"].get<double>(), 0.3732, 5e-5) << j["metrics"].dump();
}

// Regression: a run whose every QP went to RETRY_EXC_ERR was reported done with its numbers only.
TEST_F(WebApi, AFailedExperimentSaysSo) {
  const json j = finished(start(R"({"command":"bw","workload":{"pattern":"permutation","iters":20},
      "network":{"topology":"single-switch","hosts":4,"loss":0.3},"params":{"rc":{"retry_cnt":1,"timeout":1}}})"));
  ASSERT_EQ(j["status"], "done") << j.dump();
  EXPECT_EQ(j["failure"], "4 QPs in RETRY_EXC_ERR") << j.dump();
  const json ok = finished(start(R"({"command":"bw","workload":{"pattern":"permutation","iters":20},
      "network":{"topology":"single-switch","hosts":4}})"));
  EXPECT_FALSE(ok.contains("failure")) << ok.dump();
}

TEST_F(WebApi, WorkLimits) {
  expect_error(post(R"({"command":"bw","workload":{"pattern":"permutation","iters":5},"network":{"topology":"fat-tree","k":6}})"),
               422, "network.k", "54 hosts (limit 16)");
  expect_error(post(R"({"command":"lat","workload":{"iters":6000}})"), 422, "workload.iters", "limit of 5000 messages");
  expect_error(post(R"({"command":"bw","workload":{"pattern":"alltoall","iters":30},"network":{"topology":"fat-tree","k":4}})"),
               422, "workload.iters", "30 iterations x 240 flows");
  // At run time: simulated time and events.
  json j = finished(start(R"({"command":"bw","workload":{"size":"64","iters":4900,"tx_depth":1}})", "?sample_us=1"));
  EXPECT_EQ(j["status"], "done") << j.dump();
  server->stop();
  ServerOptions o = options();
  o.limits.max_sim_time_us = 1000;
  server = std::make_unique<WebServer>(o);
  client = std::make_unique<httplib::Client>("127.0.0.1", server->start());
  j = finished(start(R"({"command":"bw","workload":{"size":"1MiB","iters":1000}})"));
  EXPECT_EQ(j["status"], "failed");
  EXPECT_EQ(j["error_key"], "limits.sim_time_us");
  EXPECT_NE(j["error"].get<std::string>().find("limit of 1000 us of simulated time"), std::string::npos) << j.dump();
  server->stop();
  o = options();
  o.limits.max_events = 20'000;
  server = std::make_unique<WebServer>(o);
  client = std::make_unique<httplib::Client>("127.0.0.1", server->start());
  j = finished(start(R"({"command":"bw","workload":{"size":"64","iters":4900,"tx_depth":1}})", "?sample_us=1"));
  EXPECT_EQ(j["status"], "failed");
  EXPECT_EQ(j["error_key"], "limits.events");
  EXPECT_NE(j["error"].get<std::string>().find("20000 events"), std::string::npos);
}

TEST_F(WebApi, ConcurrentRunLimitAndCancel) {
  const char* slow = R"({"command":"bw","workload":{"size":"64KiB","iters":5000}})";
  server->stop();
  ServerOptions o = options();
  o.limits.max_sim_time_us = 1e9;
  server = std::make_unique<WebServer>(o);
  client = std::make_unique<httplib::Client>("127.0.0.1", server->start());
  const std::string a = start(slow, "?sample_us=0.5"), b = start(slow);
  expect_error(post(slow), 429, "limits.runs", "2 runs are queued or running (limit 2)");
  auto d = del(b);  // queued behind a (one worker)
  EXPECT_EQ(d->status, 200);
  EXPECT_EQ(finished(b)["status"], "cancelled");
  d = del(a);
  EXPECT_EQ(d->status, 200);
  const json ja = finished(a);
  EXPECT_EQ(ja["status"], "cancelled");
  const std::string c = start(kLat);
  finished(c);
  expect_error(del(c), 409, "id", "already finished");
  expect_error(del("r999"), 404, "id", "no run \"r999\"");
}

TEST_F(WebApi, StreamLimit) {
  server->stop();
  ServerOptions o = options();
  o.limits.max_sim_time_us = 1e9;
  server = std::make_unique<WebServer>(o);
  const int p = server->start();
  client = std::make_unique<httplib::Client>("127.0.0.1", p);
  const std::string id = start(R"({"command":"bw","workload":{"size":"1MiB","iters":4000}})");
  std::atomic<int> opened{0};
  std::vector<std::thread> readers;
  for (int i = 0; i < 2; ++i)
    readers.emplace_back([&, p] {
      httplib::Client c("127.0.0.1", p);
      c.Get(("/api/runs/" + id + "/events").c_str(), [&](const char*, size_t) { ++opened; return true; });
    });
  for (int i = 0; i < 200 && server->api().open_streams() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(server->api().open_streams(), 2);
  expect_error(client->Get(("/api/runs/" + id + "/events").c_str()), 429, "limits.streams", "2 event streams");
  EXPECT_EQ(del(id)->status, 200);  // ends the streams
  for (auto& t : readers) t.join();
  EXPECT_EQ(finished(id)["status"], "cancelled");
  EXPECT_GT(opened.load(), 0);
  // The server's side of a stream ends after its client saw the end: wait for it.
  for (int i = 0; i < 300 && server->api().open_streams() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(server->api().open_streams(), 0);
}

TEST_F(WebApi, RunsListLimitsAndUnknownRuns) {
  const std::string id = start(kLat);
  finished(id);
  auto r = client->Get("/api/runs");
  ASSERT_EQ(r->status, 200);
  EXPECT_EQ(body(r)[0]["id"], id);
  r = client->Get("/api/components");  // the registries, as `rdmasim list --json`
  ASSERT_EQ(r->status, 200);
  const json listed = body(r);
  EXPECT_EQ(listed, json::parse(versioned(list_json()).dump()));
  bool dt = false;
  for (const json& c : listed["components"]) dt = dt || (c["kind"] == "buffer policy" && c["name"] == "dynamic-threshold");
  EXPECT_TRUE(dt);
  r = client->Get("/api/limits");
  EXPECT_EQ(body(r)["max_hosts"], 16);
  EXPECT_EQ(body(r)["max_streams"], 2);
  EXPECT_EQ(body(r)["max_body_bytes"], 4096);  // the same for every content type
  EXPECT_EQ(body(r)["max_connections"], 512);
  EXPECT_EQ(body(r)["request_timeout_ms"], 10000);
  EXPECT_EQ(body(r)["idle_timeout_ms"], 5000);
  expect_error(client->Get("/api/runs/r999"), 404, "id", "no run");
  expect_error(client->Get("/api/runs/r999/events"), 404, "id", "no run");
}

TEST_F(WebApi, Views) {
  auto r = client->Get("/api/demo?size=2&iters=200");
  ASSERT_EQ(r->status, 200);
  const std::string r0_body = r->body;
  json j = body(r);
  ASSERT_EQ(j["steps"].size(), 4u);
  EXPECT_EQ(j["steps"][0]["name"], "TCP");
  EXPECT_NEAR(j["steps"][0]["t_avg_us"].get<double>(), 10.165, 0.001);  // `rdmasim demo` (README)
  EXPECT_NEAR(j["steps"][3]["t_avg_us"].get<double>(), 1.268, 0.001);
  EXPECT_NEAR(j["steps"][1]["saves_us"].get<double>(), 4.775, 0.001);
  // Regression: junk parameters made new cache entries, and size x iters was unbounded (25 s of
  // CPU on an HTTP thread). The cache key is the validated parameters; the work is capped.
  const std::size_t cached = server->api().demo_cache_size();
  EXPECT_EQ(client->Get("/api/demo?iters=200&size=2&junk=1")->body, r0_body);
  EXPECT_EQ(client->Get("/api/demo?iters=200&profile=default&size=2&x=y")->body, r0_body);
  EXPECT_EQ(server->api().demo_cache_size(), cached);
  expect_error(client->Get("/api/demo?size=1048576&iters=20000"), 400, "iters",
               "iters: 20000 messages of 1048576 B are 5120000 packets per step; a view runs at most 200000");
  r = client->Get("/api/path?size=65536&mem=host");
  j = body(r);
  ASSERT_EQ(j["paths"].size(), 2u);
  EXPECT_NEAR(j["paths"][0]["one_way_us"].get<double>(), 7.1413, 1e-4);  // `budget --stages`: A.verbs.post_send .. B.verbs.poll
  EXPECT_NEAR(j["paths"][1]["one_way_us"].get<double>() - j["paths"][0]["one_way_us"].get<double>(), 2 * 6.7716, 1e-3);
  // GPU buffers (the default): each path's one way is `budget -s 1048576 --mem gpu ...`'s total
  // (RTT/2 of a symmetric exchange), and its GPU segments are the copy engine's.
  r = client->Get("/api/path?size=1048576&chunk=262144");
  j = body(r);
  ASSERT_EQ(j["paths"].size(), 3u);
  EXPECT_EQ(j["pcie_topology"], "switch");
  EXPECT_NEAR(j["paths"][0]["one_way_us"].get<double>(), 87.058889, 1e-6);   // --gpudirect on
  EXPECT_NEAR(j["paths"][1]["one_way_us"].get<double>(), 181.244969, 1e-6);  // --gpudirect off
  EXPECT_NEAR(j["paths"][2]["one_way_us"].get<double>(), 118.330409, 1e-6);  // --staging-chunk 262144
  const auto has_gpu = [](const json& p) {
    for (const auto& s : p["segments"]) if (s["component"] == "gpu") return true;
    return false;
  };
  EXPECT_FALSE(has_gpu(j["paths"][0]));
  EXPECT_TRUE(has_gpu(j["paths"][1]));
  EXPECT_EQ(j["paths"][1]["segments"].front()["stages"].front()["label"], "A.gpu.d2h_copy.launch");
  EXPECT_EQ(j["paths"][1]["segments"].back()["stages"].back()["label"], "B.gpu.h2d_copy");
  r = client->Get("/api/path?size=1048576&pcie_topology=cross-socket");
  EXPECT_NEAR(body(r)["paths"][0]["one_way_us"].get<double>(), 89.756889, 1e-6);  // --set pcie.topology=cross-socket
  expect_error(client->Get("/api/path?pcie_topology=numa"), 400, "pcie_topology", "switch, root or cross-socket");
  expect_error(client->Get("/api/path?chunk=5000"), 400, "chunk", "multiple of the MTU");
  expect_error(client->Get("/api/path?mem=disk"), 400, "mem", "gpu or host");
  // The pipeline view: the demo's first and last steps one way, from the sender's send() or post
  // to the receiver's recv() return or poll: each the budget's RTT/2 of its symmetric exchange,
  // to the picosecond (`budget -s 4096 --transport tcp`: 14419810 ps).
  r = client->Get("/api/pipeline?size=4096");
  j = body(r);
  ASSERT_EQ(j["paths"].size(), 2u);
  LatConfig base;
  base.size = Bytes(4096);
  const std::vector<LatConfig> steps = demo_step_configs(base);
  for (int i = 0; i < 2; ++i) {
    const json& p = j["paths"][static_cast<std::size_t>(i)];
    const BudgetResult b = run_budget(i == 0 ? steps.front() : steps.back());
    double sum = 0;
    for (const auto& seg : p["segments"]) sum += seg["us"].get<double>();
    EXPECT_NEAR(p["one_way_us"].get<double>(), sum, 1e-9);
    EXPECT_NEAR(p["one_way_us"].get<double>() * 1e6, b.reported_ps, 1.0) << p["name"];
  }
  EXPECT_EQ(j["paths"][0]["segments"].front()["stages"].front()["label"], "A.kernel.send");
  EXPECT_EQ(j["paths"][0]["segments"].back()["stages"].back()["label"], "B.kernel.recv_return");
  EXPECT_EQ(j["paths"][1]["segments"].front()["stages"].front()["label"], "A.verbs.post_send");
  EXPECT_EQ(j["paths"][1]["segments"].back()["stages"].back()["label"], "B.verbs.poll");
  EXPECT_NEAR(j["paths"][0]["one_way_us"].get<double>(), 11.44285, 1e-9);  // TSO, GRO and NAPI on the TCP path
  expect_error(client->Get("/api/pipeline?size=0"), 400, "size", "size");
  r = client->Get("/api/topology?k=4&from=h0&to=h15");
  j = body(r);
  EXPECT_EQ(j["hosts"], 16);
  EXPECT_EQ(j["paths"].size(), 4u);  // `rdmasim topo --k 4 --from h0 --to h15`
  EXPECT_EQ(j["paths"][0]["links"], 6);
  EXPECT_EQ(j["paths"][0]["one_way_ps"], 2757443);
  EXPECT_EQ(j["hop_histogram"]["6"], 192);
  EXPECT_EQ(j["nodes"].size(), 36u);
  EXPECT_EQ(j["link_list"].size(), 48u);
  expect_error(client->Get("/api/topology?k=5"), 400, "k", "must be even");
  expect_error(client->Get("/api/topology?k=x"), 400, "k", "expected an integer");
  expect_error(client->Get("/api/topology?k=4&from=h99"), 400, "from", "no host \"h99\"");
  expect_error(client->Get("/api/topology?topology=ring"), 400, "topology", "fat-tree, leaf-spine or single-switch");
  expect_error(client->Get("/api/path?size=0"), 400, "size", "out of range");
  expect_error(client->Get("/api/demo?profile=nope"), 400, "profile", "profile");
}

TEST_F(WebApi, StaticAssetsAndTraversal) {
  auto r = client->Get("/");
  ASSERT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(r->body.find("rdmasim dashboard"), std::string::npos);
  r = client->Get("/vendor/echarts.min.js");
  EXPECT_EQ(r->status, 200);
  EXPECT_GT(r->body.size(), 100u);
  r = client->Get("/common.js");
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  expect_error(client->Get("/nope.html"), 404, "path", "no file /nope.html");
  expect_error(client->Get("/api/nope"), 404, "path", "no API route /api/nope");
  expect_error(client->Post("/nope", "x", "application/json"), 404, "path", "no route POST /nope");
  for (const char* p : {"/../etc/passwd", "/%2e%2e/etc/passwd", "/%2E%2E%2Fetc%2Fpasswd", "/%252e%252e/etc/passwd",
                        "/..%2fetc/passwd", "/a/..", "/%5c..%5cetc", "//etc/passwd"})
    expect_error(client->Get(p), 400, "path", "path not allowed");
  std::string big(5000, ' ');
  expect_error(client->Post("/api/runs", big, "application/json"), 413, "body", "larger than the limit");
}

// Regression: a body nested 20,000 deep crashed the server (recursion in the scenario parser).
TEST_F(WebApi, DeeplyNestedBodyIs400AndTheServerLives) {
  std::string deep;
  for (int i = 0; i < 20000; ++i) deep += "{\"a\":";
  deep += "1" + std::string(20000, '}');
  ServerOptions o = options();
  o.max_body = 1 << 20;
  WebServer big(o);
  httplib::Client c("127.0.0.1", big.start());
  expect_error(c.Post("/api/runs", deep, "application/json"), 400, "", "nesting deeper than 64 levels");
  EXPECT_EQ(c.Get("/api/limits")->status, 200);
  big.stop();
}

// Same origin only: another origin, a rebinding Host or a non-JSON write is refused before
// anything runs; every response carries the security headers.
TEST_F(WebApi, CrossOriginRebindingAndFormPostsAreRefused) {
  const std::string own = "http://127.0.0.1:" + std::to_string(port);
  const std::string preset = "?preset=" + presets().front().id;
  httplib::Headers other{{"Origin", "http://127.0.0.1:" + std::to_string(port + 1)}};
  expect_error(client->Post(("/api/runs" + preset).c_str(), other, "", "application/json"), 403, "origin", "refused");
  expect_error(client->Post(("/api/runs" + preset).c_str(), "", "text/plain"), 415, "content-type", "text/plain");
  expect_error(client->Post(("/api/runs" + preset).c_str(), std::string(4000, 'x'), "application/x-www-form-urlencoded"),
               415, "content-type", "application/x-www-form-urlencoded");
  // One body limit for every type, refused from the Content-Length before the body is read.
  expect_error(client->Post(("/api/runs" + preset).c_str(), std::string(8000, 'x'), "application/x-www-form-urlencoded"),
               413, "body", "over the body limit of 4096 bytes");
  expect_error(client->Get("/api/presets", {{"Host", "evil.example"}}), 403, "host", "evil.example");
  // Found by the HTTP fuzz target: a Host that is not UTF-8 made the error's JSON throw (500).
  expect_error(client->Get("/api/presets", {{"Host", "loc\xa2lhost"}}), 403, "host", "loc\xef\xbf\xbdlhost");
  expect_error(client->Delete("/api/runs/r1"), 415, "content-type", "DELETE needs");
  EXPECT_EQ(body(client->Get("/api/runs")).size(), 0u) << "nothing was started";
  auto r = client->Post(("/api/runs" + preset).c_str(), {{"Origin", own}}, "", "application/json");
  EXPECT_EQ(r->status, 201) << r->body;
  for (const auto& res : {client->Get("/"), client->Get("/api/limits"), client->Get("/nope.html"),
                          client->Get("/api/presets", {{"Host", "evil.example"}})}) {
    EXPECT_EQ(res->get_header_value("X-Content-Type-Options"), "nosniff");
    const std::string csp = res->get_header_value("Content-Security-Policy");
    EXPECT_NE(csp.find("script-src 'self';"), std::string::npos) << csp;
    EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
  }
}

// No SO_REUSEPORT: a second server on a port in use fails instead of taking half the requests.
TEST(WebListen, SecondServerOnTheSamePortFails) {
  ServerOptions o;
  o.port = 0;
  WebServer first(o);
  o.port = first.bind();
  WebServer second(o);
  try {
    second.bind();
    ADD_FAILURE() << "a second server bound port " << o.port;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("in use"), std::string::npos) << e.what();
  }
}

TEST(WebDir, ServesFromDiskInsideTheDirectoryOnly) {
  ServerOptions o;
  o.port = 0;
  o.web_dir = std::string(RDMASIM_SOURCE_DIR) + "/web";
  WebServer s(o);
  httplib::Client c("127.0.0.1", s.start());
  auto r = c.Get("/index.html");
  ASSERT_EQ(r->status, 200);
  EXPECT_NE(r->body.find("rdmasim dashboard"), std::string::npos);
  EXPECT_EQ(s.asset("/../CMakeLists.txt").status, 400);
  EXPECT_EQ(s.asset("/missing.js").status, 404);
  EXPECT_EQ(c.Get("/%2e%2e/CMakeLists.txt")->status, 400);
  s.stop();
}

// A burst of new connections must be queued by the kernel, not dropped or reset: httplib's
// compiled-in backlog of 5 made the 7th concurrent connect wait for SYN retries (and, with SYN
// cookies, reset a POST). Bound but not serving, the server accepts nothing, so exactly the
// connects the backlog holds complete; the 10 s poll is only a bound.
TEST(WebListen, BacklogHoldsABurstOfConnections) {
  ServerOptions o;
  o.port = 0;
  WebServer s(o);
  const int port = s.bind();
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  constexpr int kBurst = 64;
  std::vector<pollfd> fds;
  for (int i = 0; i < kBurst; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    ASSERT_GE(fd, 0);
    const int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a);
    ASSERT_TRUE(rc == 0 || errno == EINPROGRESS) << errno;
    fds.push_back({fd, POLLOUT, 0});
  }
  // Poll only the connects still pending (a connected socket stays writable), 100 ms a round.
  std::vector<int> done;
  for (int round = 0; round < 100 && !fds.empty(); ++round) {
    ::poll(fds.data(), fds.size(), 100);
    std::vector<pollfd> pending;
    for (const pollfd& p : fds) {
      int err = -1;
      socklen_t len = sizeof err;
      if (!(p.revents & POLLOUT)) pending.push_back({p.fd, POLLOUT, 0});
      else if (::getsockopt(p.fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0) done.push_back(p.fd);
      else ::close(p.fd);  // refused or reset: not counted
    }
    fds = std::move(pending);
  }
  const int connected = static_cast<int>(done.size());
  for (const pollfd& p : fds) ::close(p.fd);
  for (int fd : done) ::close(fd);
  EXPECT_EQ(connected, kBurst);
}

TEST(ErrorKey, TakesTheKeyPathAfterTheSource) {
  EXPECT_EQ(error_key("request: workload.iters: workload.iters: bad", "request"), "workload.iters");
  EXPECT_EQ(error_key("request: byte 3: invalid JSON", "request"), "");
  EXPECT_EQ(error_key("other: x: y", "request"), "");
}

}  // namespace
