// rdmasim command-line program: parses, calls the library, prints. Exit codes: 0 success,
// 2 bad input (one line on stderr naming the problem), 3 the experiment ran and failed (an RC
// QP in error, a PFC deadlock, a drop in a lossless class: the results are printed, then one
// line on stderr says what failed), 1 internal error.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <unistd.h>

#include "calibrate/calibrate_command.hpp"
#include "cli_common.hpp"
#include "cmd_collective.hpp"
#include "rdmasim/collective.hpp"
#include "cmd_scenario.hpp"
#include "cmd_serve.hpp"
#include "cmd_topo.hpp"
#include "mpi_world.hpp"
#include "config/host_profile.hpp"
#include "io/cmtime_report.hpp"
#include "io/host_report.hpp"
#include "io/json_schema.hpp"
#include "io/demo_report.hpp"
#include "core/atomic_file.hpp"
#include "core/huge_pages.hpp"
#include "io/command_report.hpp"
#include "io/live_run.hpp"
#include "config/sweeps.hpp"
#include "io/json_report.hpp"
#include "io/nccl_report.hpp"
#include "io/list_report.hpp"
#include "io/flows_report.hpp"
#include "io/loss_report.hpp"
#include "io/perftest_report.hpp"
#include "io/traffic_report.hpp"
#include "model/path.hpp"
#include "rdmasim/bandwidth.hpp"
#include "rdmasim/cmtime.hpp"
#include "rdmasim/demo.hpp"
#include "rdmasim/traffic.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/profile.hpp"

using namespace rdmasim;

