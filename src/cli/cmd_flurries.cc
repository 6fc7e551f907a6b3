// schedlab flurries TRACE: (user, week) bursts of very high activity by one user (trace/flurries.h).
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_util.h"
#include "cli/commands.h"
#include "cli/text_util.h"
#include "schedlab/base/json_text.h"
#include "schedlab/experiments/flurries_report.h"
#include "schedlab/swf/writer.h"
#include "schedlab/trace/flurries.h"
#include "schedlab/trace/id_names.h"
#include "schedlab/trace/log_time.h"

namespace schedlab::cli {
namespace {

struct FlurriesCliOptions {
  std::string path, csv;
  double factor = 3.0;
  int64_t min_jobs = 500;
  bool json = false, skip_invalid = false;
};

void run_flurries(const FlurriesCliOptions& opt) {
  check_one_stdout_document(opt.json, opt.csv);
  trace::FlurryOptions fo;
  fo.factor = opt.factor;
  fo.min_jobs = opt.min_jobs;
  trace::check_flurry_options(fo);  // before the log is read
  swf::check_output_is_not_input(opt.csv, {opt.path});
  const swf::Log log = read_log_for_analysis(opt.path, opt.skip_invalid);
  const auto flurries = trace::find_flurries(log.records, fo);
  const int64_t jobs = experiments::flurry_jobs(flurries);
  const auto date = [&](int64_t t) { return trace::format_log_time_if_known(t, log.header).value_or(""); };
  if (!opt.csv.empty()) swf::write_text_file(opt.csv, experiments::flurries_csv(flurries));
  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "flurries";
    j["path"] = opt.path;
    j.update(experiments::to_json(flurries, fo, log));
    fmt::print("{}\n", base::json_text(j, 2));
    return;
  }
  if (opt.csv == "-") return;
  std::string out = fmt::format(
      "flurries in {}: a user's jobs in a week (from the first submit) > {} x any other user's that week and > {}\n",
      opt.path, fo.factor, fo.min_jobs);
  out += fmt::format("{}, {} of {}", counted(static_cast<int64_t>(flurries.size()), "flurry", "flurries"),
                     group_thousands(jobs), counted_grouped(static_cast<int64_t>(log.records.size()), "record"));
  // The jobs the rule cannot attribute, said (they were counted in the records, silently never in a flurry).
  if (const int64_t n = trace::unattributed_jobs(log.records); n > 0)
    out += fmt::format(" ({} without a user or submit time: in no flurry)", group_thousands(n));
  out += "\n";
  if (!flurries.empty()) {
    // A log converted from sacct names its users: then the names, last (trace/id_names.h).
    const auto names = trace::header_names_by_id(log.header, "users");
    out += fmt::format("\n{:>8} {:>6} {:<24} {:>8} {:>10} {:>10} {:>8}{}\n", "user", "week", "week start", "jobs",
                       "next user", "its jobs", "ratio", names.empty() ? "" : "  names (user, next user)");
    for (const auto& f : flurries) {
      const std::string d = date(f.week_start);
      // A user alone in the week: no next user ("-1" read as a user id), and the ratio is jobs / 1 (the rule's).
      out += fmt::format("{:>8} {:>6} {:<24} {:>8} {:>10} {:>10} {:>8.1f}{}\n", f.user, f.week,
                         d.empty() ? fmt::format("+{} s", f.week_start) : d.substr(0, 10), f.jobs,
                         f.runner_up >= 0 ? std::to_string(f.runner_up) : "-", f.runner_up_jobs, f.ratio,
                         names.empty() ? ""
                                       : fmt::format("  {}, {}", trace::name_of(names, f.user, "-"),
                                                     trace::name_of(names, f.runner_up, "-")));
    }
  }
  fmt::print("{}", out);
}

}  // namespace

void add_flurries_command(CLI::App& app) {
  auto opt = std::make_shared<FlurriesCliOptions>();
  CLI::App* cmd = app.add_subcommand("flurries", "List flurries: a user's week of far more jobs than any other user's");
  cmd->footer("A flurry is a (user, week) pair whose job count is > FACTOR x the largest weekly count of any other "
              "user that week and > MIN-JOBS. Remove them with 'schedlab filter --drop-flurries'.");
  cmd->add_option("TRACE", opt->path, kLogInputHelp)->required();
  cmd->add_option("--factor", opt->factor, "F: times the next user's weekly count")->capture_default_str();
  cmd->add_option("--min-jobs", opt->min_jobs, "minimum jobs in the week")->capture_default_str();
  cmd->add_option("--csv", opt->csv, "write the list as CSV (- = standard output)");
  cmd->add_flag("--json", opt->json, "print one JSON document");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  cmd->callback([opt] { run_flurries(*opt); });
}

}  // namespace schedlab::cli
