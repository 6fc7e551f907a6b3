// schedlab analyze diversity TRACE...: each log against the pooled distribution of all the logs given
// (analysis/diversity.h), job-weighted and same-weight.
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_commands.h"
#include "cli/analyze_util.h"
#include "cli/progress.h"
#include "cli/text_util.h"
#include "schedlab/analysis/attribute.h"
#include "schedlab/analysis/diversity.h"
#include "schedlab/base/file_name.h"
#include "schedlab/base/json_text.h"
#include "schedlab/base/threads.h"
#include "schedlab/experiments/diversity_study.h"
#include "schedlab/swf/writer.h"

namespace schedlab::cli {
namespace {

struct DiversityCliOptions {
  std::vector<std::string> paths;
  std::string attr = "runtime", csv, expected = "share";
  int bins = 24, bootstrap = 100, threads = 0;
  uint64_t seed = 1;
  bool json = false, skip_invalid = false;
};

void run_diversity(const DiversityCliOptions& opt) {
  check_one_stdout_document(opt.json, opt.csv);
  const analysis::Attribute attribute = analysis::parse_attribute(opt.attr).value();  // (CLI checked the names)
  analysis::DiversityOptions d;
  d.bins = opt.bins;
  d.rounds = opt.bootstrap;
  d.seed = opt.seed;
  d.threads = opt.threads;
  d.expected = analysis::parse_expected_counts(opt.expected).value();
  analysis::check_bins_and_rounds(d.bins, d.rounds);  // before the logs are read
  base::check_threads(d.threads);
  // A missing argument is a usage error (exit 2, with the pointer to --help), as for `analyze distance A`.
  if (opt.paths.size() < 2)
    throw CLI::ArgumentMismatch(fmt::format("TRACE: diversity needs at least two logs (got {})", opt.paths.size()),
                                CLI::ExitCodes::ArgumentMismatch);

  swf::check_output_is_not_input(opt.csv, opt.paths);
  std::vector<experiments::DiversityLog> logs;
  for (const auto& path : opt.paths)  // one log in memory at a time: only its values are kept
    logs.push_back(experiments::diversity_log(path, read_log_for_analysis(path, opt.skip_invalid), attribute));
  Progress progress("analyze diversity: baseline", "rounds", 2.0, false);
  d.progress = [&](size_t done, size_t total) { progress.update(done, total); };
  const experiments::DiversityStudy st = experiments::run_diversity_study(std::move(logs), attribute, d);
  progress.finish();
  const analysis::DiversityResult& r = st.result;

  if (!opt.csv.empty()) swf::write_text_file(opt.csv, experiments::diversity_csv(st));
  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "analyze diversity";
    j.update(experiments::to_json(st));
    fmt::print("{}\n", base::json_text(j, 2));
    return;
  }
  if (opt.csv == "-") return;
  std::string out = fmt::format("diversity of {} ({} bins, expected counts {}; baseline: median of {} of the "
                                "log's size from the pool, seed {})\n\n",
                                opt.attr, d.bins, analysis::expected_counts_name(d.expected),
                                counted(d.rounds, "random sample"), d.seed);
  out += fmt::format("{:<36} {:>10} {:>9} {:>9} {:>9} {:>9}\n", "log", "jobs", "job-wgt", "baseline", "same-wgt",
                     "baseline");
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const auto& row = r.rows[i];
    out += fmt::format("{:<36} {:>10} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f}\n", base::file_name(opt.paths[i]),
                       group_thousands(row.jobs), row.job_weighted, row.baseline_job_weighted, row.same_weight,
                       row.baseline_same_weight);
  }
  // The jobs left out of a log's distribution, by reason (the text showed the jobs kept alone, so a log with gaps
  // read as whole).
  bool first = true;
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const int64_t no_submit = st.without_submit[i], unknown = st.unknown_value[i];
    if (no_submit + unknown == 0) continue;
    std::string reasons;
    if (no_submit > 0) reasons = group_thousands(no_submit) + " without a submit time";
    if (unknown > 0) reasons += (reasons.empty() ? "" : ", ") + group_thousands(unknown) + " of unknown " + opt.attr;
    out += fmt::format("{}{}: {} of {} left out: {}\n", first ? "\n" : "", base::file_name(opt.paths[i]),
                       group_thousands(no_submit + unknown),
                       counted_grouped(r.rows[i].jobs + st.without_value[i], "record"), reasons);
    first = false;
  }
  // The runtime stands in for a missing estimate (the project's convention): said, since a log without estimates
  // is then compared by its runtimes.
  for (size_t i = 0; i < r.rows.size(); ++i) {
    if (const int64_t n = st.estimate_from_runtime[i]; n > 0) {
      out += fmt::format("{}{}: {} of {} {} no estimate (field 9): their runtime stands in\n", first ? "\n" : "",
                         base::file_name(opt.paths[i]), group_thousands(n), counted_grouped(r.rows[i].jobs, "job"),
                         base::noun(n, "has", "have"));
      first = false;
    }
  }
  fmt::print("{}", out);
}

}  // namespace

void add_analyze_diversity(CLI::App& analyze) {
  auto opt = std::make_shared<DiversityCliOptions>();
  CLI::App* cmd = analyze.add_subcommand(
      "diversity", "Diversity between logs (Feitelson Sec. 5): each log as one slice against the pooled "
                   "distribution of all the logs, job-weighted and same-weight");
  cmd->add_option("TRACE", opt->paths, "two or more logs (SWF, or CSV for a .csv or .csv.gz name)")->required();
  cmd->add_option("--attribute,--attr", opt->attr, "the job attribute")
      ->check(CLI::IsMember(analysis::attribute_names()))
      ->capture_default_str();
  cmd->add_option("--bins", opt->bins, "number of equally likely pooled ranges")->capture_default_str();
  cmd->add_option("--bootstrap", opt->bootstrap, "rounds of the random-sampling baseline (0 = none)")
      ->capture_default_str();
  cmd->add_option("--seed", opt->seed, "seed of the baseline")->capture_default_str();
  cmd->add_option("--threads", opt->threads, "baseline threads (0 = all cores; the result does not depend on it)")
      ->capture_default_str();
  cmd->add_option("--expected", opt->expected, "expected counts: share or uniform")
      ->check(CLI::IsMember(analysis::expected_counts_names()))
      ->capture_default_str();
  cmd->add_option("--csv", opt->csv, "write the per-log table as CSV (- = standard output)");
  cmd->add_flag("--json", opt->json, "print one JSON document");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  cmd->callback([opt] { run_diversity(*opt); });
}

}  // namespace schedlab::cli
