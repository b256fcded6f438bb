// The scenario keys: every option of an experiment, once — its key path in a scenario file
// (`network.mtu`), its command-line flag (`-m,--mtu`), the commands it applies to, its type,
// help and valid values, how a value (as text) sets it, and how to read it back.
//
// Everything that takes an option reads this table: scenario files (TOML and JSON), `--set` /
// `--vs` / `--param` overrides, the command line (apps/rdmasim builds its flags from it), the
// generated docs/scenario-format.md and `to_toml`. So a flag is exactly a key override, and a
// key that does not apply to a command is refused on the command line and in a file alike.
// Invariant (tests/scenario_keys_test): for every key, command and sample value, the options
// built from the flag, from TOML and from JSON are equal, and equal again after to_toml.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "config/options.hpp"

namespace rdmasim::config {

/// The commands a key applies to (bits).
enum CommandBit : unsigned {
  kLat = 1u << 0,
  kBudget = 1u << 1,
  kBw = 1u << 2,
  kAllreduce = 1u << 3,
  kDemo = 1u << 4,
  kFlows = 1u << 5,
  kCmtime = 1u << 6,
};
/// Every command, in the docs' order.
inline constexpr Command kAllCommands[] = {Command::lat,   Command::budget, Command::bw,  Command::allreduce,
                                           Command::flows, Command::cmtime, Command::demo};
/// The commands a scenario file can name (every command but the demo), in the docs' order.
inline constexpr Command kScenarioCommands[] = {Command::lat, Command::budget, Command::bw, Command::allreduce,
                                                Command::flows, Command::cmtime};
unsigned command_bit(Command c);
std::string_view command_name(Command c);
/// "lat, budget, bw, allreduce, flows": the scenario commands, for messages.
std::string command_names();

/// How the command line takes a key: a value (`--mtu 1024`), a bare flag (`-a`: true), or an
/// optional value (`--use-cuda[=N]`, default "0").
enum class CliForm : std::uint8_t { value, flag, optional_value };

struct ScenarioKey {
  std::string path;   // "network.mtu"
  std::string type;   // string | int | bool | bytes | time | number | list
  std::string help;
  std::vector<std::string> choices;  // for enumerations
  std::string flags;  // CLI11 names, "-m,--mtu"
  unsigned commands = 0;
  unsigned long_only = 0;  // commands that take only its long flags (their short one means another tool's option)
  CliForm form = CliForm::value;
  bool numeric_items = false;  // a list of numbers (strings elsewhere)
  char delimiter = 0;  // list flags: also split one value at this character (--loss-sweep 0,1e-4)
  std::function<void(ScenarioOptions&, const std::string&)> set;       // value as text; throws invalid_argument
  std::function<std::vector<std::string>(const ScenarioOptions&)> get;  // as set() takes it; {} = not given
};

const std::vector<ScenarioKey>& scenario_keys();
const ScenarioKey* find_scenario_key(const std::string& path);
/// The key's first long flag ("--mtu"), as errors name it.
std::string long_flag(const ScenarioKey& k);
/// The flags `cmd` takes the key by: all of them, or the long ones where long_only says.
std::string cli_flags(const ScenarioKey& k, Command cmd);

/// Command-line options that are not scenario keys, and why (the generated docs list them).
struct NonKeyFlag {
  std::string flags, commands, why;
};
const std::vector<NonKeyFlag>& non_key_flags();

/// A command's options before any key is set: `rdmasim bw` measures 64 KiB x 5000, allreduce
/// is nccl-tests' 8 hosts x 20 iterations, ...
ScenarioOptions default_options(Command c);

}  // namespace rdmasim::config
