#include "cmd_scenario.hpp"

#include <cstdio>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>

#include "config/options.hpp"
#include "config/scenario_runs.hpp"
#include "core/atomic_file.hpp"
#include "io/json_report.hpp"
#include "io/sweep_report.hpp"
#include "mpi_world.hpp"
#include "io/validation_report.hpp"

namespace rdmasim::cli {
namespace {

struct Options {
  std::vector<std::string> files, sets, vs, params;
  std::string points = "validation/points.toml";
  std::string output;
  std::string shard;  // sweep --shard I/N
  bool json = false;
  bool quiet = false;
  int threads = 0;
};

void write_file(const std::string& path, const std::string& text) { write_text_file(path, text, "-o"); }

// Before anything runs: -o can be written.
void check_output(const std::string& path) {
  if (!path.empty()) check_writable(path, "-o");
}

// Every run whose experiment failed, on stderr, after the table: exit 3, as the commands do.
int failed(const std::vector<std::string>& names, const std::vector<std::string>& failures) {
  int rc = 0;
  std::fflush(stdout);
  for (std::size_t i = 0; i < failures.size(); ++i)
    if (!failures[i].empty()) {
      std::fprintf(stderr, "rdmasim: experiment failed: %s: %s\n", names[i].c_str(), failures[i].c_str());
      rc = 3;
    }
  return rc;
}

// A sweep's table as the output's extension (or --json) asks: JSON, else CSV.
std::string table_text(const SweepTable& t, const Options& o) {
  const bool json = o.json || (o.output.size() > 5 && o.output.compare(o.output.size() - 5, 5, ".json") == 0);
  return json ? sweep_json(t) : sweep_csv(t);
}

void write_sweep(const std::string& text, const std::string& output) {
  if (output.empty())
    std::fwrite(text.data(), 1, text.size(), stdout);
  else
    write_file(output, text);
}

int sweep_failed(const SweepTable& t) {
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < t.rows.size(); ++i) rows.push_back(t.row_label(i));
  return failed(rows, t.failures);
}

}  // namespace

