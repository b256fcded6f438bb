#include "config/scenario_runs.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/random.hpp"
#include "rdmasim/nccl_test.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/flows.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/traffic.hpp"
#include "rdmasim/traffic_pattern.hpp"
#include "workload/sample_probe.hpp"

namespace rdmasim::config {
namespace {

void add_ledger(std::vector<Metric>& m, const std::string& prefix, const auto& value_us) {
  for (Category c : kAllCategories) m.push_back({prefix + std::string(category_name(c)) + "_us", value_us(c)});
}

void add_fabric(std::vector<Metric>& m, const FabricStats& f) {
  m.push_back({"fabric.dropped", static_cast<double>(f.dropped)});
  m.push_back({"fabric.pause_frames", static_cast<double>(f.pause_frames)});
  m.push_back({"fabric.ecn_marked", static_cast<double>(f.ecn_marked)});
}

}  // namespace

namespace {

// Runs `s` with `exports` (null: unobserved) into `out`.
void run_into(const Scenario& s, const LatConfig& c, Exports* exports, RunResult& out, RankExchange* ranks) {
  std::vector<Metric>& m = out.metrics;
  switch (s.command) {
    case Command::lat: {
      const LatResult& r = out.detail.emplace<LatResult>(run_latency(c, exports));
      m.push_back({"t_min_us", r.stats.min_us()});
      m.push_back({"t_typical_us", r.stats.typical_us()});
      m.push_back({"t_avg_us", r.stats.avg_us()});
      m.push_back({"t_99_us", r.stats.p99_us()});
      m.push_back({"t_max_us", r.stats.max_us()});
      add_ledger(m, "ledger.", [&](Category k) { return r.mean_ps(k) / 1e6; });
      break;
    }
    case Command::budget: {
      const BudgetResult& b = out.detail.emplace<BudgetResult>(run_budget(c));
      m.push_back({"budget_us", b.reported_ps / 1e6});
      add_ledger(m, "ledger.", [&](Category k) {
        return static_cast<double>(b.rtt[k].count_ps()) / b.rtt_factor / 1e6;
      });
      break;
    }
    case Command::bw: {
      if (!s.options.pattern.empty()) {
        const TrafficResult& r = out.detail.emplace<TrafficResult>(run_traffic(to_traffic_config(s.options), exports, ranks));
        m.push_back({"aggregate_Gbps", r.aggregate_bps / 1e9});
        m.push_back({"ideal_aggregate_Gbps", r.ideal_aggregate_bps / 1e9});
        m.push_back({"share_of_ideal", r.aggregate_bps / r.ideal_aggregate_bps});
        m.push_back({"min_flow_Gbps", r.min_bps / 1e9});
        m.push_back({"median_flow_Gbps", r.median_bps / 1e9});
        m.push_back({"out_of_order", static_cast<double>(r.out_of_order)});
        m.push_back({"rc.retransmitted", static_cast<double>(r.retransmitted)});
        m.push_back({"rc.timeouts", static_cast<double>(r.timeouts)});
        add_fabric(m, r.fabric);
        out.failure = traffic_failure(r);
        if (r.fabric.deadlocks > 0 || c.profile.sw.pfc_watchdog > Time::zero()) {  // the PFC pathology scenarios
          std::int64_t done = 0;
          for (const FlowResult& f : r.flows) done += f.completed;
          m.push_back({"completed_messages", static_cast<double>(done)});
          m.push_back({"fabric.deadlocks", static_cast<double>(r.fabric.deadlocks)});
          m.push_back({"fabric.deadlock_cycle_ports",
                       r.fabric.deadlock_reports.empty() ? 0.0 : static_cast<double>(r.fabric.deadlock_reports[0].cycle.size())});
          m.push_back({"fabric.watchdog_drops", static_cast<double>(r.fabric.watchdog_drops)});
          m.push_back({"fabric.lossless_drops", static_cast<double>(r.fabric.lossless_drops)});
        }
        break;
      }
      const BwConfig b = to_bw_config(s.options);
      // A batched run is not sampled (its WQEs are not followed one by one); asked for files,
      // run_bandwidth refuses them.
      const bool files = exports && (!exports->options().trace_path.empty() || !exports->options().pcap_path.empty() ||
                                     exports->options().hop_ledger);
      const bool batched = b.post_list > 1 || b.cq_mod > 1;
      const BwResult& r = out.detail.emplace<BwResult>(run_bandwidth(b, batched && !files ? nullptr : exports));
      m.push_back({"bw_avg_Gbps", r.bw_avg_bps / 1e9});
      m.push_back({"bw_peak_Gbps", r.bw_peak_bps / 1e9});
      m.push_back({"msg_rate_Mpps", r.msg_rate_mpps});
      m.push_back({"ideal_Gbps", r.ideal_bps / 1e9});
      if (r.rc && r.rc->status != "ok") out.failure = "the QP completed with " + r.rc->status;
      if (r.rc) {
        m.push_back({"rc.retransmitted", static_cast<double>(r.rc->retransmitted)});
        m.push_back({"rc.timeouts", static_cast<double>(r.rc->timeouts)});
      }
      if (r.fabric) add_fabric(m, *r.fabric);
      break;
    }
    case Command::allreduce: {
      const CollectiveResult& r = out.detail.emplace<CollectiveResult>(run_collective(to_collective_config(s.options), ranks));
      const CollectiveRow& last = r.rows.back();
      m.push_back({"ranks", static_cast<double>(r.ranks)});
      m.push_back({"time_us", last.time_us});
      m.push_back({"algbw_GBps", last.algbw_gbs});
      m.push_back({"busbw_GBps", last.busbw_gbs});
      m.push_back({"avg_busbw_GBps", r.avg_busbw_gbs});
      m.push_back({"bytes_sent_per_rank", static_cast<double>(last.bytes_sent.front())});
      m.push_back({"wrong", static_cast<double>(r.wrong)});
      if (r.wrong > 0) out.failure = std::to_string(r.wrong) + " wrong elements in the reduced results";
      break;
    }
    case Command::flows: {
      const FlowsResult& r = out.detail.emplace<FlowsResult>(run_flows(to_flows_config(s.options), exports, ranks));
      m.push_back({"flows", static_cast<double>(r.flows.size())});
      m.push_back({"completed", static_cast<double>(r.completed)});
      m.push_back({"offered_load", r.offered_load});
      for (const SlowdownRow& b : r.buckets)
        if (b.bucket == "all" || b.bucket.rfind("short", 0) == 0 || b.bucket.rfind("long", 0) == 0) {
          const std::string k = "slowdown." + b.bucket.substr(0, b.bucket.find(' '));
          m.push_back({k + ".p50", b.p50});
          m.push_back({k + ".p95", b.p95});
          m.push_back({k + ".p99", b.p99});
        }
      m.push_back({"rc.retransmitted", static_cast<double>(r.rc.retransmitted)});
      add_fabric(m, r.fabric);
      if (r.failed_qps > 0) out.failure = std::to_string(r.failed_qps) + " QPs in " + r.rc.status;
      else if (r.fabric.lossless_drops > 0) out.failure = std::to_string(r.fabric.lossless_drops) + " drops in a lossless class";
      break;
    }
    case Command::cmtime: {
      CmtimeConfig cc;
      cc.base = c;
      cc.connections = s.options.connections;
      const CmtimeResult& r = out.detail.emplace<CmtimeResult>(run_cmtime(cc));
      const double n = static_cast<double>(cc.connections);
      m.push_back({"full_connect_us", r.full_connect.total.to_us()});
      m.push_back({"full_connect_us_per_conn", r.full_connect.total.to_us() / n});
      m.push_back({"full_connect_min_us", r.full_connect.min.to_us()});
      m.push_back({"full_connect_max_us", r.full_connect.max.to_us()});
      for (const CmtimeStep& st : r.steps) {
        std::string k = st.name;
        std::replace(k.begin(), k.end(), ' ', '_');
        m.push_back({k + "_us_per_conn", st.sum.to_us() / n});
      }
      break;
    }
    case Command::demo: throw std::invalid_argument("the demo is not a scenario command");
  }
}

}  // namespace
}  // namespace rdmasim::config

