#include "web/run_manager.hpp"

#include "rdmasim/flows.hpp"

#include <algorithm>
#include <cmath>
#include <future>

#include "model/path.hpp"
#include "rdmasim/exports.hpp"
#include "config/scenario_runs.hpp"
#include "io/flows_report.hpp"
#include "workload/sample_probe.hpp"

namespace rdmasim::web {

struct RunManager::Run {
  std::string id;
  RunRequest req;
  LatConfig config;
  std::string status = "queued";
  nlohmann::ordered_json result;  // metrics, error, ... once finished
  std::shared_ptr<EventStream> stream = std::make_shared<EventStream>();
  std::atomic<bool> cancel{false};
  std::int64_t samples = 0;
  double sim_time_us = 0;
};

namespace {

nlohmann::ordered_json sample_json(const Sample& s, const std::vector<std::string>& watch) {
  nlohmann::ordered_json j{{"t_us", s.t_us},     {"dt_us", s.dt_us},       {"gbps", s.gbps},
                           {"messages", s.messages}, {"total_messages", s.total_messages},
                           {"p50_us", s.p50_us}, {"p99_us", s.p99_us},     {"max_us", s.max_us},
                           {"pause_frames", s.pause_frames}, {"paused_us", s.paused_us},
                           {"queue_bytes", s.queue_bytes}, {"queue_port", s.queue_port}, {"events", s.events}};
  if (!watch.empty()) {
    nlohmann::ordered_json w = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < watch.size() && i < s.watch_queue.size(); ++i)
      w[watch[i]] = {{"queue_bytes", s.watch_queue[i]}, {"pause_frames", s.watch_pauses[i]}};
    j["watch"] = std::move(w);
  }
  if (!s.utilisation.empty()) {
    nlohmann::ordered_json u = nlohmann::ordered_json::array();
    for (float x : s.utilisation) u.push_back(std::round(static_cast<double>(x) * 1e4) / 1e4);
    j["utilisation"] = std::move(u);
  }
  return j;
}

// QPs of the run: bw's -q (both ways with -b), or the pattern's flows.
std::int64_t flow_count(const ScenarioOptions& o, int hosts) {
  if (o.pattern.empty()) return static_cast<std::int64_t>(o.qps) * (o.bidirectional ? 2 : 1);
  return static_cast<std::int64_t>(pattern_flow_count(config::to_traffic_config(o), hosts));
}

// The scenario key that sizes the topology (the one to lower when it is over the host limit).
std::string topology_key(const std::string& topology) {
  if (topology == "fat-tree") return "network.k";
  if (topology == "single-switch") return "network.hosts";
  if (topology == "ring") return "network.switches";
  return "network.leaves";
}

}  // namespace

RunManager::RunManager(RunLimits l) : limits_(l) {
  for (int i = 0; i < std::max(1, limits_.workers); ++i) workers_.emplace_back([this] { worker(); });
  for (int i = 0; i < std::max(1, limits_.workers); ++i) view_workers_.emplace_back([this] { view_worker(); });
}

RunManager::~RunManager() {
  {
    std::lock_guard<std::mutex> g(m_);
    stopping_ = true;
    for (auto& [id, r] : runs_) r->cancel = true;
  }
  cv_.notify_all();
  view_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
  for (std::thread& t : view_workers_) t.join();
}

nlohmann::ordered_json RunManager::compute(std::function<nlohmann::ordered_json()> f) {
  auto task = std::make_shared<std::packaged_task<nlohmann::ordered_json()>>(std::move(f));
  std::future<nlohmann::ordered_json> result = task->get_future();
  {
    std::lock_guard<std::mutex> g(m_);
    if (stopping_) throw ApiError(503, "", "the server is stopping");
    if (views_pending_ >= limits_.max_views)
      throw ApiError(429, "limits.views", "limits.views: " + std::to_string(limits_.max_views) +
                                              " views are being computed (the limit); try again");
    ++views_pending_;
    views_.push_back([task] { (*task)(); });
  }
  view_cv_.notify_one();
  // Counted until the caller has the answer: a client that sends its next request as soon as it
  // reads this one's answer never finds its own last view still counted.
  struct Done {
    RunManager& m;
    ~Done() {
      std::lock_guard<std::mutex> g(m.m_);
      --m.views_pending_;
    }
  } done{*this};
  return result.get();
}

void RunManager::view_worker() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> l(m_);
      view_cv_.wait(l, [&] { return stopping_ || !views_.empty(); });
      if (views_.empty()) return;  // stopping, nothing left (queued views are still answered)
      job = std::move(views_.front());
      views_.pop_front();
    }
    job();
  }
}