std::function<int()> add_scenario_commands(CLI::App& app, RunCommand run_command) {
  auto o = std::make_shared<Options>();
  CLI::App* run = app.add_subcommand("run", "run a scenario file (TOML, or .json) as its command would");
  run->add_option("scenario", o->files, "scenario file")->required()->expected(1);
  run->add_option("--set", o->sets, "override a scenario key or parameter, key=value (repeatable)");
  run->add_flag("--json", o->json, "print the command's JSON instead of tables");
  run->add_flag("-q,--quiet", o->quiet, "no progress line on stderr (shown only on a terminal, for runs over a second)");
  CLI::App* run_cmd = run;
  run_cmd->add_option("-o,--output", o->output, "also write the results as JSON to this file");
  CLI::App* cmp = app.add_subcommand("compare", "run schemes side by side: one column each, deltas vs the first");
  cmp->add_option("scenarios", o->files, "scenario files (or one, with --vs variants)")->required();
  cmp->add_option("--vs", o->vs, "a variant of the first scenario, \"key=value[,key=value]\" (repeatable)");
  cmp->add_option("--set", o->sets, "override in every scheme, key=value (repeatable)");
  cmp->add_flag("--json", o->json, "print JSON");
  CLI::App* sw = app.add_subcommand("sweep", "run a scenario over the cartesian product of parameter values");
  sw->add_option("scenario", o->files, "scenario file")->required()->expected(1);
  sw->add_option("--param", o->params, "key=v1,v2,... (repeatable; the last one varies fastest)")->required();
  sw->add_option("--set", o->sets, "override in every run, key=value (repeatable)");
  sw->add_option("-o,--output", o->output, "write the table here (.json: JSON, else CSV) instead of stdout");
  sw->add_flag("--json", o->json, "JSON instead of CSV");
  sw->add_option("-j,--threads", o->threads, "worker threads (default: the machine's cores)")->check(CLI::Range(1, 256));
  sw->add_option("--shard", o->shard,
                 "run the I-th of N shares of the combinations (\"3/8\"; every N-th from the I-th) and write a part "
                 "file (JSON) for `rdmasim merge`; a Slurm job array: --shard $SLURM_ARRAY_TASK_ID/N");
  CLI::App* merge = app.add_subcommand("merge", "join the part files of `sweep --shard I/N` into the sweep's table");
  merge->add_option("parts", o->files, "the part files, one per shard, in any order")->required();
  merge->add_option("-o,--output", o->output, "write the table here (.json: JSON, else CSV) instead of stdout");
  merge->add_flag("--json", o->json, "JSON instead of CSV");

  CLI::App* val = app.add_subcommand("validate", "run the published measurements of a validation list and compare");
  val->add_option("points", o->points, "the list (TOML, [[point]] entries)")->capture_default_str();
  val->add_option("-o,--output", o->output, "also write the report as markdown (docs/validation.md)");
  val->add_option("-j,--threads", o->threads, "worker threads (default: the machine's cores)")->check(CLI::Range(1, 256));

  return [o, run, cmp, sw, merge, val, run_command]() -> int {
    const int threads = o->threads > 0 ? o->threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (val->parsed()) {  // exit 3 when a point misses its tolerance or a known gap is met
      check_output(o->output);
      const std::vector<ValidationPoint> points = load_validation(o->points);
      const std::vector<ValidationRow> rows = run_validation(points, threads);
      print_validation(stdout, points, rows);
      if (!o->output.empty()) write_file(o->output, validation_markdown(points, rows));
      for (std::size_t i = 0; i < rows.size(); ++i)
        if (const std::string v = validation_verdict(points[i], rows[i]); v == "FAIL" || v == "gap met") return 3;
      return 0;
    }
    if (run->parsed()) {
      check_output(o->output);
      Scenario s = load_with_overrides(o->files.at(0), o->sets);
      s.options.json = s.options.json || o->json;
      s.options.quiet = s.options.quiet || o->quiet;
      if (o->output.empty()) return run_command(s, nullptr);
      nlohmann::ordered_json results;
      const int rc = run_command(s, &results);
      nlohmann::ordered_json doc;
      doc["schema_version"] = kJsonSchemaVersion;
      doc["scenario"] = {{"path", s.path}, {"name", s.name}, {"description", s.description}};
      doc["results"] = std::move(results);
      write_file(o->output, doc.dump(2) + "\n");
      return rc;
    }
    if (cmp->parsed()) {
      const CompareTable t = run_compare(o->files, o->vs, o->sets);
      if (o->json)
        std::printf("%s\n", compare_json(t.names, t.columns, t.failures).dump(2).c_str());
      else
        print_compare(stdout, t.names, t.columns);
      return failed(t.names, t.failures);
    }
    if (sw->parsed()) {
      const MpiWorld mpi;  // under mpirun: rank r runs share r + 1 of N, rank 0 merges
      if (mpi.size() > 1 && !o->shard.empty())
        throw std::invalid_argument("--shard: mpirun shares the sweep out itself (rank r runs share r + 1 of " +
                                    std::to_string(mpi.size()) + "): drop --shard");
      if (mpi.rank() == 0) check_output(o->output);
      const Scenario base = load_with_overrides(o->files.at(0), o->sets);
      refuse_outputs(base, "sweep writes one table, not each run's files (use `rdmasim run`)");
      std::vector<SweepParam> params;
      for (const std::string& p : o->params) params.push_back(parse_sweep_param(p));
      SweepShard shard = o->shard.empty() ? SweepShard{} : parse_sweep_shard(o->shard);
      if (!o->shard.empty() && o->json) throw std::invalid_argument("--shard writes a part file (JSON) for `rdmasim merge`: drop --json");
      if (mpi.size() > 1) {
        shard = SweepShard{mpi.rank(), mpi.size()};
        // Ranks on one machine share its cores: without -j, each takes its share of them.
        const int rank_threads = o->threads > 0 ? o->threads : std::max(1, threads / std::min(mpi.size(), threads));
        const SweepTable t = run_sweep(base, params, rank_threads, shard);
        const std::vector<std::string> texts = mpi.gather(sweep_part_json(t, shard, sweep_fingerprint(base, params)));
        if (mpi.rank() != 0) return 0;
        std::vector<std::pair<std::string, std::string>> parts;
        for (std::size_t r = 0; r < texts.size(); ++r) parts.emplace_back("rank " + std::to_string(r), texts[r]);
        const SweepTable whole = merge_sweep_parts(parts);
        write_sweep(table_text(whole, *o), o->output);
        return sweep_failed(whole);
      }
      const SweepTable t = run_sweep(base, params, threads, shard);
      write_sweep(o->shard.empty() ? table_text(t, *o) : sweep_part_json(t, shard, sweep_fingerprint(base, params)),
                  o->output);
      return sweep_failed(t);
    }
    if (merge->parsed()) {
      check_output(o->output);
      std::vector<std::pair<std::string, std::string>> parts;
      for (const std::string& f : o->files) {
        std::optional<std::string> text = config::read_text_file(f);
        if (!text) throw std::invalid_argument(f + ": cannot read it");
        parts.emplace_back(f, std::move(*text));
      }
      const SweepTable t = merge_sweep_parts(parts);
      write_sweep(table_text(t, *o), o->output);
      return sweep_failed(t);
    }
    return -1;
  };
}

}  // namespace rdmasim::cli
