// `rdmasim topo`: options and handler (see io/topo_report.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace rdmasim::cli {

/// Adds the subcommand; the returned function runs it (after parsing) and returns the exit code.
std::function<int()> add_topo_command(CLI::App& app, CLI::App*& sub);

}  // namespace rdmasim::cli