namespace rdmasim {

double RunResult::metric(std::string_view name) const {
  for (const Metric& m : metrics)
    if (m.name == name) return m.value;
  throw std::out_of_range("no metric \"" + std::string(name) + "\" in this run");
}

RunResult run(const Scenario& s, RunObserver* observer, Exports* exports, RankExchange* ranks) {
  if (!exports) config::refuse_outputs(s, "run() writes no files (`rdmasim run` does)");
  if (ranks && ranks->ranks() > 1 && s.command != Command::allreduce && s.command != Command::flows &&
      (s.command != Command::bw || s.options.pattern.empty()))
    throw std::invalid_argument(s.path + ": over MPI ranks only a traffic pattern's fabric run (bw with workload.pattern), " +
                                "the collectives and open-loop flows run; this one runs in one process");
  const LatConfig c = config::scenario_config(s);
  if (s.options.all) throw std::invalid_argument(s.path + ": workload.all: a run takes one size");
  RunResult out;
  out.command = s.command;
  if (!observer || s.command == Command::budget) {
    config::run_into(s, c, exports, out, ranks);
    return out;
  }
  ProbeOptions po;
  static_cast<ObserveOptions&>(po) = observer->options();
  if (po.interval <= Time::zero()) {  // about target_samples slices over the expected run
    const ScenarioOptions& o = s.options;
    const int flows = !o.pattern.empty()        ? bottleneck_sharing(config::to_traffic_config(o))
                      : s.command == Command::bw ? o.qps * (o.bidirectional ? 2 : 1)
                                                 : 1;
    if (s.command == Command::flows) {  // about target_samples slices over the arrivals
      const std::vector<FlowArrival> arrivals = config::to_flows_config(o).flows;
      const Time span = arrivals.empty() ? Time::us(1) : std::max(arrivals.back().start, Time::us(1));
      po.interval = std::max(Time::ns(100), Time::ps(span.count_ps() / std::max(1, po.target_samples)));
    } else {
      po.interval = first_slice(c, s.command == Command::lat, flows, po.target_samples);
    }
  }
  po.sink = [observer](Sample&& x) { observer->on_sample(std::move(x)); };
  SampleProbe probe(po);
  Exports own{ExportOptions{}};
  Exports& x = exports ? *exports : own;
  x.set_probe(&probe);
  try {
    config::run_into(s, c, &x, out, ranks);
  } catch (...) {
    x.set_probe(nullptr);
    throw;
  }
  x.set_probe(nullptr);
  observer->on_end(RunEnd{probe.port_names(), probe.run_utilisation(), probe.samples(), probe.messages(),
                          probe.sim_time(), probe.last_message()});
  return out;
}

}  // namespace rdmasim

