// schedlab analyze locality TRACE: locality of sampling (analysis/locality.h) with its bootstrap baseline.
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
#include "schedlab/analysis/locality.h"
#include "schedlab/base/json_text.h"
#include "schedlab/experiments/locality_report.h"
#include "schedlab/swf/writer.h"

namespace schedlab::cli {
namespace {

struct LocalityCliOptions {
  std::string path, attr = "runtime", slice = "3d", shift = "0", csv, expected = "share";
  int bins = 24, bootstrap = 1000, threads = 0;
  uint64_t seed = 1;
  bool json = false, skip_invalid = false;
};

void print_text(const LocalityCliOptions& opt, const analysis::AttributeSeries& series,
                const analysis::LocalityOptions& lo, const analysis::LocalityResult& r) {
  std::string out = fmt::format("locality of sampling: {}\n", opt.path);
  out += fmt::format("attribute {}: {} jobs ({} without a known value, {} without a submit time)\n", opt.attr,
                     group_thousands(r.jobs), group_thousands(series.unknown_value),
                     group_thousands(series.unknown_submit));
  if (opt.attr == "estimate" && series.estimate_from_runtime > 0)
    out += series.estimate_from_runtime == 1
               ? std::string("  1 job has no estimate: its runtime stands in\n")
               : fmt::format("  {} jobs have no estimate: their runtime stands in\n",
                             group_thousands(series.estimate_from_runtime));
  out += fmt::format("slices of {} s (shift {} s): {}, usable (>= {} jobs) {} holding {} jobs; {} bins, "
                     "expected counts: {}\n",
                     lo.slice_seconds, lo.shift, r.slice_count, static_cast<int64_t>(lo.min_expected * lo.bins),
                     r.usable_slices, group_thousands(r.jobs_in_usable), lo.bins,
                     analysis::expected_counts_name(lo.expected));
  if (lo.rounds > 0) {
    out += fmt::format("bootstrap: {}, seed {}\n\n", counted(lo.rounds, "round"), lo.seed);
    out += fmt::format("{:<8} {:>8} {:>10} {:>18} {:>10} {:>8}\n", "metric", "M'", "M'_g", "baseline 5%-95%",
                       "M=M'-M'_g", "p");
    out += fmt::format("{:<8} {:>8.4f} {:>10.4f} {:>8.4f}-{:<9.4f} {:>10.4f} {:>8.3f}\n", "max", r.m_max_prime,
                       r.g_max, r.boot_max_p05, r.boot_max_p95, r.m_max, r.p_max);
    out += fmt::format("{:<8} {:>8.4f} {:>10.4f} {:>8.4f}-{:<9.4f} {:>10.4f} {:>8.3f}\n", "median", r.m_med_prime,
                       r.g_med, r.boot_med_p05, r.boot_med_p95, r.m_med, r.p_med);
    out += "(M': the largest and the median deviation m_i of a slice's distribution from the whole log's; M'_g:\n"
           " their medians over the bootstrap rounds, the log's jobs shuffled over its slices, with their 5%-95%\n"
           " range; M: the locality beyond chance; p: the share of rounds at or above M')\n";
  } else {
    out += fmt::format("\nM'_max {:.4f}   M'_med {:.4f}   (no bootstrap baseline)\n", r.m_max_prime, r.m_med_prime);
  }
  out += "(per-slice m_i series: --csv FILE or --json)\n";
  fmt::print("{}", out);
}

void run_locality(const LocalityCliOptions& opt) {
  check_one_stdout_document(opt.json, opt.csv);
  const analysis::Attribute attribute = analysis::parse_attribute(opt.attr).value();  // (CLI checked the names)
  analysis::LocalityOptions lo;
  lo.slice_seconds = parse_duration("--slice", opt.slice);
  lo.shift = parse_duration("--shift", opt.shift, true);
  lo.bins = opt.bins;
  lo.rounds = opt.bootstrap;
  lo.seed = opt.seed;
  lo.threads = opt.threads;
  lo.expected = analysis::parse_expected_counts(opt.expected).value();
  analysis::check_bins_and_rounds(lo.bins, lo.rounds);  // before the log is read

  swf::check_output_is_not_input(opt.csv, {opt.path});
  const swf::Log log = read_log_for_analysis(opt.path, opt.skip_invalid);
  const analysis::AttributeSeries series = analysis::attribute_series(log.records, attribute);
  if (series.values.empty())
    throw std::invalid_argument(fmt::format("{}: no job has a known {}", opt.path, opt.attr));
  // The options were checked before the log was read: what fails now is the log's (e.g. no usable slice).
  Progress progress("analyze locality: bootstrap", "rounds", 2.0, false);
  lo.progress = [&](size_t done, size_t total) { progress.update(done, total); };
  const analysis::LocalityResult r = [&] {
    try {
      return analysis::locality(series.times, series.values, lo);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("{}: {}", opt.path, e.what()));
    }
  }();
  progress.finish();

  if (!opt.csv.empty()) swf::write_text_file(opt.csv, experiments::locality_csv(r));
  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "analyze locality";
    j["path"] = opt.path;
    j.update(experiments::to_json(r, lo, series, attribute));
    fmt::print("{}\n", base::json_text(j, 2));
  } else if (opt.csv != "-") {
    print_text(opt, series, lo, r);
  }
}

}  // namespace

void add_analyze_locality(CLI::App& analyze) {
  auto opt = std::make_shared<LocalityCliOptions>();
  CLI::App* cmd = analyze.add_subcommand(
      "locality", "Locality of sampling (Feitelson): per-slice deviation m_i of the slice distribution from the "
                  "global one, M'_max, M'_med, their bootstrap baseline M'_g and M = M' - M'_g");
  cmd->add_option("TRACE", opt->path, kLogInputHelp)->required();
  cmd->add_option("--attribute,--attr", opt->attr, "the job attribute")
      ->check(CLI::IsMember(analysis::attribute_names()))
      ->capture_default_str();
  cmd->add_option("--slice", opt->slice, "slice length (N[s|m|h|d|w])")->capture_default_str();
  cmd->add_option("--bins", opt->bins, "number of equally likely global ranges r")->capture_default_str();
  cmd->add_option("--bootstrap", opt->bootstrap, "bootstrap rounds for the baseline (0 = none)")
      ->capture_default_str();
  cmd->add_option("--seed", opt->seed, "seed of the bootstrap")->capture_default_str();
  cmd->add_option("--shift", opt->shift, "shift of the slice boundaries from the first submit")
      ->capture_default_str();
  cmd->add_option("--threads", opt->threads, "bootstrap threads (0 = all cores; the result does not depend on it)")
      ->capture_default_str();
  cmd->add_option("--expected", opt->expected,
                  "expected counts: share (N x global share of each bin) or uniform (N / r)")
      ->check(CLI::IsMember(analysis::expected_counts_names()))
      ->capture_default_str();
  cmd->add_option("--csv", opt->csv, "write the per-slice series as CSV (- = standard output)");
  cmd->add_flag("--json", opt->json, "print one JSON document");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  cmd->callback([opt] { run_locality(*opt); });
}

}  // namespace schedlab::cli
