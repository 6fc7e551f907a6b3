#include "cli/commands.h"

namespace schedlab::cli {

void add_filter_command(CLI::App& app) {
  app.add_subcommand("filter", "(not yet implemented)");
}

}  // namespace schedlab::cli