std::string RunManager::submit(RunRequest req) {
  const Scenario& s = req.scenario;
  if (!s.options.host_profile.empty())
    throw ApiError(400, "host_profile", "host_profile: files on the server cannot be named over the API");
  if (s.options.all) throw ApiError(422, "workload.all", "workload.all: one message size per run over the API");
  // The dashboard samples its runs live, which a partitioned run cannot do; and the server's
  // threads are its own to spend.
  if (s.options.threads != 0)
    throw ApiError(422, "workload.threads", "workload.threads: runs over the API use one scheduler; run bw, a collective or flows with --threads from the command line");
  if (s.command == Command::demo) throw ApiError(422, "command", "command: lat, bw or budget");
  // An open-loop run's flow and CDF files would be the server's: only registered distributions.
  if (!s.options.open_loop.flow_file.empty())
    throw ApiError(400, "workload.flow_file", "workload.flow_file: files on the server cannot be named over the API");
  if (s.command == Command::flows) {
    bool named = false;
    for (const FlowSizeCdf* d : flow_size_cdfs()) named = named || d->name == s.options.open_loop.cdf;
    if (!named)
      throw ApiError(400, "workload.cdf",
                     "workload.cdf: over the API a registered distribution (`rdmasim list`), not a file on the server");
  }
  LatConfig c;
  try {
    c = config::scenario_config(s);
  } catch (const std::invalid_argument& e) {
    throw ApiError(400, "", e.what());
  }
  int hosts = 2;
  if (c.topology == LatTopology::fabric) {
    const auto topo = FabricNetwork::make_topology(c);
    hosts = topo->host_count();
    if (hosts > limits_.max_hosts)
      throw ApiError(422, topology_key(c.fabric.topology),
                     topology_key(c.fabric.topology) + ": the topology has " + std::to_string(hosts) +
                         " hosts (limit " + std::to_string(limits_.max_hosts) + ")");
    const std::vector<std::string> names = topo->egress_port_names();
    for (const std::string& w : req.watch)
      if (std::find(names.begin(), names.end(), w) == names.end())
        throw ApiError(400, "ports", "ports: the topology has no port \"" + w + "\" (names like \"" + names.back() + "\")");
  } else if (!req.watch.empty()) {
    throw ApiError(400, "ports", "ports: only a switched network.topology has ports to watch");
  }
  const std::int64_t flows = s.command == Command::budget ? 0 : flow_count(s.options, hosts);
  // An open-loop run posts one message per flow.
  const double messages = s.command == Command::flows
                              ? static_cast<double>(config::to_flows_config(s.options).flows.size())
                              : static_cast<double>(flows) * static_cast<double>(s.options.iters);
  if (messages > static_cast<double>(limits_.max_messages))
    throw ApiError(422, "workload.iters",
                   "workload.iters: " + std::to_string(s.options.iters) + " iterations x " + std::to_string(flows) +
                       " flows is more than the limit of " + std::to_string(limits_.max_messages) + " messages per run");
  auto run = std::make_shared<Run>();
  run->req = std::move(req);
  run->config = c;
  {
    std::lock_guard<std::mutex> g(m_);
    if (active_ >= limits_.max_active)
      throw ApiError(429, "limits.runs", "limits.runs: " + std::to_string(active_) + " runs are queued or running (limit " +
                                             std::to_string(limits_.max_active) + "); try again when one has finished");
    run->id = "r" + std::to_string(next_id_++);
    ++active_;
    runs_[run->id] = run;
    order_.push_back(run->id);
    queue_.push_back(run);
    run->stream->publish("status", nlohmann::ordered_json{{"id", run->id}, {"status", "queued"}}.dump());
    evict();
  }
  cv_.notify_one();
  return run->id;
}

void RunManager::evict() {  // under m_
  std::size_t finished = 0;
  for (const auto& [id, r] : runs_) finished += r->stream->closed() ? 1 : 0;
  for (auto it = order_.begin(); it != order_.end() && finished > static_cast<std::size_t>(limits_.max_kept);) {
    if (runs_[*it]->stream->closed()) {
      runs_.erase(*it);
      it = order_.erase(it);
      --finished;
    } else {
      ++it;
    }
  }
}

