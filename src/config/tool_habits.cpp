#include "config/tool_habits.hpp"

#include "config/scenario_keys.hpp"

namespace rdmasim::config {

const std::vector<ToolHabit>& tool_habits() {
  using K = ToolHabit::Kind;
  constexpr unsigned perftest = kLat | kBw;
  static const std::vector<ToolHabit> habits{
      {"-d,--ib-dev", perftest, K::note, "DEV", "perftest's RDMA device", "the simulated NIC is the profile's: --profile"},
      {"-i,--ib-port", perftest, K::note, "N", "perftest's device port", "the simulated NIC has one port"},
      {"-x,--gid-index", perftest, K::note, "N", "perftest's GID index", "RoCEv2 addressing is simulated"},
      {"-p,--port", perftest, K::note, "N", "perftest's TCP port of the connection exchange",
       "nothing listens: both ends are simulated"},
      {"-F,--CPU-freq", perftest, K::note, "", "perftest's CPU-frequency check", "no CPU frequency to check"},
      {"--cpu_util", perftest, K::note, "", "perftest's CPU utilisation report",
       "the simulated hosts' CPU use is always printed"},
      {"-c,--connection", perftest, K::only, "RC", "perftest's connection type",
       "rdmasim models RC (reliable connected) QPs only"},
      {"--run_infinitely", perftest, K::refuse, "", "perftest's endless run",
       "a simulation needs an end: give -n/--iters (bw also takes -D/--duration, simulated time)"},
      {"-o,--op", kAllreduce, K::only, "sum", "nccl-tests' reduction", "rdmasim models sum only"},
      {"-d,--datatype", kAllreduce, K::only, "float", "nccl-tests' data type", "rdmasim models float only"},
      {"-m,--agg-iters", kAllreduce, K::only, "1", "nccl-tests' operations aggregated per iteration",
       "rdmasim models 1 only (one operation per iteration)"},
      {"-t,--nthreads", kAllreduce, K::only, "1", "nccl-tests' threads per process",
       "rdmasim models 1 only (ranks are hosts x -g)"},
      {"-z,--blocking", kAllreduce, K::note, "N", "nccl-tests' blocking collectives", "one simulated process per host"},
      {"-r,--root", kAllreduce, K::only, "0", "nccl-tests' root rank (broadcast)", "rdmasim models root 0 only"},
      {"-a,--average", kAllreduce, K::note, "N", "nccl-tests' combining of ranks' times",
       "every rank is simulated: one figure"},
  };
  return habits;
}

namespace {
std::string short_flag(const ToolHabit& h) { return h.flags.substr(0, h.flags.find(',')); }
std::string long_flag(const ToolHabit& h) { return h.flags.substr(h.flags.rfind(',') + 1); }
}  // namespace

std::string habit_help(const ToolHabit& h) {
  switch (h.kind) {
    case ToolHabit::Kind::note: return h.what + ": accepted and ignored (" + h.why + ")";
    case ToolHabit::Kind::only: return h.what + ": " + h.value + " (the one modelled; others are refused)";
    case ToolHabit::Kind::refuse: return h.what + ": refused (" + h.why + ")";
  }
  return "";
}

std::string habit_note(const ToolHabit& h, const std::string& value) {
  return short_flag(h) + (value.empty() ? "" : " " + value) + ": ignored (" + h.why + ")";
}

std::string habit_error(const ToolHabit& h, const std::string& value) {
  return long_flag(h) + ": " + (value.empty() ? "" : value + ": ") + h.why;
}

std::string habit_flags_text(const ToolHabit& h) {
  const std::string s = short_flag(h), l = long_flag(h);
  return l + (s != l ? " (" + s + ")" : "") + (h.value.empty() ? "" : " " + h.value);
}

std::string habit_commands_text(const ToolHabit& h) {
  std::string s;
  for (Command c : kAllCommands)
    if (h.commands & command_bit(c)) s += (s.empty() ? "" : ", ") + std::string(command_name(c));
  return s;
}

}  // namespace rdmasim::config
