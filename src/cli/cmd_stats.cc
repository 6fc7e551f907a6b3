#include "cli/commands.h"

namespace schedlab::cli {

void add_stats_command(CLI::App& app) {
  app.add_subcommand("stats", "(not yet implemented)");
}

}  // namespace schedlab::cli