namespace {

// Where a command's JSON goes: stdout with --json (then no tables), or, for `run -o FILE`, into
// `g_results` while the tables still print.
nlohmann::ordered_json* g_results = nullptr;
bool wants_json(const ScenarioOptions& o) { return o.json || g_results; }
/// Hands the JSON on; true when the tables must not follow.
bool emit_json(const ScenarioOptions& o, nlohmann::ordered_json j) {
  if (g_results) *g_results = std::move(j);
  if (!o.json) return false;
  std::cout << versioned(g_results ? *g_results : j).dump(2) << "\n";
  return true;
}

constexpr int kExperimentFailed = 3;

int experiment_failed(const std::string& why) {
  std::fflush(stdout);
  std::fprintf(stderr, "rdmasim: experiment failed: %s\n", why.c_str());
  return kExperimentFailed;
}

int run_lat(const Scenario& s) {
  const ScenarioOptions& o = s.options;
  const std::vector<Scenario> runs = config::per_size(s);
  std::vector<LatResult> rows;
  const auto exports = cli::open_exports(o);
  const auto csv = cli::open_csv(o);
  for (const Scenario& x : runs) {
    LiveRun live(o, 2 * x.options.iters);  // ping-pong: a message each way
    rows.push_back(std::get<LatResult>(run(x, live.observer(), exports.get()).detail));
    live.finish();
    if (csv) {
      const std::string suffix = runs.size() == 1 ? ".csv" : "-" + std::to_string(x.options.size) + ".csv";
      csv->add("messages" + suffix, lat_messages_csv(rows.back()));
      csv->add("timeseries" + suffix, live.timeseries_csv());
    }
  }
  for (const LatResult& r : rows)
    if (r.invariant_violations != 0) throw std::logic_error("ledger invariant violated");
  cli::publish_exports(exports.get());
  if (csv) csv->publish();
  const ExportStats* hop = o.exports.hop_ledger ? &exports->stats : nullptr;
  if (!(wants_json(o) && emit_json(o, lat_report_json(rows, hop)))) print_lat_report(stdout, rows, hop);
  return 0;
}

int run_coalescing(const Scenario& s, const std::vector<int>& frames) {
  const std::vector<CoalescingRow> rows = config::run_coalescing(s, frames);
  if (!(wants_json(s.options) && emit_json(s.options, coalescing_json(rows)))) print_coalescing(stdout, rows);
  return 0;
}

int run_cmtime_cmd(const Scenario& s) {
  const RunResult result = run(s);
  const CmtimeResult& r = std::get<CmtimeResult>(result.detail);
  if (!(wants_json(s.options) && emit_json(s.options, cmtime_json(r)))) print_cmtime(stdout, r);
  return 0;
}

int run_budget_cmd(const Scenario& s) {
  const ScenarioOptions& o = s.options;
  if (!o.all) {
    const BudgetResult b = std::get<BudgetResult>(run(s).detail);
    if (!(wants_json(o) && emit_json(o, budget_report_json(b)))) print_budget_report(stdout, b, o.stages);
    return 0;
  }
  std::vector<BudgetResult> rows;
  for (const Scenario& x : config::per_size(s)) rows.push_back(std::get<BudgetResult>(run(x).detail));
  if (!(wants_json(o) && emit_json(o, budget_sizes_json(rows)))) print_budget_sizes(stdout, rows);
  return 0;
}

// `mpirun -np N rdmasim bw --pattern ...`: the partitioned fabric over the ranks (one thread
// each); every rank gets the whole result and rank 0 reports it.
int run_pattern_over_ranks(const Scenario& s) {
  const ScenarioOptions& o = s.options;
  if (o.seeds > 1) throw std::invalid_argument("--seeds: over MPI ranks one run takes every rank (sweep the seeds instead)");
  if (!o.csv.empty() || o.exports != ExportOptions{})
    throw std::invalid_argument("over MPI ranks: a partitioned run is neither traced, captured nor sampled (--trace, --pcap, "
                                "--hop-ledger, --csv)");
  cli::MpiWorld mpi;
  const TrafficResult r = std::get<TrafficResult>(run(s, nullptr, nullptr, &mpi).detail);
  if (r.invariant_violations != 0) throw std::logic_error("ledger invariant violated");
  if (mpi.rank() != 0) return 0;  // rank 0 reports (a rank failing first would have mpirun abort the job)
  if (!(wants_json(o) && emit_json(o, traffic_report_json(r, nullptr)))) print_traffic_report(stdout, r, nullptr);
  const std::string why = traffic_failure(r);
  return why.empty() ? 0 : experiment_failed(why);
}

int run_pattern(const Scenario& s) {
  const ScenarioOptions& o = s.options;
  if (cli::launched_ranks() > 1) return run_pattern_over_ranks(s);
  const TrafficConfig t = cli::to_traffic_config(o);
  const auto exports = cli::open_exports(o);
  const auto csv = cli::open_csv(o);
  if (o.seeds > 1) {
    const config::SeedRuns runs = config::run_seeds(s);
    const SeedSpread spread = seed_spread(runs.runs);
    if (!(wants_json(o) && emit_json(o, seed_spread_json(runs.runs, spread)))) print_seed_spread(stdout, runs.runs, spread);
    return runs.failure.empty() ? 0 : experiment_failed(runs.failure);
  }
  const int hosts = FabricNetwork::make_topology(t.base)->host_count();
  LiveRun live(o, static_cast<std::int64_t>(pattern_flow_count(t, hosts)) * t.base.iters);
  const TrafficResult r = std::get<TrafficResult>(run(s, live.observer(), exports.get()).detail);
  live.finish();
  if (r.invariant_violations != 0) throw std::logic_error("ledger invariant violated");
  cli::publish_exports(exports.get());
  if (csv) {
    csv->add("flows.csv", flows_csv(r));
    csv->add("ports.csv", ports_csv(r.fabric));
    csv->add("timeseries.csv", live.timeseries_csv());
    csv->publish();
  }
  const ExportStats* hop = o.exports.hop_ledger ? &exports->stats : nullptr;
  if (!(wants_json(o) && emit_json(o, traffic_report_json(r, hop)))) print_traffic_report(stdout, r, hop);
  const std::string why = traffic_failure(r);
  return why.empty() ? 0 : experiment_failed(why);
}

int run_bw(const Scenario& s) {
  const ScenarioOptions& o = s.options;
  if (!o.loss_sweep.empty()) {
    cli::open_csv(o);  // refuses --csv
    const std::vector<LossRow> rows = config::run_loss_sweep(s);
    if (!(wants_json(o) && emit_json(o, loss_table_json(rows))))
      print_loss_table(stdout, rows, rows.front().rdma.config.base.profile.rc.timeout);
    return 0;
  }
  if (!o.pattern.empty()) return run_pattern(s);
  if (const int ranks = cli::launched_ranks(); ranks > 1)
    throw std::invalid_argument("bw under mpirun with " + std::to_string(ranks) +
                                " ranks: only a traffic pattern's fabric run (--pattern) runs over MPI ranks; run this one "
                                "without mpirun");
  const BwConfig b = cli::to_bw_config(o);
  const std::vector<Scenario> runs = config::per_size(s);
  std::vector<BwResult> rows;
  const auto exports = cli::open_exports(o);
  const auto csv = cli::open_csv(o);
  for (const Scenario& sx : runs) {
    LiveRun live(o, b.duration > Time::zero() ? 0 : b.base.iters * b.qps * (b.bidirectional ? 2 : 1));
    rows.push_back(std::get<BwResult>(run(sx, live.observer(), exports.get()).detail));
    live.finish();
    if (csv) {
      const std::string suffix = runs.size() == 1 ? ".csv" : "-" + std::to_string(sx.options.size) + ".csv";
      csv->add("messages" + suffix, bw_messages_csv(rows.back()));
      if (b.post_list == 1 && b.cq_mod == 1) csv->add("timeseries" + suffix, live.timeseries_csv());  // batches: not sampled
    }
    if (rows.back().invariant_violations != 0) throw std::logic_error("ledger invariant violated");
    if (rows.back().rc && rows.back().rc->status != "ok") {
      // As ib_write_bw does when a completion comes back with an error: say so and fail.
      const RcStats& rc = *rows.back().rc;
      if (wants_json(o))
        emit_json(o, {{"error", "Completion with error at client"}, {"status", rc.status}, {"rc", rc_stats_json(rc)}});
      else
        print_completion_error(stdout, b, rows.back());
      return experiment_failed("the QP completed with " + rc.status + " (perftest: Completion with error)");
    }
  }
  cli::publish_exports(exports.get());
  if (csv) {
    if (rows.back().fabric) csv->add("ports.csv", ports_csv(*rows.back().fabric));
    csv->publish();
  }
  const ExportStats* hop = o.exports.hop_ledger ? &exports->stats : nullptr;
  if (!(wants_json(o) && emit_json(o, bw_report_json(b, rows, hop)))) print_bw_report(stdout, b, rows, o.report_gbits, hop);
  return 0;
}

// `flows`: the open-loop workload's slowdown table (and the HPCC simulator's fct.txt, pfc.txt).
int run_flows_cmd(const Scenario& s) {
  const ScenarioOptions& o = s.options;
  const std::string& fct_out = o.open_loop.fct_out;
  const std::string& pfc_out = o.open_loop.pfc_out;
  std::optional<cli::MpiWorld> mpi;  // under mpirun: the fabric's cut over the ranks; rank 0 writes
  if (cli::launched_ranks() > 1) mpi.emplace();
  const bool writes = !mpi || mpi->rank() == 0;
  if (writes && !fct_out.empty()) check_writable(fct_out, "--fct-out");
  if (writes && !pfc_out.empty()) check_writable(pfc_out, "--pfc-out");
  const auto csv = writes ? cli::open_csv(o) : nullptr;
  Exports none{ExportOptions{}};  // outputs.fct is written here, not by run()
  const RunResult run_result = run(s, nullptr, &none, mpi ? &*mpi : nullptr);
  const FlowsResult& r = std::get<FlowsResult>(run_result.detail);
  if (r.invariant_violations != 0) throw std::logic_error("ledger invariant violated");
  if (!writes) return 0;
  if (!fct_out.empty()) write_text_file(fct_out, hpcc_fct_txt(r), "--fct-out");
  if (!pfc_out.empty()) write_text_file(pfc_out, hpcc_pfc_txt(r), "--pfc-out");
  if (csv) {
    csv->add("flows.csv", open_loop_flows_csv(r));
    csv->add("slowdown.csv", slowdown_csv(r.buckets));
    csv->add("ports.csv", ports_csv(r.fabric));
    csv->publish();
  }
  if (!(wants_json(o) && emit_json(o, flows_json(r)))) print_flows(stdout, r);
  return run_result.failure.empty() ? 0 : experiment_failed(run_result.failure);
}

int run_collective_cmd(const Scenario& s) {
  const ScenarioOptions& o = s.options;
  if (cli::launched_ranks() > 1) {  // the fabric's cut over the ranks; rank 0 reports
    cli::MpiWorld mpi;
    const CollectiveResult r = std::get<CollectiveResult>(run(s, nullptr, nullptr, &mpi).detail);
    if (mpi.rank() != 0 || (wants_json(o) && emit_json(o, collective_json(r)))) return 0;
    print_collective(stdout, r);
    return 0;
  }
  const CollectiveResult r = std::get<CollectiveResult>(run(s).detail);
  if (wants_json(o) && emit_json(o, collective_json(r))) return 0;
  print_collective(stdout, r);
  return 0;
}

int run_list(bool json) {
  if (json)
    std::cout << versioned(list_json()).dump(2) << "\n";
  else
    print_list(stdout);
  return 0;
}

// The probes' progress bar on stderr, when it is a terminal.
void calibrate_progress(const std::string& step, int done, int total) {
  if (::isatty(2) != 1) return;
  const int width = 30, filled = width * done / total;
  std::fprintf(stderr, "\r[%s%s] %2d/%d %-16s", std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(width - filled), ' ').c_str(), done, total, step.c_str());
  if (done == total) std::fprintf(stderr, "\r%*s\r", width + 30, "");
  std::fflush(stderr);
}

