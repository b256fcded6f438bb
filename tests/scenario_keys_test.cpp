// The key table's promise (config/scenario_keys.hpp): a command-line flag is exactly a key
// override. For every command, every key that applies to it and sample values of its type, the
// options built from the real command line (apps/rdmasim's flags), from a TOML file, from the
// same tree as JSON (the HTTP API's body), and from to_toml of the TOML scenario parsed again
// are equal. A key that does not apply to a command is refused by both the file and the flags;
// every flag of a command is a key's or a listed non-key flag.
#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "cmd_collective.hpp"
#include "config/scenario.hpp"
#include "config/scenario_keys.hpp"

using namespace rdmasim;
using namespace rdmasim::config;

namespace {

constexpr auto& kCommands = kScenarioCommands;

// The command line of `cmd` as the program builds it.
void add_options(CLI::App& app, ScenarioOptions& o, Command cmd) {
  if (cmd == Command::allreduce)
    cli::add_collective_options(app, o);
  else
    cli::add_lat_options(app, o, cmd);
}

ScenarioOptions from_cli(Command cmd, const std::vector<std::string>& args) {
  CLI::App app;
  ScenarioOptions o = default_options(cmd);
  add_options(app, o, cmd);
  std::vector<const char*> argv{"rdmasim"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
  return o;
}

// Sample values of a key, each a list of items (one for scalars).
std::vector<std::vector<std::string>> samples(const ScenarioKey& k) {
  if (k.path == "workload.loss_sweep") return {{"0", "0.001"}, {"0.25"}};
  if (k.path == "memory.use_cuda" || k.path == "workload.check") return {{"0"}};
  if (k.path == "workload.min_bytes" || k.path == "workload.max_bytes") return {{"64M"}, {"1024"}};
  if (!k.choices.empty()) {
    std::vector<std::vector<std::string>> r;
    for (const std::string& c : k.choices) r.push_back({c});
    return r;
  }
  if (k.type == "int") return {{"3"}, {"7"}};
  if (k.type == "bool") return {{"true"}, {"false"}};
  if (k.type == "bytes") return {{"4096"}, {"8KiB"}};
  if (k.type == "time") return {{"2ms"}, {"20us"}};
  if (k.type == "number") return {{"0.001"}, {"0.25"}};
  if (k.type == "list") return {{"edge0.0-agg0.0=40Gbps"}, {"h0-sw0=1", "h1-sw0@2us-3us"}};
  return {{"h3"}, {"out/x.file"}};
}

std::string quoted(const std::string& v) { return "\"" + v + "\""; }

// The value as a TOML / JSON literal of the key's type.
std::string literal(const ScenarioKey& k, const std::vector<std::string>& v) {
  if (k.type == "list") {
    std::string a;
    for (const std::string& x : v) a += (a.empty() ? "" : ", ") + quoted(x);
    return "[" + a + "]";
  }
  const bool digits = v[0].find_first_not_of("0123456789") == std::string::npos;
  if (k.type == "int" || k.type == "bool" || k.type == "number" || (k.type == "bytes" && digits)) return v[0];
  return quoted(v[0]);
}

std::string toml_of(Command cmd, const ScenarioKey& k, const std::string& lit) {
  const auto dot = k.path.find('.');
  std::string t = "command = " + quoted(std::string(command_name(cmd))) + "\n";
  if (dot == std::string::npos) return t + k.path + " = " + lit + "\n";
  return t + "[" + k.path.substr(0, dot) + "]\n" + k.path.substr(dot + 1) + " = " + lit + "\n";
}

std::string json_of(Command cmd, const ScenarioKey& k, const std::string& lit) {
  const auto dot = k.path.find('.');
  const std::string c = "{\"command\": " + quoted(std::string(command_name(cmd))) + ", ";
  if (dot == std::string::npos) return c + quoted(k.path) + ": " + lit + "}";
  return c + quoted(k.path.substr(0, dot)) + ": {" + quoted(k.path.substr(dot + 1)) + ": " + lit + "}}";
}

std::vector<std::string> flag_args(const ScenarioKey& k, const std::vector<std::string>& v) {
  const std::string f = cli::long_flag(k);
  if (k.form == CliForm::flag) return v[0] == "true" ? std::vector<std::string>{f} : std::vector<std::string>{};
  if (k.form == CliForm::optional_value) return {f + "=" + v[0]};
  std::vector<std::string> a;
  if (k.delimiter) {
    std::string joined;
    for (const std::string& x : v) joined += (joined.empty() ? "" : std::string(1, k.delimiter)) + x;
    return {f, joined};
  }
  for (const std::string& x : v) a.insert(a.end(), {f, x});
  return a;
}

}  // namespace

TEST(ScenarioKeys, FlagTomlJsonAndRoundTripGiveTheSameOptions) {
  int checked = 0;
  for (Command cmd : kCommands) {
    for (const ScenarioKey& k : scenario_keys()) {
      if ((k.commands & command_bit(cmd)) == 0) continue;
      for (const std::vector<std::string>& v : samples(k)) {
        const std::string lit = literal(k, v);
        SCOPED_TRACE(std::string(command_name(cmd)) + ": " + k.path + " = " + lit);
        // A key with no flag is the subcommand's choice (workload.collective: `rdmasim all_gather`).
        ScenarioOptions cli = from_cli(cmd, k.flags.empty() ? std::vector<std::string>{} : flag_args(k, v));
        if (k.flags.empty()) k.set(cli, v[0]);
        const Scenario t = parse_scenario(toml_of(cmd, k, lit), "s.toml");
        const Scenario j = parse_scenario(json_of(cmd, k, lit), "body", true);
        const std::string again = to_toml(t);
        const Scenario r = parse_scenario(again, "again.toml");
        EXPECT_EQ(t.command, cmd);
        EXPECT_TRUE(cli == t.options);
        EXPECT_TRUE(j.options == t.options);
        EXPECT_TRUE(r.options == t.options) << again;
        EXPECT_EQ(to_toml(r), again);
        // The sample is not the default: the key took effect (so equality above means something).
        if (k.get(t.options) != k.get(default_options(cmd))) ++checked;
      }
    }
  }
  EXPECT_GE(checked, 150);
}

TEST(ScenarioKeys, AKeyThatDoesNotApplyIsRefusedByTheFileAndTheFlags) {
  int refused = 0;
  for (Command cmd : kCommands) {
    std::set<std::string> own_flags;  // a flag name another key of this command uses (-b: bw's, allreduce's)
    for (const ScenarioKey& k : scenario_keys())
      if (k.commands & command_bit(cmd)) own_flags.insert(cli::long_flag(k));
    for (const ScenarioKey& k : scenario_keys()) {
      if (k.commands & command_bit(cmd)) continue;
      const std::vector<std::string> v = samples(k).front();
      SCOPED_TRACE(std::string(command_name(cmd)) + ": " + k.path);
      try {
        parse_scenario(toml_of(cmd, k, literal(k, v)), "s.toml");
        ADD_FAILURE() << "accepted by the file";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(k.path + ": not used by command \"" + std::string(command_name(cmd)) + "\""),
                  std::string::npos)
            << e.what();
      }
      if (own_flags.count(cli::long_flag(k))) continue;
      std::vector<std::string> args = flag_args(k, v);
      if (args.empty()) args = {cli::long_flag(k)};
      EXPECT_THROW(from_cli(cmd, args), CLI::ParseError);
      ++refused;
    }
  }
  EXPECT_GE(refused, 60);
}

