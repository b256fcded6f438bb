// `rdmasim serve`: the web dashboard and its JSON API (src/web/web_server.hpp, docs/api.md).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace rdmasim::cli {

/// Adds the subcommand; the returned function runs it (after parsing) until SIGINT/SIGTERM.
std::function<int()> add_serve_command(CLI::App& app, CLI::App*& sub);

}  // namespace rdmasim::cli
