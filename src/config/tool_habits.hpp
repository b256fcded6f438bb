// Flags of perftest and nccl-tests that a pasted command line carries but that are not
// scenario keys, because they select nothing rdmasim simulates: a device, a port, a thread
// count. Each is accepted with a note on stderr, accepted only with the value rdmasim models
// (anything else refused), or refused. The command line builds these flags from this table
// and docs/scenario-format.md lists them from it.
#pragma once

#include <string>
#include <vector>

namespace rdmasim::config {

struct ToolHabit {
  enum class Kind { note, only, refuse };
  std::string flags;     // CLI11 names, "-d,--ib-dev"
  unsigned commands;     // CommandBit
  Kind kind;
  std::string value;     // note: the value's name in the docs ("" for a bare flag); only: the value modelled
  std::string what;      // "perftest's RDMA device"
  std::string why;       // note: why it changes nothing; only and refuse: the reason in the error
};
const std::vector<ToolHabit>& tool_habits();

/// What the command line says for each (and the docs print): the help line, the note for a
/// value it ignores, and the error for a value it refuses.
std::string habit_help(const ToolHabit& h);
std::string habit_note(const ToolHabit& h, const std::string& value);
std::string habit_error(const ToolHabit& h, const std::string& value);
/// "--ib-dev (-d) DEV" and "lat, bw", as the docs' table shows them.
std::string habit_flags_text(const ToolHabit& h);
std::string habit_commands_text(const ToolHabit& h);

}  // namespace rdmasim::config