void RunManager::worker() {
  for (;;) {
    std::shared_ptr<Run> r;
    {
      std::unique_lock<std::mutex> l(m_);
      cv_.wait(l, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      r = queue_.front();
      queue_.pop_front();
      if (r->cancel) continue;  // already finished by cancel()
      r->status = "running";
    }
    r->stream->publish("status", nlohmann::ordered_json{{"id", r->id}, {"status", "running"}}.dump());
    execute(*r);
  }
}

namespace {

// The dashboard's view of a run: every sample onto the run's event stream, the summary kept.
class StreamObserver final : public RunObserver {
 public:
  StreamObserver(ObserveOptions o, EventStream& stream) : o_(std::move(o)), stream_(stream) {}
  ObserveOptions options() const override { return o_; }
  void on_sample(Sample&& s) override { stream_.publish("sample", sample_json(s, o_.watch).dump()); }
  void on_end(const RunEnd& e) override { end = e; }
  RunEnd end;

 private:
  ObserveOptions o_;
  EventStream& stream_;
};

}  // namespace

void RunManager::execute(Run& r) {
  ObserveOptions po;
  po.target_samples = limits_.target_samples;
  po.max_events = limits_.max_events;
  po.max_sim_time = Time::ps(static_cast<std::int64_t>(limits_.max_sim_time_us * 1e6));
  po.watch = r.req.watch;
  po.cancel = &r.cancel;
  if (r.req.sample_us > 0) po.interval = Time::ps(static_cast<std::int64_t>(r.req.sample_us * 1e6));
  StreamObserver observer(po, *r.stream);
  const auto wall0 = std::chrono::steady_clock::now();
  try {
    const RunResult result = run(r.req.scenario, &observer);
    nlohmann::ordered_json m = nlohmann::ordered_json::object();
    for (const Metric& k : result.metrics) m[k.name] = k.value;
    nlohmann::ordered_json extra{{"metrics", std::move(m)}};
    if (!result.failure.empty()) extra["failure"] = result.failure;  // the experiment failed (a QP in error, ...)
    if (const auto* f = std::get_if<FlowsResult>(&result.detail)) extra["slowdown"] = slowdown_json(f->buckets);
    const RunEnd& end = observer.end;
    if (!end.port_names.empty()) {
      nlohmann::ordered_json ports = nlohmann::ordered_json::array();
      for (std::size_t p = 0; p < end.port_names.size(); ++p)
        ports.push_back({{"port", end.port_names[p]},
                         {"utilisation", std::round(static_cast<double>(end.utilisation[p]) * 1e4) / 1e4}});
      extra["ports"] = std::move(ports);
    }
    extra["samples"] = end.samples;
    extra["messages"] = end.messages;
    extra["sim_time_us"] = end.sim_time.to_us();
    extra["last_message_us"] = end.last_message.to_us();
    extra["wall_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count();
    finish(r, "done", std::move(extra));
  } catch (const RunStopped& e) {
    finish(r, e.key == "cancelled" ? "cancelled" : "failed",
           e.key == "cancelled" ? nlohmann::ordered_json::object()
                                : nlohmann::ordered_json{{"error", e.what()}, {"error_key", e.key}});
  } catch (const std::exception& e) {
    finish(r, "failed", {{"error", e.what()}, {"error_key", ""}});
  }
}

void RunManager::finish(Run& r, std::string status, nlohmann::ordered_json extra) {
  nlohmann::ordered_json done{{"id", r.id}, {"status", status}};
  for (auto& [k, v] : extra.items()) done[k] = v;
  {
    std::lock_guard<std::mutex> g(m_);
    r.status = status;
    r.result = extra;
    --active_;
  }
  r.stream->close("done", done.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));  // messages may quote input
  done_cv_.notify_all();
}

std::optional<nlohmann::ordered_json> RunManager::get(const std::string& id) const {
  std::lock_guard<std::mutex> g(m_);
  const auto it = runs_.find(id);
  if (it == runs_.end()) return std::nullopt;
  const Run& r = *it->second;
  nlohmann::ordered_json j{{"id", r.id},
                           {"status", r.status},
                           {"name", r.req.scenario.name},
                           {"description", r.req.scenario.description},
                           {"command", r.req.scenario_json.value("command", "")}};
  if (!r.req.preset.empty()) j["preset"] = r.req.preset;
  j["scenario"] = r.req.scenario_json;
  if (!r.req.watch.empty()) j["watch"] = r.req.watch;
  j["events_published"] = r.stream->published();
  for (const auto& [k, v] : r.result.items()) j[k] = v;
  return j;
}

std::shared_ptr<EventStream> RunManager::stream(const std::string& id) const {
  std::lock_guard<std::mutex> g(m_);
  const auto it = runs_.find(id);
  return it == runs_.end() ? nullptr : it->second->stream;
}

RunManager::Cancel RunManager::cancel(const std::string& id) {
  std::shared_ptr<Run> r;
  {
    std::lock_guard<std::mutex> g(m_);
    const auto it = runs_.find(id);
    if (it == runs_.end()) return Cancel::not_found;
    r = it->second;
    if (r->stream->closed() || r->cancel) return r->cancel ? Cancel::cancelled : Cancel::finished;
    r->cancel = true;
    if (r->status != "queued") return Cancel::cancelled;  // the worker stops it at the next slice
  }
  finish(*r, "cancelled", nlohmann::ordered_json::object());
  return Cancel::cancelled;
}

void RunManager::cancel_all() {
  std::vector<std::string> ids;
  {
    std::lock_guard<std::mutex> g(m_);
    ids.assign(order_.begin(), order_.end());
  }
  for (const std::string& id : ids) cancel(id);
}

nlohmann::ordered_json RunManager::list() const {
  std::lock_guard<std::mutex> g(m_);
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const std::string& id : order_) {
    const Run& r = *runs_.at(id);
    a.push_back({{"id", id}, {"status", r.status}, {"name", r.req.scenario.name}});
  }
  return a;
}

bool RunManager::wait(const std::string& id, std::chrono::milliseconds timeout) const {
  const auto s = stream(id);
  if (!s) return false;
  std::unique_lock<std::mutex> l(m_);
  return done_cv_.wait_for(l, timeout, [&] { return s->closed(); });
}

}  // namespace rdmasim::web
