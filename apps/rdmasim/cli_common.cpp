#include "cli_common.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <tuple>

#include "config/scenario_keys.hpp"
#include "config/tool_habits.hpp"

#include "rdmasim/load_balancer.hpp"
#include "rdmasim/rate_control.hpp"

namespace rdmasim::cli {

CLI::Validator unsigned_number() {
  return CLI::Validator(
      [](std::string& v) { return !v.empty() && (v[0] == '-' || v[0] == '+') ? "must be 0 or more, got " + v : std::string(); },
      "UINT");
}

void add_key_options(CLI::App& app, ScenarioOptions& o, Command cmd, const std::function<bool(const ScenarioKey&)>& only) {
  for (const ScenarioKey& k : scenario_keys()) {
    if ((k.commands & command_bit(cmd)) == 0 || k.flags.empty() || (only && !only(k))) continue;
    const ScenarioKey* key = &k;
    const auto set = [&o, key](const std::string& v) {
      try {
        key->set(o, v);
      } catch (const std::invalid_argument& e) {
        throw CLI::ValidationError(long_flag(*key), e.what());
      }
    };
    std::string help = k.help;
    if (!k.choices.empty()) help += " (" + choices_text(k.choices) + ")";
    help += " [" + k.path + "]";
    CLI::Option* opt = nullptr;
    const std::string flags = cli_flags(k, cmd);
    if (k.form == CliForm::flag) {
      opt = app.add_flag_callback(flags, [set] { set("true"); }, help);
    } else if (k.type == "list") {
      opt = app.add_option_function<std::vector<std::string>>(
          flags, [set](const std::vector<std::string>& v) { for (const std::string& x : v) set(x); }, help);
      if (k.delimiter) opt->delimiter(k.delimiter);
    } else {
      opt = app.add_option_function<std::string>(flags, set, help);
      if (k.form == CliForm::optional_value) opt->expected(0, 1)->default_str("0");
    }
    if (k.form != CliForm::flag) {
      const std::string& t = k.type;
      opt->type_name(t == "int" ? "INT" : t == "bytes" ? "SIZE" : t == "time" ? "TIME" : t == "bool" ? "on|off"
                     : t == "number" ? "FLOAT" : k.form == CliForm::optional_value ? "N" : "TEXT");
    }
    if (k.form != CliForm::flag && k.type != "list" && k.form != CliForm::optional_value) {
      std::string shown;
      for (const std::string& v : k.get(o)) shown += (shown.empty() ? "" : ",") + v;
      if (!shown.empty()) opt->default_str(shown);
    }
  }
}

void note(const std::string& text) { std::fprintf(stderr, "rdmasim: note: %s\n", text.c_str()); }

void add_tool_habits(CLI::App& app, Command cmd) {
  for (const ToolHabit& h : tool_habits()) {
    if ((h.commands & command_bit(cmd)) == 0) continue;
    const ToolHabit* habit = &h;
    const auto take = [habit](const std::string& v) {
      if (habit->kind == ToolHabit::Kind::note) return note(habit_note(*habit, v));
      if (habit->kind == ToolHabit::Kind::refuse || v != habit->value) {
        const std::string e = habit_error(*habit, v);
        throw CLI::ValidationError(e.substr(0, e.find(": ")), e.substr(e.find(": ") + 2));
      }
    };
    if (h.value.empty())
      app.add_flag_callback(h.flags, [take] { take(""); }, habit_help(h));
    else
      app.add_option_function<std::string>(h.flags, take, habit_help(h));
  }
}

void add_lat_options(CLI::App& app, ScenarioOptions& o, Command cmd) {
  add_key_options(app, o, cmd);
  app.add_option("--set", o.sets, "override a profile parameter, key=value (repeatable; `rdmasim list`) [params.KEY]");
  if (cmd == Command::demo) return;
  app.add_flag("--json", o.json, "print JSON instead of tables");
  if (cmd == Command::bw) app.add_flag("--report-gbits,--report_gbits", o.report_gbits, "report Gb/s instead of MiB/s");
  if (cmd == Command::lat || cmd == Command::bw) {
    add_tool_habits(app, cmd);
    app.add_flag("--connect-per-msg", o.connect_per_msg, "a new RC connection for every message, timed (connection.reuse = 1)");
    app.add_flag("--quiet", o.quiet, "no progress line on stderr (it is shown only when stderr is a terminal "
                                     "and the run takes more than a second)");
  }
}

std::unique_ptr<CsvDir> open_csv(const ScenarioOptions& o) {
  if (o.csv.empty()) return nullptr;
  if (o.seeds > 1) throw std::invalid_argument("--csv: one run at a time (not with --seeds)");
  if (!o.loss_sweep.empty()) throw std::invalid_argument("--csv: not with --loss-sweep (use --json)");
  return std::make_unique<CsvDir>(o.csv);
}

std::unique_ptr<Exports> open_exports(const ScenarioOptions& o) {
  const ExportOptions& x = o.exports;
  if (x.trace_path.empty() && x.pcap_path.empty() && !x.hop_ledger) {
    if (!x.pcap_ports.empty()) throw std::invalid_argument("--pcap-port needs --pcap FILE");
    // Nothing to trace or capture, but the command line writes a scenario's other outputs (its
    // `[outputs] csv`, ...): an Exports, even an empty one, tells run() that files are written.
    return std::make_unique<Exports>(x);
  }
  if (o.all) throw std::invalid_argument("--trace/--pcap/--hop-ledger export one run: drop -a and pick a size with -s");
  if (o.seeds > 1) throw std::invalid_argument("--trace/--pcap/--hop-ledger export one run: drop --seeds");
  return std::make_unique<Exports>(x);
}

void publish_exports(Exports* x) {
  if (!x) return;
  x->publish();
  if (x->stats.frames_dropped > 0)
    std::fprintf(stderr, "rdmasim: note: --pcap kept the first %llu frames (--pcap-frames), %llu more not written\n",
                 static_cast<unsigned long long>(x->stats.frames_captured),
                 static_cast<unsigned long long>(x->stats.frames_dropped));
}

}  // namespace rdmasim::cli