namespace rdmasim::config {

Scenario variant(const Scenario& base, const std::string& assignments) {
  Scenario s = base;
  std::string name;
  std::stringstream ss(assignments);
  for (std::string a; std::getline(ss, a, ',');) {
    if (a.empty()) continue;
    apply_override(s, a);
    name += (name.empty() ? "" : ",") + a;
  }
  s.name = name.empty() ? base.name : name;
  return s;
}

Scenario load_with_overrides(const std::string& path, const std::vector<std::string>& sets) {
  Scenario s = load_scenario(path);
  for (const std::string& a : sets) apply_override(s, a);
  scenario_config(s);  // every check before anything runs
  return s;
}

CompareTable run_compare(const std::vector<std::string>& files, const std::vector<std::string>& vs,
                         const std::vector<std::string>& sets) {
  std::vector<Scenario> schemes;
  for (const std::string& f : files) schemes.push_back(load_with_overrides(f, sets));
  for (const std::string& v : vs) {
    schemes.push_back(variant(schemes.front(), v));
    scenario_config(schemes.back());
  }
  if (schemes.size() < 2) throw std::invalid_argument("compare: give two or more scenarios, or one with --vs");
  for (const Scenario& s : schemes) refuse_outputs(s, "compare writes no files (use `rdmasim run` for one scheme's outputs)");
  for (const Scenario& s : schemes)
    if (s.command != schemes.front().command)
      throw std::invalid_argument("compare: " + s.path + " runs a different command than " + schemes.front().path);
  CompareTable t;
  for (const Scenario& s : schemes) {
    t.names.push_back(s.name.empty() ? s.path : s.name);
    RunResult r = rdmasim::run(s);
    t.columns.push_back(std::move(r.metrics));
    t.failures.push_back(std::move(r.failure));
  }
  return t;
}

std::string SweepTable::row_label(std::size_t row) const {
  std::string label;
  for (std::size_t k = 0; k < params.size(); ++k) label += (k ? "," : "") + params[k] + "=" + rows_params[row][k];
  return label;
}

SweepParam parse_sweep_param(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 >= text.size())
    throw std::invalid_argument("--param: expected key=v1,v2,..., got \"" + text + "\"");
  SweepParam p{text.substr(0, eq), {}};
  std::stringstream ss(text.substr(eq + 1));
  for (std::string v; std::getline(ss, v, ',');)
    if (!v.empty()) p.values.push_back(v);
  if (p.values.empty()) throw std::invalid_argument("--param " + p.key + ": no values");
  return p;
}

