#include "cli/commands.h"

namespace schedlab::cli {

void add_simulate_command(CLI::App& app) {
  app.add_subcommand("simulate", "(not yet implemented)");
}

}  // namespace schedlab::cli
