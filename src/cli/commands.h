// Each subcommand lives in its own file (cmd_<name>.cc) and registers itself on the app here.
// A command's callback throws on error; main() prints the message and exits with status 1.
#pragma once

#include <CLI/CLI.hpp>

namespace schedlab::cli {

void add_stats_command(CLI::App& app);     // cmd_stats.cc
void add_filter_command(CLI::App& app);    // cmd_filter.cc
void add_convert_command(CLI::App& app);   // cmd_convert.cc
void add_simulate_command(CLI::App& app);  // cmd_simulate.cc
void add_compare_command(CLI::App& app);   // cmd_compare.cc
void add_analyze_command(CLI::App& app);   // cmd_analyze.cc
void add_sessions_command(CLI::App& app);  // cmd_sessions.cc
void add_flurries_command(CLI::App& app);  // cmd_flurries.cc
void add_estimates_command(CLI::App& app);  // cmd_estimates.cc
void add_predict_command(CLI::App& app);   // cmd_predict.cc
void add_profiler_command(CLI::App& app);  // cmd_profiler.cc
void add_categorize_command(CLI::App& app);  // cmd_categorize.cc
void add_generate_command(CLI::App& app);    // cmd_generate.cc
void add_sweep_command(CLI::App& app);       // cmd_sweep.cc
void add_report_command(CLI::App& app);      // cmd_report.cc

}  // namespace schedlab::cli