std::vector<RunResult> run_all(const std::vector<Scenario>& runs, int threads) {
  std::vector<RunResult> results(runs.size());
  std::vector<std::exception_ptr> errors(runs.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < runs.size();) {
      try {
        results[i] = run(runs[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  const int n = std::max(1, std::min<int>(threads, static_cast<int>(runs.size())));
  for (int i = 0; i < n; ++i) pool.emplace_back(worker);
  for (std::thread& th : pool) th.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return results;
}

SweepShard parse_sweep_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  int i = 0, n = 0;
  const auto num = [](std::string_view v, int& out) {
    const auto r = std::from_chars(v.data(), v.data() + v.size(), out);
    return !v.empty() && r.ec == std::errc{} && r.ptr == v.data() + v.size();
  };
  if (slash == std::string::npos || !num(std::string_view(text).substr(0, slash), i) ||
      !num(std::string_view(text).substr(slash + 1), n) || n < 1 || n > 100'000 || i < 1 || i > n)
    throw std::invalid_argument("--shard: expected I/N with 1 <= I <= N (\"3/8\": the third of eight shares), got \"" +
                                text + "\"");
  return {i - 1, n};
}

std::string sweep_fingerprint(const Scenario& base, const std::vector<SweepParam>& params) {
  std::string text = to_toml(base);
  for (const SweepParam& p : params) {
    text += "\n" + p.key + "=";
    for (const std::string& v : p.values) text += v + "\x1f";
  }
  char hex[17];  // FNV-1a: the same on every machine
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(text)));
  return hex;
}

SweepTable run_sweep(const Scenario& base, const std::vector<SweepParam>& params, int threads, SweepShard shard) {
  SweepTable t;
  std::size_t total = 1;
  for (const SweepParam& p : params) {
    t.params.push_back(p.key);
    total *= p.values.size();
    if (total > 100'000) throw std::invalid_argument("sweep: more than 100000 combinations");
  }
  // Build (and so validate) every run first: a bad value fails before anything runs.
  t.points = total;
  std::vector<Scenario> runs;
  for (std::size_t i = 0; i < total; ++i) {
    std::vector<std::string> vals(params.size());
    std::size_t rest = i;
    for (std::size_t k = params.size(); k-- > 0;) {
      vals[k] = params[k].values[rest % params[k].values.size()];
      rest /= params[k].values.size();
    }
    Scenario s = base;
    for (std::size_t k = 0; k < params.size(); ++k) apply_override(s, params[k].key + "=" + vals[k]);
    scenario_config(s);
    if (i % static_cast<std::size_t>(shard.count) != static_cast<std::size_t>(shard.part)) continue;
    runs.push_back(std::move(s));
    t.rows_params.push_back(std::move(vals));
    t.index.push_back(i);
  }
  for (RunResult& r : run_all(runs, threads)) {
    t.rows.push_back(std::move(r.metrics));
    t.failures.push_back(std::move(r.failure));
  }
  return t;
}

}  // namespace rdmasim::config
