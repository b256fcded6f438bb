#include "cmd_collective.hpp"

#include <stdexcept>

namespace rdmasim::cli {

void add_collective_options(CLI::App& app, ScenarioOptions& l) {
  add_key_options(app, l, Command::allreduce);
  app.add_option("--set", l.sets, "override a profile parameter, key=value (repeatable; `rdmasim list`) [params.KEY]");
  app.add_flag("--json", l.json, "print JSON instead of the table");
  add_tool_habits(app, Command::allreduce);
}

}  // namespace rdmasim::cli
