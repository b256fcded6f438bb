#include "web/api.hpp"

#include <httplib.h>

#include <charconv>
#include <sstream>

#include "io/json_report.hpp"
#include "io/list_report.hpp"
#include "web/presets.hpp"
#include "web/view_data.hpp"

namespace rdmasim::web {
namespace {

constexpr const char* kJson = "application/json";

// Request bytes quoted in a message may not be UTF-8: they are replaced (U+FFFD), not thrown at.
void send_json(httplib::Response& res, int status, const nlohmann::ordered_json& j) {
  res.status = status;
  res.set_content(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), kJson);
}

void send_error(httplib::Response& res, int status, const std::string& key, const std::string& message) {
  res.status = status;
  res.set_content(error_body(key, message), kJson);
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');)
    if (!x.empty()) v.push_back(x);
  return v;
}

// Handlers throw ApiError for a 4xx; everything else becomes a 500 in the exception handler.
template <typename F>
auto guarded(F f) {
  return [f](const httplib::Request& req, httplib::Response& res) {
    try {
      f(req, res);
    } catch (const ApiError& e) {
      send_error(res, e.status, e.key, e.what());
    } catch (const std::invalid_argument& e) {
      send_error(res, 400, "", e.what());
    }
  };
}

}  // namespace

std::string error_key(const std::string& message, const std::string& source) {
  const std::string prefix = source + ": ";
  if (message.rfind(prefix, 0) != 0) return "";
  const auto end = message.find(": ", prefix.size());
  if (end == std::string::npos) return "";
  const std::string k = message.substr(prefix.size(), end - prefix.size());
  for (char c : k)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-')) return "";
  return k;
}

