// rdmasim command-line program: parses, calls the library, prints. Exit codes: 0 success,
// 2 bad input (one line on stderr naming the problem), 1 internal error.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "cli_common.hpp"
#include "io/demo_report.hpp"
#include "io/json_report.hpp"
#include "io/perftest_report.hpp"
#include "rdmasim/demo.hpp"
#include "rdmasim/latency.hpp"
#include "rdmasim/profile.hpp"

using namespace rdmasim;

namespace {

int run_lat(const cli::LatOptions& o) {
  LatConfig c = cli::to_config(o);
  std::vector<std::int64_t> sizes = o.all ? cli::all_sizes() : std::vector<std::int64_t>{o.size};
  std::vector<LatConfig> configs;
  for (std::int64_t s : sizes) {
    LatConfig x = c;
    x.size = Bytes(s);
    validate(x);
    configs.push_back(x);
  }
  std::vector<LatResult> rows;
  for (const LatConfig& x : configs) rows.push_back(run_latency(x));
  for (const LatResult& r : rows)
    if (r.invariant_violations != 0) throw std::logic_error("ledger invariant violated");
  if (o.json) {
    std::cout << lat_json(rows).dump(2) << "\n";
    return 0;
  }
  print_lat_header(stdout, rows.front());
  print_lat_table(stdout, rows);
  if (rows.size() == 1)
    print_ledger(stdout, rows.front());
  else
    print_ledger_matrix(stdout, rows);
  return 0;
}

int run_budget_cmd(const cli::LatOptions& o) {
  const BudgetResult b = run_budget(cli::to_config(o));
  if (o.json)
    std::cout << budget_json(b).dump(2) << "\n";
  else
    print_budget(stdout, b);
  return 0;
}

int run_list(bool json) {
  if (json) {
    nlohmann::ordered_json j;
    j["profiles"] = profile_names();
    nlohmann::ordered_json params = nlohmann::ordered_json::array();
    for (const ParamDef& d : profile_params()) {
      nlohmann::ordered_json o;
      o["key"] = d.key;
      o["type"] = d.type;
      for (const std::string& name : profile_names()) o[name] = d.get(make_profile(name));
      o["help"] = d.help;
      o["source"] = d.source;
      params.push_back(std::move(o));
    }
    j["parameters"] = std::move(params);
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  const Profile def = make_profile("default"), seed = make_profile("seed-demo");
  std::printf("Profiles: default (ConnectX-class 100G NIC, PCIe Gen4 x16, Linux), seed-demo (the lesson's toy)\n\n");
  std::printf("%-24s %-7s %-12s %-12s %s\n", "parameter", "type", "default", "seed-demo", "meaning [source]");
  for (const ParamDef& d : profile_params())
    std::printf("%-24s %-7s %-12s %-12s %s [%s]\n", d.key.c_str(), d.type.c_str(), d.get(def).c_str(),
                d.get(seed).c_str(), d.help.c_str(), d.source.c_str());
  return 0;
}

int run_demo_cmd(const cli::LatOptions& o) {
  const DemoResult d = run_demo(cli::to_config(o));
  print_demo(stdout, d);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rdmasim: a packet-level simulator of RDMA data paths with an exact latency ledger"};
  app.require_subcommand(1);
  cli::LatOptions lat_o, budget_o, demo_o;
  demo_o.iters = 5000;

  CLI::App* lat = app.add_subcommand("lat", "perftest-style latency test (ib_write_lat/ib_read_lat/ib_send_lat)");
  cli::add_lat_options(*lat, lat_o, true);
  CLI::App* budget = app.add_subcommand("budget", "closed-form latency budget for the same path");
  cli::add_lat_options(*budget, budget_o, true);
  CLI::App* demo = app.add_subcommand("demo", "TCP -> kernel bypass -> zero copy -> full RDMA, ledger per step");
  cli::add_lat_options(*demo, demo_o, false);

  bool list_json = false;
  CLI::App* list = app.add_subcommand("list", "every profile parameter with its default, meaning and source");
  list->add_flag("--json", list_json, "print JSON");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "rdmasim: %s\n", e.what());
    return 2;
  }
  try {
    if (lat->parsed()) return run_lat(lat_o);
    if (budget->parsed()) return run_budget_cmd(budget_o);
    if (demo->parsed()) return run_demo_cmd(demo_o);
    if (list->parsed()) return run_list(list_json);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "rdmasim: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rdmasim: internal error: %s\n", e.what());
    return 1;
  }
  return 0;
}
