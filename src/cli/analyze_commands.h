// The subcommands of `schedlab analyze` (cmd_analyze.cc registers them), one file each.
#pragma once

#include <CLI/CLI.hpp>

namespace schedlab::cli {

void add_analyze_locality(CLI::App& analyze);   // analyze_locality.cc
void add_analyze_diversity(CLI::App& analyze);  // analyze_diversity.cc
void add_analyze_runs(CLI::App& analyze);       // analyze_runs.cc
void add_analyze_temporal(CLI::App& analyze);   // analyze_temporal.cc
void add_analyze_distance(CLI::App& analyze);   // analyze_distance.cc

}  // namespace schedlab::cli
