// Load check of `rdmasim serve` (loopback only): while two simulations run, a bounded burst of
// concurrent API requests from 16 client threads and 8 SSE clients (one of them reading slowly)
// must all succeed, every SSE client must see its run's "done" event, and the runs must finish.
// Prints the figures (request rate and latency, events per client); exit 1 on any error.
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "web/web_server.hpp"

using namespace rdmasim::web;
using Clock = std::chrono::steady_clock;

int main() {
  ServerOptions o;
  o.port = 0;
  WebServer server(o);
  const int port = server.start();
  httplib::Client c("127.0.0.1", port);
  const char* run = R"({"command":"bw","workload":{"pattern":"permutation","size":"64KiB","iters":300,"tx_depth":8},
                        "network":{"topology":"fat-tree","k":4,"routing":"spray"},"params":{"rc":{"ooo_placement":true}}})";
  // The same run alone first: its wall time is the baseline for the loaded ones.
  auto r0 = c.Post("/api/runs", run, "application/json");
  if (!r0 || r0->status != 201) return std::printf("load: could not start a run\n"), 1;
  const std::string alone = nlohmann::json::parse(r0->body)["id"];
  server.runs().wait(alone, std::chrono::seconds(120));
  const double alone_ms = (*server.runs().get(alone))["wall_ms"];
  std::vector<std::string> ids;
  const auto t0 = Clock::now();
  for (int i = 0; i < 2; ++i) {
    auto r = c.Post("/api/runs", run, "application/json");
    if (!r || r->status != 201) return std::printf("load: could not start a run\n"), 1;
    ids.push_back(nlohmann::json::parse(r->body)["id"]);
  }
  std::atomic<int> errors{0};
  std::vector<std::int64_t> sse_events(8, 0);
  std::vector<char> sse_done(8, 0);  // one byte per client thread (vector<bool> packs the 8 flags into one word)
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      httplib::Client s("127.0.0.1", port);
      s.set_connection_timeout(10);  // a loaded CI machine may queue the connect past httplib's 300 ms
      s.set_read_timeout(120);
      std::string buf;
      auto r = s.Get(("/api/runs/" + ids[static_cast<std::size_t>(i % 2)] + "/events").c_str(), [&](const char* d, size_t n) {
        buf.append(d, n);
        if (i == 7) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the slow reader
        return true;
      });
      if (!r || r->status != 200) {
        ++errors;
        std::fprintf(stderr, "load: SSE client %d: %s\n", i,
                     r ? ("status " + std::to_string(r->status)).c_str() : httplib::to_string(r.error()).c_str());
      }
      for (std::size_t p = 0; (p = buf.find("\nevent: ", p)) != std::string::npos; ++p) ++sse_events[static_cast<std::size_t>(i)];
      sse_done[static_cast<std::size_t>(i)] = buf.find("event: done") != std::string::npos;
    });
  const int clients = 16, per_client = 40;
  std::vector<std::vector<double>> lat(clients);
  std::vector<std::thread> burst;
  const auto b0 = Clock::now();
  for (int k = 0; k < clients; ++k)
    burst.emplace_back([&, k] {
      httplib::Client h("127.0.0.1", port);
      h.set_connection_timeout(10);
      h.set_read_timeout(60);
      for (int i = 0; i < per_client; ++i) {
        const auto q0 = Clock::now();
        const int want = i % 6 == 3 || i % 6 == 5 ? 400 : 200;
        const httplib::Result r = [&] {
          switch (i % 6) {
            case 0: return h.Get(("/api/runs/" + ids[static_cast<std::size_t>(i % 2)]).c_str());
            case 1: return h.Get("/api/presets");
            case 2: return h.Get("/api/topology?k=4&from=h0&to=h15");
            case 3: return h.Post("/api/runs", "{\"command\":", "application/json");
            case 4: return h.Get("/index.html");
            default: return h.Get("/%2e%2e/etc/passwd");
          }
        }();
        lat[static_cast<std::size_t>(k)].push_back(std::chrono::duration<double, std::milli>(Clock::now() - q0).count());
        if (!r || r->status != want) {
          ++errors;
          std::fprintf(stderr, "load: request %d of client %d: %s\n", i, k,
                       r ? ("status " + std::to_string(r->status) + ", want " + std::to_string(want)).c_str()
                         : httplib::to_string(r.error()).c_str());
        }
      }
    });
  for (std::thread& t : burst) t.join();
  const double burst_s = std::chrono::duration<double>(Clock::now() - b0).count();
  for (std::thread& t : threads) t.join();
  const double total_s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::vector<double> all;
  for (const auto& v : lat) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  int not_done = 0;
  std::string loaded_ms;
  for (const std::string& id : ids) {
    const auto j = server.runs().get(id);
    if (!j || (*j)["status"] != "done") ++not_done;
    else loaded_ms += (loaded_ms.empty() ? "" : ", ") + std::to_string(static_cast<int>((*j)["wall_ms"].get<double>()));
  }
  for (char d : sse_done) not_done += d ? 0 : 1;
  std::printf("load: %zu API requests from %d threads in %.2f s (%.0f req/s), latency p50 %.2f ms p99 %.2f ms max %.2f ms\n",
              all.size(), clients, burst_s, static_cast<double>(all.size()) / burst_s, all[all.size() / 2],
              all[all.size() * 99 / 100], all.back());
  std::printf("load: 8 SSE clients on 2 runs, events received:");
  for (std::int64_t e : sse_events) std::printf(" %lld", static_cast<long long>(e));
  std::printf(" (the last one reads slowly)\nload: the run alone took %.0f ms of wall time, the two under load %s ms "
              "(both at once on 2 workers); all done after %.2f s; errors %d, unfinished %d\n",
              alone_ms, loaded_ms.c_str(), total_s, errors.load(), not_done);
  server.stop();
  return errors == 0 && not_done == 0 ? 0 : 1;
}