TEST(ScenarioKeys, EveryFlagIsAKeyOrAListedNonKeyFlag) {
  for (Command cmd : {Command::lat, Command::budget, Command::bw, Command::allreduce, Command::flows, Command::demo}) {
    CLI::App app;
    ScenarioOptions o = default_options(cmd);
    add_options(app, o, cmd);
    for (const CLI::Option* opt : app.get_options()) {
      const std::vector<std::string> names = opt->get_lnames();
      if (names.empty() || names[0] == "help") continue;
      const std::string name = "--" + names[0];
      const bool key = std::any_of(scenario_keys().begin(), scenario_keys().end(), [&](const ScenarioKey& k) {
        return (k.commands & command_bit(cmd)) && cli::long_flag(k) == name;
      });
      const bool listed = std::any_of(non_key_flags().begin(), non_key_flags().end(),
                                      [&](const NonKeyFlag& f) { return f.flags.rfind(name, 0) == 0; });
      EXPECT_TRUE(key || listed) << command_name(cmd) << " " << name;
    }
  }
  for (const ScenarioKey& k : scenario_keys()) {
    EXPECT_TRUE(!k.flags.empty() || k.path == "workload.collective") << k.path;  // that one: the subcommand
    EXPECT_NE(k.commands, 0u) << k.path;
  }
}

TEST(ScenarioKeys, FlagErrorsAreTheKeysOwn) {
  try {
    from_cli(Command::lat, {"--mtu", "big"});
    FAIL();
  } catch (const CLI::ParseError& e) {
    EXPECT_STREQ(e.what(), "--mtu: expected an integer, got \"big\"");
  }
  try {
    parse_scenario("command = \"lat\"\n[network]\nmtu = 0\n", "s.toml");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "s.toml:3:7: network.mtu: must be 1..65536, got 0");
  }
  EXPECT_EQ(from_cli(Command::lat, {"-s", "4KiB"}).size, 4096);  // units on the command line, as in a file
  EXPECT_EQ(from_cli(Command::bw, {"--loss-sweep", "0,1e-3"}).loss_sweep, (std::vector<double>{0, 1e-3}));
}
