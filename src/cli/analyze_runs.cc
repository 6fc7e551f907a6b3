// schedlab analyze runs TRACE: run lengths of equivalent jobs and the fitted power-law exponent theta
// (analysis/runs.h).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_commands.h"
#include "cli/analyze_util.h"
#include "cli/text_util.h"
#include "schedlab/analysis/runs.h"
#include "schedlab/base/json_text.h"
#include "schedlab/experiments/runs_report.h"
#include "schedlab/swf/writer.h"

namespace schedlab::cli {
namespace {

struct RunsCliOptions {
  std::string path, csv;
  bool size_only = false, json = false, skip_invalid = false;
};

void run_runs(const RunsCliOptions& opt) {
  check_one_stdout_document(opt.json, opt.csv);
  swf::check_output_is_not_input(opt.csv, {opt.path});
  const swf::Log log = read_log_for_analysis(opt.path, opt.skip_invalid);
  const analysis::RunsResult r = analysis::find_runs(log.records, !opt.size_only);
  if (r.jobs == 0) {
    if (r.unknown_executable > 0)
      throw std::invalid_argument(fmt::format(
          "{}: no job has an executable number (field 14); use --size-only to match jobs on user and size only",
          opt.path));
    throw std::invalid_argument(fmt::format("{}: no job with a known user, size and submit time", opt.path));
  }
  if (!opt.csv.empty()) swf::write_text_file(opt.csv, experiments::runs_csv(r));
  const char* key = opt.size_only ? "user, size" : "user, executable, size";
  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "analyze runs";
    j["path"] = opt.path;
    j.update(experiments::to_json(r, key));
    fmt::print("{}\n", base::json_text(j, 2));
    return;
  }
  if (opt.csv == "-") return;
  std::string out = fmt::format("runs of equivalent jobs ({}): {}\n", key, opt.path);
  out += fmt::format("jobs {}  (left out: unknown submit {}, unknown user {}, no size {}, unknown executable {})\n",
                     group_thousands(r.jobs), group_thousands(r.unknown_submit), group_thousands(r.unknown_user),
                     group_thousands(r.no_size), group_thousands(r.unknown_executable));
  out += fmt::format("runs {}  mean length {:.3f}  longest {}  jobs in runs of 2 or more {:.1f}%\n",
                     group_thousands(r.runs), r.mean_length, group_thousands(r.longest),
                     100 * r.jobs_in_repeated_share);
  // A fit needs two run lengths (the slope: in two of its power-of-two bins); say so instead of "nan".
  const auto fit = [](double theta, const char* unfit) {
    return std::isnan(theta) ? fmt::format("n/a ({})", unfit) : fmt::format("{:.3f}", theta);
  };
  out += fmt::format("theta (P(R = r) ~ r^-theta): MLE {} (r <= {}), log-log histogram slope {}\n\n",
                     fit(r.theta_mle, "fewer than two run lengths"), group_thousands(r.r_max),
                     fit(r.theta_loglog, "run lengths in fewer than two bins"));
  out += fmt::format("{:>12} {:>10}\n", "length", "runs");
  for (const auto& g : analysis::run_length_groups(r))  // logarithmic groups keep the table short
    out += fmt::format("{:>12} {:>10}\n", g.from == g.to ? std::to_string(g.from) : fmt::format("{}-{}", g.from, g.to),
                       group_thousands(g.runs));
  fmt::print("{}", out);
}

}  // namespace

void add_analyze_runs(CLI::App& analyze) {
  auto opt = std::make_shared<RunsCliOptions>();
  CLI::App* cmd = analyze.add_subcommand(
      "runs", "Run lengths of equivalent jobs (same user, executable and size, consecutive in the user's "
              "stream) and the fitted power-law exponent theta of P(R = r) ~ r^-theta");
  cmd->add_option("TRACE", opt->path, kLogInputHelp)->required();
  cmd->add_flag("--size-only", opt->size_only,
                "equivalent = same user and size (for logs without executable numbers)");
  cmd->add_option("--csv", opt->csv, "write the run-length histogram as CSV (- = standard output)");
  cmd->add_flag("--json", opt->json, "print one JSON document");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  cmd->callback([opt] { run_runs(*opt); });
}

}  // namespace schedlab::cli