// A command's scenario: its flags are the scenario's keys.
Scenario flags(Command c, const ScenarioOptions& o) {
  Scenario s = make_scenario(c);
  s.path = "command line";
  s.options = o;
  return s;
}

int run_demo_cmd(const ScenarioOptions& o) {
  const DemoResult d = run_demo(cli::to_config(o));
  print_demo(stdout, d);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  use_huge_pages(argv);  // first: it may re-execute the program (core/huge_pages.hpp)
  CLI::App app{"rdmasim: a packet-level simulator of RDMA data paths with an exact latency ledger"};
  app.require_subcommand(1);
  ScenarioOptions lat_o = cli::default_options(Command::lat), budget_o = cli::default_options(Command::budget),
                  demo_o = cli::default_options(Command::demo);

  CLI::App* lat = app.add_subcommand("lat", "perftest-style latency test (ib_write_lat/ib_read_lat/ib_send_lat)");
  cli::add_lat_options(*lat, lat_o, Command::lat);
  CLI::App* budget = app.add_subcommand("budget", "closed-form latency budget for the same path");
  cli::add_lat_options(*budget, budget_o, Command::budget);
  ScenarioOptions bw_o = cli::default_options(Command::bw);
  CLI::App* bw = app.add_subcommand("bw", "perftest-style bandwidth test (ib_write_bw/ib_send_bw)");
  cli::add_lat_options(*bw, bw_o, Command::bw);
  // nccl-tests' programs, one subcommand each (all_reduce also answers to "allreduce").
  std::vector<ScenarioOptions> coll_o(coll_ops().size(), cli::default_options(Command::allreduce));
  std::vector<CLI::App*> coll;
  for (const CollOpInfo& op : coll_ops()) {
    ScenarioOptions& o = coll_o[static_cast<std::size_t>(op.op)];
    o.collective.op = op.name;
    std::string algos;
    for (const CollectiveSpec* a : collectives(op.op)) algos += (algos.empty() ? "" : " or ") + a->name;
    coll.push_back(app.add_subcommand(std::string(op.name), "nccl-tests " + std::string(op.program) + ": " + algos +
                                                                " across hosts x GPUs on a fabric"));
    cli::add_collective_options(*coll.back(), o);
  }
  coll.front()->alias("allreduce");
  ScenarioOptions flows_o = cli::default_options(Command::flows);
  CLI::App* flows = app.add_subcommand(
      "flows", "open-loop workload: flows arriving from a size distribution at a load; FCT slowdown per flow size");
  cli::add_lat_options(*flows, flows_o, Command::flows);
  CLI::App* demo = app.add_subcommand("demo", "TCP -> kernel bypass -> zero copy -> full RDMA, ledger per step");
  cli::add_lat_options(*demo, demo_o, Command::demo);

  ScenarioOptions coal_o;
  coal_o.transport = "tcp";
  coal_o.size = 65536;
  coal_o.iters = 200;
  std::vector<int> coal_frames{1, 2, 4, 8, 16, 32};
  CLI::App* coal = app.add_subcommand(
      "coalescing", "interrupt coalescing trade-off: p50/p99 latency, interrupts/s and CPU per rx-frames value");
  cli::add_lat_options(*coal, coal_o, Command::lat);
  // One latency run per rx-frames value, summarised: no per-run files, size list or hop ledger.
  for (const char* name : {"-a", "--trace", "--trace-messages", "--hop-ledger", "--pcap", "--pcap-port", "--pcap-frames",
                           "--pcap-snaplen", "--csv", "--sample-interval", "--watch", "--quiet"})
    coal->remove_option(coal->get_option(name));
  coal->add_option("--frames", coal_frames, "rx-frames values to sweep (e.g. 1,2,4,8)")->delimiter(',')->capture_default_str();

  ScenarioOptions cmt_o = cli::default_options(Command::cmtime);
  CLI::App* cmt = app.add_subcommand(
      "cmtime", "rdma-core cmtime: N RC connections set up at once, step by step; time per step and per connection");
  cli::add_lat_options(*cmt, cmt_o, Command::cmtime);

  calibrate::CalibrateCommand cal_o;
  CLI::App* cal = app.add_subcommand("calibrate", "measure this host's software costs and fit a host profile");
  cal->add_flag("--quick", cal_o.quick, "short probes (seconds; for CI)");
  cal->add_flag("--check", cal_o.check, "compare measured TCP loopback latency with the fitted model");
  cal->add_flag("--cross-core", cal_o.cross_core, "put the two ping-pong ends on different cores (default: same core)");
  cal->add_option("--sizes", cal_o.sizes, "TCP loopback message sizes in bytes (first one is fitted)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 24))
      ->capture_default_str();
  cal->add_option("-o,--output", cal_o.output, "write the fitted host profile (TOML) to this file");
  cal->add_option("--timeout", cal_o.timeout_ms, "per-probe time limit in milliseconds")
      ->check(CLI::Range(10, 600000))
      ->capture_default_str();
  CLI::App* topo = nullptr;
  const std::function<int()> run_topo = cli::add_topo_command(app, topo);
  CLI::App* serve = nullptr;
  const std::function<int()> run_serve = cli::add_serve_command(app, serve);
  bool list_json = false, list_format = false, list_json_format = false, list_json_documents = false;
  CLI::App* list = app.add_subcommand("list", "every component and profile parameter with its default, meaning and source");
  list->add_flag("--json", list_json, "print JSON");
  list->add_flag("--scenario-format", list_format, "print docs/scenario-format.md (generated from the key tables)");
  list->add_flag("--json-format", list_json_format, "print docs/json.md (generated from the JSON documents' key table)");
  list->add_flag("--json-documents", list_json_documents,
                 "print the JSON documents' key table as JSON, with an example command for each (for tests)");
  const std::function<int()> run_scenarios =
      cli::add_scenario_commands(app, [](const Scenario& s, nlohmann::ordered_json* results) {
        if (!s.options.json) std::printf("scenario: %s%s%s\n", s.name.empty() ? s.path.c_str() : s.name.c_str(),
                                         s.description.empty() ? "" : " - ", s.description.c_str());
        g_results = results;
        switch (s.command) {
          case Command::bw: return run_bw(s);
          case Command::budget: return run_budget_cmd(s);
          case Command::allreduce: return run_collective_cmd(s);
          case Command::flows: return run_flows_cmd(s);
          case Command::cmtime: return run_cmtime_cmd(s);
          default: return run_lat(s);
        }
      });

  // --version on the program and on every command; an unknown command lists the valid ones.
  const std::string version = std::string("rdmasim ") + RDMASIM_VERSION + "\nheap: " + heap_pages();
  app.set_version_flag("--version", version);
  std::string commands;
  bool known = argc < 2 || argv[1][0] == '-';
  for (CLI::App* sub : app.get_subcommands({})) {
    sub->set_version_flag("--version", version);
    commands += (commands.empty() ? "" : ", ") + sub->get_name();
    known = known || sub->check_name(argv[1]);
  }
  // Under mpirun every rank finds a bad command line alike: rank 0 alone says so and exits 2.
  // The others exit 0: a rank that exits non-zero first makes mpirun abort the job, which can
  // kill rank 0 (or drop its output) before its line is out; mpirun still exits 2, rank 0's.
  const bool reports = cli::launched_rank() == 0;
  const int bad_input = reports ? 2 : 0;
  if (!known) {
    if (reports) std::fprintf(stderr, "rdmasim: unknown command \"%s\" (valid: %s)\n", argv[1], commands.c_str());
    return bad_input;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (reports) std::fprintf(stderr, "rdmasim: %s\n", e.what());
    return bad_input;
  }
  // Under mpirun `sweep` shares its points out over the ranks, and `bw --pattern`, `flows` and
  // the collectives their fabric's partitions (apps/rdmasim/mpi_world.hpp); any other command would
  // run once per rank and write its output as many times.
  const auto over_ranks = [&](std::string_view cmd) {
    return cmd == "sweep" || cmd == "bw" || cmd == "flows" || cmd == "allreduce" ||
           std::any_of(coll.begin(), coll.end(), [&](const CLI::App* c) { return c->get_name() == cmd; });
  };
  if (const int ranks = cli::launched_ranks(); ranks > 1 && !over_ranks(argv[1])) {
    if (reports)
      std::fprintf(stderr,
                 "rdmasim: error: %s under mpirun with %d ranks: only `sweep` (its points), `bw --pattern`, `flows` and "
                 "the collectives (their fabric) run over MPI ranks; run it without mpirun\n",
                 argv[1], ranks);
    return bad_input;
  }
  const auto dispatch = [&]() -> int {
    if (lat->parsed()) return run_lat(flags(Command::lat, lat_o));
    if (budget->parsed()) return run_budget_cmd(flags(Command::budget, budget_o));
    if (bw->parsed()) return run_bw(flags(Command::bw, bw_o));
    if (demo->parsed()) return run_demo_cmd(demo_o);
    for (std::size_t i = 0; i < coll.size(); ++i)
      if (coll[i]->parsed()) return run_collective_cmd(flags(Command::allreduce, coll_o[i]));
    if (flows->parsed()) return run_flows_cmd(flags(Command::flows, flows_o));
    if (coal->parsed()) return run_coalescing(flags(Command::lat, coal_o), coal_frames);
    if (cmt->parsed()) return run_cmtime_cmd(flags(Command::cmtime, cmt_o));
    if (list->parsed() && list_format) {
      std::printf("%s", cli::scenario_format_markdown().c_str());
      return 0;
    }
    if (list->parsed() && (list_json_format || list_json_documents)) {
      std::printf("%s", (list_json_format ? json_format_markdown() : json_documents_json()).c_str());
      return 0;
    }
    if (list->parsed()) return run_list(list_json);
    if (const int rc = run_scenarios(); rc >= 0) return rc;
    if (cal->parsed()) {
      calibrate::run_calibrate_command(cal_o, stdout, calibrate_progress);
      return 0;
    }
    if (topo->parsed()) return run_topo();
    if (serve->parsed()) return run_serve();
    return 0;
  };
  try {
    const int rc = dispatch();
    // Tables and JSON go to standard output: a full disk or a closed pipe is an error, not a
    // silent success.
    errno = 0;
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout))
      throw OutputError(std::string("writing standard output failed: ") + std::strerror(errno != 0 ? errno : EIO));
    return rc;
  } catch (const calibrate::CannotFit& e) {
    std::fprintf(stderr, "rdmasim: error: %s\n", e.what());
    return 2;
  } catch (const OutputError& e) {
    std::fprintf(stderr, "rdmasim: error: %s\n", e.what());
    return 1;
  } catch (const std::invalid_argument& e) {
    if (reports) std::fprintf(stderr, "rdmasim: error: %s\n", e.what());
    return bad_input;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rdmasim: internal error: %s\n", e.what());
    return 1;
  }
  return 0;
}
