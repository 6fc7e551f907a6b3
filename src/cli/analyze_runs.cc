// schedlab analyze runs TRACE: run lengths of equivalent jobs and the fitted power-law exponent theta
// (analysis/runs.h).
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_commands.h"
#include "cli/analyze_util.h"
#include "cli/text_util.h"
#include "schedlab/analysis/runs.h"

namespace schedlab::cli {
namespace {

struct RunsCliOptions {
  std::string path, csv;
  bool size_only = false, json = false, skip_invalid = false;
};

void run_runs(const RunsCliOptions& opt) {
  check_one_stdout_document(opt.json, opt.csv);
  const swf::Log log = read_log_for_analysis(opt.path, opt.skip_invalid);
  const analysis::RunsResult r = analysis::find_runs(log.records, !opt.size_only);
  if (r.jobs == 0) {
    if (r.unknown_executable > 0)
      throw std::invalid_argument(fmt::format(
          "{}: no job has an executable number (field 14); use --size-only to match jobs on user and size only",
          opt.path));
    throw std::invalid_argument(fmt::format("{}: no job with a known user, size and submit time", opt.path));
  }
  if (!opt.csv.empty()) {
    std::vector<std::string> rows{"length,runs"};
    for (const auto& [len, count] : r.histogram) rows.push_back(fmt::format("{},{}", len, count));
    write_csv_lines(opt.csv, rows);
  }
  const char* key = opt.size_only ? "user, size" : "user, executable, size";
  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "analyze runs";
    j["path"] = opt.path;
    j["equivalence"] = key;
    j["jobs"] = r.jobs;
    j["excluded"] = {{"unknown_submit", r.unknown_submit},
                     {"unknown_user", r.unknown_user},
                     {"no_size", r.no_size},
                     {"unknown_executable", r.unknown_executable}};
    j["runs"] = r.runs;
    j["mean_length"] = r.mean_length;
    j["longest"] = r.longest;
    j["jobs_in_repeated_runs_share"] = r.jobs_in_repeated_share;
    j["theta"] = {{"mle", r.theta_mle}, {"mle_r_max", r.r_max}, {"loglog_slope", r.theta_loglog}};
    nlohmann::ordered_json h = nlohmann::ordered_json::array();
    for (const auto& [len, count] : r.histogram) h.push_back({len, count});
    j["histogram"] = h;
    fmt::print("{}\n", j.dump(2));
    return;
  }
  if (opt.csv == "-") return;
  std::string out = fmt::format("runs of equivalent jobs ({}): {}\n", key, opt.path);
  out += fmt::format("jobs {}  (left out: unknown submit {}, unknown user {}, no size {}, unknown executable {})\n",
                     group_thousands(r.jobs), r.unknown_submit, r.unknown_user, r.no_size, r.unknown_executable);
  out += fmt::format("runs {}  mean length {:.3f}  longest {}  jobs in runs of 2 or more {:.1f}%\n",
                     group_thousands(r.runs), r.mean_length, r.longest, 100 * r.jobs_in_repeated_share);
  out += fmt::format("theta (P(R = r) ~ r^-theta): MLE {:.3f} (r <= {}), log-log histogram slope {:.3f}\n\n",
                     r.theta_mle, r.r_max, r.theta_loglog);
  out += fmt::format("{:>12} {:>10}\n", "length", "runs");
  // Logarithmic groups keep the table short.
  int64_t lo = 1;
  while (lo <= r.longest) {
    const int64_t hi = lo * 2 - 1;
    int64_t n = 0;
    for (auto it = r.histogram.lower_bound(lo); it != r.histogram.end() && it->first <= hi; ++it) n += it->second;
    out += fmt::format("{:>12} {:>10}\n", lo == hi ? std::to_string(lo) : fmt::format("{}-{}", lo, hi),
                       group_thousands(n));
    lo *= 2;
  }
  fmt::print("{}", out);
}

}  // namespace

void add_analyze_runs(CLI::App& analyze) {
  auto opt = std::make_shared<RunsCliOptions>();
  CLI::App* cmd = analyze.add_subcommand(
      "runs", "Run lengths of equivalent jobs (same user, executable and size, consecutive in the user's "
              "stream) and the fitted power-law exponent theta of P(R = r) ~ r^-theta");
  cmd->add_option("TRACE", opt->path, "SWF log (plain or gzip; - for standard input)")->required();
  cmd->add_flag("--size-only", opt->size_only,
                "equivalent = same user and size (for logs without executable numbers)");
  cmd->add_option("--csv", opt->csv, "write the run-length histogram as CSV (- = standard output)");
  cmd->add_flag("--json", opt->json, "print one JSON document");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted) instead of failing");
  cmd->callback([opt] { run_runs(*opt); });
}

}  // namespace schedlab::cli
