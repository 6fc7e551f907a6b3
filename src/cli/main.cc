// schedlab: the command-line tool. A thin layer over the library: each subcommand parses its options,
// calls library functions, and prints text or JSON.
#include <cstdio>
#include <exception>

#include <fmt/core.h>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"schedlab: workload logs, scheduler simulation and runtime prediction for parallel machines"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "schedlab 0.1.0");
  schedlab::cli::add_stats_command(app);
  schedlab::cli::add_filter_command(app);
  schedlab::cli::add_convert_command(app);
  schedlab::cli::add_simulate_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "schedlab: error: {}\n", e.what());
    return 1;
  }
  return 0;
}
