#include "cli/commands.h"

namespace schedlab::cli {

void add_convert_command(CLI::App& app) {
  app.add_subcommand("convert", "(not yet implemented)");
}

}  // namespace schedlab::cli