void Api::install(httplib::Server& s) {
  s.Get("/api/presets", guarded([](const httplib::Request&, httplib::Response& res) {
          nlohmann::ordered_json a = nlohmann::ordered_json::array();
          for (const Preset& p : presets())
            a.push_back({{"id", p.id}, {"name", p.name}, {"description", p.description}, {"command", p.command},
                         {"scenario", p.scenario}, {"ports", p.ports}});
          send_json(res, 200, a);
        }));
  s.Get("/api/components", guarded([](const httplib::Request&, httplib::Response& res) {
          send_json(res, 200, versioned(list_json()));  // `rdmasim list --json`: from the registries
        }));
  s.Get("/api/limits", guarded([this](const httplib::Request&, httplib::Response& res) {
          const RunLimits& l = runs_.limits();
          send_json(res, 200,
                    {{"workers", l.workers}, {"max_active_runs", l.max_active}, {"max_kept_runs", l.max_kept},
                     {"max_hosts", l.max_hosts}, {"max_messages", l.max_messages}, {"max_events", l.max_events},
                     {"max_sim_time_us", l.max_sim_time_us}, {"max_streams", o_.max_streams},
                     {"max_body_bytes", o_.max_body}, {"max_demo_packets", kMaxDemoPackets},
                     {"max_connections", o_.max_connections}, {"request_timeout_ms", o_.request_timeout_ms},
                     {"idle_timeout_ms", o_.idle_timeout_ms}});
        }));
  s.Get("/api/runs", guarded([this](const httplib::Request&, httplib::Response& res) { send_json(res, 200, runs_.list()); }));
  s.Post("/api/runs", guarded([this](const httplib::Request& req, httplib::Response& res) {
           RunRequest r;
           std::string text = req.body, source = "request";
           if (req.has_param("preset")) {
             const std::string id = req.get_param_value("preset");
             const Preset* p = find_preset(id);
             if (!p) {
               std::string known;
               for (const Preset& x : presets()) known += (known.empty() ? "" : ", ") + x.id;
               throw ApiError(404, "preset", "preset: no preset \"" + id + "\" (presets: " + known + ")");
             }
             if (!req.body.empty()) throw ApiError(400, "preset", "preset: give a preset or a scenario body, not both");
             r.preset = id;
             r.scenario_json = p->scenario;
             text = p->scenario.dump();
             source = id;
           } else if (req.body.empty()) {
             throw ApiError(400, "", "the body must be a scenario as JSON (or use ?preset=ID)");
           }
           try {
             r.scenario = parse_scenario(text, source, true);
             config::refuse_outputs(r.scenario, "the server writes no files (results come back through the API)");
           } catch (const std::invalid_argument& e) {
             throw ApiError(400, error_key(e.what(), source), e.what());
           }
           if (r.preset.empty()) r.scenario_json = nlohmann::ordered_json::parse(text);
           if (req.has_param("ports")) r.watch = split_list(req.get_param_value("ports"));
           if (req.has_param("sample_us")) {
             const std::string v = req.get_param_value("sample_us");
             double x = 0;
             const auto pr = std::from_chars(v.data(), v.data() + v.size(), x);
             if (pr.ec != std::errc{} || pr.ptr != v.data() + v.size() || !(x >= 0.01 && x <= 1e6))
               throw ApiError(400, "sample_us", "sample_us: a number of microseconds 0.01..1e6, got \"" + v + "\"");
             r.sample_us = x;
           }
           const std::string id = runs_.submit(std::move(r));
           res.set_header("Location", "/api/runs/" + id);
           send_json(res, 201, {{"id", id}, {"status", "queued"}, {"events", "/api/runs/" + id + "/events"}});
         }));
  s.Get(R"(/api/runs/([A-Za-z0-9]+))", guarded([this](const httplib::Request& req, httplib::Response& res) {
          const auto j = runs_.get(req.matches[1]);
          if (!j) throw ApiError(404, "id", "no run \"" + std::string(req.matches[1]) + "\"");
          send_json(res, 200, *j);
        }));
  s.Delete(R"(/api/runs/([A-Za-z0-9]+))", guarded([this](const httplib::Request& req, httplib::Response& res) {
             const std::string id = req.matches[1];
             switch (runs_.cancel(id)) {
               case RunManager::Cancel::not_found: throw ApiError(404, "id", "no run \"" + id + "\"");
               case RunManager::Cancel::finished: throw ApiError(409, "id", "run " + id + " has already finished");
               case RunManager::Cancel::cancelled: send_json(res, 200, {{"id", id}, {"status", "cancelled"}});
             }
           }));
  s.Get(R"(/api/runs/([A-Za-z0-9]+)/events)", guarded([this](const httplib::Request& req, httplib::Response& res) {
          const std::string id = req.matches[1];
          const auto stream = runs_.stream(id);
          if (!stream) throw ApiError(404, "id", "no run \"" + id + "\"");
          if (streams_.fetch_add(1) >= o_.max_streams) {
            streams_.fetch_sub(1);
            throw ApiError(429, "limits.streams", "limits.streams: " + std::to_string(o_.max_streams) +
                                                      " event streams are open (the limit)");
          }
          auto sub = stream->subscribe();
          res.set_header("Cache-Control", "no-cache");
          res.set_header("X-Accel-Buffering", "no");
          const auto wait = std::chrono::milliseconds(o_.heartbeat_ms);
          res.set_chunked_content_provider(
              "text/event-stream",
              [stream, sub, wait](std::size_t, httplib::DataSink& sink) {
                const auto e = stream->pop(sub, wait);
                if (e) {
                  const std::string chunk = "id: " + std::to_string(e->seq) + "\nevent: " + e->type + "\ndata: " + e->data + "\n\n";
                  return sink.write(chunk.data(), chunk.size());
                }
                if (stream->ended(sub)) {
                  sink.done();
                  return true;
                }
                static const std::string beat = ": keep-alive\n\n";  // finds a closed client
                return sink.write(beat.data(), beat.size());
              },
              [this, stream, sub](bool) {
                stream->unsubscribe(sub);
                streams_.fetch_sub(1);
              });
        }));
  s.Get("/api/demo", guarded([this](const httplib::Request& req, httplib::Response& res) {
          const DemoParams p = demo_params(Query(req.params.begin(), req.params.end()));
          const std::string key = p.key();
          {
            std::lock_guard<std::mutex> g(cache_m_);
            if (const auto it = demo_cache_.find(key); it != demo_cache_.end()) return res.set_content(it->second, kJson);
          }
          const std::string body = runs_.compute([&] { return demo_view(p); }).dump();
          std::lock_guard<std::mutex> g(cache_m_);
          if (demo_cache_.size() > 64) demo_cache_.clear();
          demo_cache_[key] = body;
          res.set_content(body, kJson);
        }));
  s.Get("/api/path", guarded([this](const httplib::Request& req, httplib::Response& res) {
          const Query q(req.params.begin(), req.params.end());
          send_json(res, 200, runs_.compute([&] { return path_view(q); }));
        }));
  s.Get("/api/pipeline", guarded([this](const httplib::Request& req, httplib::Response& res) {
          const Query q(req.params.begin(), req.params.end());
          send_json(res, 200, runs_.compute([&] { return pipeline_view(q); }));
        }));
  s.Get("/api/topology", guarded([this](const httplib::Request& req, httplib::Response& res) {
          const Query q(req.params.begin(), req.params.end());
          send_json(res, 200, runs_.compute([&] { return topology_view(q); }));
        }));
}

}  // namespace rdmasim::web
