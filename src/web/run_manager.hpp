// RunManager: the server's simulation runs, on a bounded pool of worker threads off the HTTP
// threads. A run is a scenario (config/scenario.hpp) checked against the limits when it
// is submitted, queued, run with a SampleProbe whose samples go to the run's EventStream, and
// kept with its metrics (scenario_runs.hpp: the same list `rdmasim compare` prints) until it is
// evicted (oldest finished first, beyond `max_kept`).
//
// Limits (ApiError with HTTP status, the key at fault and a message): hosts in the topology
// (422, the topology key), messages = iterations x flows (422, workload.iters), runs queued or
// running (429, limits.runs); at run time, events and simulated time (the run ends "failed"
// with key limits.events / limits.sim_time_us). Status moves queued -> running -> done |
// failed | cancelled, never back. cancel() of a queued run ends it at once; of a running one,
// at its next slice. The destructor cancels everything and joins the workers.
// The dashboard's computed views (compute) run on view threads of their own, as many as the
// run workers, at most `max_views` queued or computing (429, limits.views): no view keeps an
// HTTP thread busy, and a long run never delays a page.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "config/scenario.hpp"
#include "web/event_stream.hpp"

namespace rdmasim::web {

struct ApiError : std::runtime_error {
  ApiError(int status, std::string key, const std::string& message)
      : std::runtime_error(message), status(status), key(std::move(key)) {}
  int status;
  std::string key;  // the request or scenario key at fault ("workload.iters"), "" for none
};

struct RunLimits {
  int workers = 2;                  // runs executing at once
  int max_active = 8;               // runs queued or running
  int max_kept = 64;                // finished runs kept for GET
  int max_hosts = 128;
  std::int64_t max_messages = 2'000'000;  // iterations x flows
  std::uint64_t max_events = 200'000'000;
  double max_sim_time_us = 1e6;     // 1 s simulated
  int target_samples = 150;         // SampleProbe::target_samples
  int max_views = 16;               // view computations (demo, path, ...) queued or computing
};

struct RunRequest {
  Scenario scenario;
  nlohmann::ordered_json scenario_json;   // as posted (echoed back)
  std::string preset;                     // when started from a preset
  std::vector<std::string> watch;         // fabric ports to sample queue depth / pauses of
  double sample_us = 0;                   // first slice length (0: from the run's size)
};

class RunManager {
 public:
  explicit RunManager(RunLimits l);
  ~RunManager();
  RunManager(const RunManager&) = delete;
  RunManager& operator=(const RunManager&) = delete;

  /// Checks the limits and queues the run; returns its id ("r1", "r2", ...).
  std::string submit(RunRequest r);
  /// {id, status, name, command, scenario, ..., metrics, error, error_key}; nullopt: no such run.
  std::optional<nlohmann::ordered_json> get(const std::string& id) const;
  std::shared_ptr<EventStream> stream(const std::string& id) const;
  enum class Cancel { not_found, cancelled, finished };
  Cancel cancel(const std::string& id);
  /// Cancels every queued and running run (their streams end).
  void cancel_all();
  /// Every kept run's {id, status, name}, oldest first.
  nlohmann::ordered_json list() const;
  const RunLimits& limits() const { return limits_; }
  /// Computes a view (the demo's ledger, a path, a topology) on one of the manager's `workers`
  /// view threads, not the caller's (an HTTP thread), and returns it; f's exception is rethrown.
  /// ApiError 429 `limits.views` when `max_views` are already queued or computing.
  nlohmann::ordered_json compute(std::function<nlohmann::ordered_json()> f);
  /// Views queued or computing now.
  int views_pending() const {
    std::lock_guard<std::mutex> g(m_);
    return views_pending_;
  }
  /// Waits until run `id` has finished (for tests); false on timeout.
  bool wait(const std::string& id, std::chrono::milliseconds timeout) const;

 private:
  struct Run;
  void worker();
  void execute(Run& r);
  void finish(Run& r, std::string status, nlohmann::ordered_json extra);
  void evict();

  RunLimits limits_;
  mutable std::mutex m_;
  mutable std::condition_variable cv_, done_cv_;
  std::map<std::string, std::shared_ptr<Run>> runs_;
  std::deque<std::string> order_;   // ids, oldest first
  std::deque<std::shared_ptr<Run>> queue_;
  std::uint64_t next_id_ = 1;
  int active_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
  // Views: their own threads (as many as run workers), so a long run never delays a page.
  void view_worker();
  std::condition_variable view_cv_;
  std::deque<std::function<void()>> views_;
  int views_pending_ = 0;  // queued or computing
  std::vector<std::thread> view_workers_;
};

}  // namespace rdmasim::web
