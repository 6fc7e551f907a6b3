// schedlab analyze {locality,diversity,runs,temporal,distance}: workload-structure measurements.
#include "cli/analyze_commands.h"
#include "cli/commands.h"

namespace schedlab::cli {

void add_analyze_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "analyze", "Workload structure: locality of sampling, diversity, repetition runs, cycles, distance of two logs");
  cmd->require_subcommand(1);
  add_analyze_locality(*cmd);
  add_analyze_diversity(*cmd);
  add_analyze_runs(*cmd);
  add_analyze_temporal(*cmd);
  add_analyze_distance(*cmd);
}

}  // namespace schedlab::cli
