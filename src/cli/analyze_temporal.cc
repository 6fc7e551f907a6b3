// schedlab analyze temporal TRACE: lag-1 autocorrelation of 15- and 150-minute aggregates, daily and weekly
// cycles, and Hurst parameters (analysis/temporal.h).
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_commands.h"
#include "cli/analyze_util.h"
#include "cli/progress.h"
#include "cli/text_util.h"
#include "schedlab/analysis/temporal.h"
#include "schedlab/base/count_text.h"
#include "schedlab/base/json_text.h"
#include "schedlab/experiments/temporal_report.h"
#include "schedlab/swf/writer.h"

namespace schedlab::cli {
namespace {

struct TemporalCliOptions {
  std::string path, csv, series_csv, series = "jobs", bin = "15m";
  bool json = false, skip_invalid = false, no_hurst = false;
};

// Two decimals; a value that rounds to zero is printed 0.00, not "-0.00" (a correlation of -0.003 is none).
std::string cell(double v) {
  if (std::isnan(v)) return "     n/a";
  return fmt::format("{:>8.2f}", std::abs(v) < 0.005 ? 0.0 : v);
}

void run_temporal(const TemporalCliOptions& opt) {
  check_one_stdout_document(opt.json, opt.csv);
  check_one_stdout_document(opt.json, opt.series_csv);
  swf::check_output_is_not_input(opt.csv, {opt.path});
  const swf::Log log = read_log_for_analysis(opt.path, opt.skip_invalid);
  const analysis::TemporalResult r = [&] {
    try {
      // Seconds per step only for a log spanning decades (a misdated job): then a line says how far it is.
      Progress progress("analyze temporal", "steps", 2.0, false);
      auto result = analysis::temporal(log.records, !opt.no_hurst,
                                       [&](size_t done, size_t total) { progress.update(done, total); });
      progress.finish();
      return result;
    } catch (const std::invalid_argument& e) {  // (a log with no usable job): say which log
      throw std::invalid_argument(fmt::format("{}: {}", opt.path, e.what()));
    }
  }();

  if (!opt.series_csv.empty()) {
    const auto series = analysis::parse_temporal_series(opt.series);
    if (!series)
      throw std::invalid_argument(
          fmt::format("--series: '{}' is not one of runtime, procs, cpu, interarrival, jobs", opt.series));
    const int64_t width = parse_duration("--bin", opt.bin);
    swf::write_text_file(opt.series_csv,
                         experiments::temporal_bins_csv(analysis::temporal_bins(log.records, *series, width)));
  }
  if (!opt.csv.empty()) swf::write_text_file(opt.csv, experiments::temporal_csv(r));
  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "analyze temporal";
    j["path"] = opt.path;
    j.update(experiments::to_json(r, !opt.no_hurst));
    fmt::print("{}\n", base::json_text(j, 2));
    return;
  }
  if (opt.csv == "-" || opt.series_csv == "-") return;
  std::string out = fmt::format("temporal structure: {}\n{} over {:.1f} days", opt.path,
                                base::counted_grouped(r.jobs, "job"), static_cast<double>(r.span_seconds) / 86400.0);
  // Every job left out, by reason: records without a submit time (in no series), and the jobs of unknown
  // runtime or size left out of a series (it said "26,990 jobs" of 28,489 records and no more).
  if (r.unknown_submit > 0)
    out += fmt::format(" ({} of {} without a submit time left out)", group_thousands(r.unknown_submit),
                       counted_grouped(r.records, "record"));
  out += "\n";
  std::string unknown;
  for (int k = 0; k < analysis::kTemporalSeries; ++k)
    if (const int64_t n = r.rows[static_cast<size_t>(k)].unknown_value; n > 0)
      unknown += fmt::format("{}{} {}", unknown.empty() ? "" : ", ",
                             analysis::temporal_series_name(static_cast<analysis::TemporalSeries>(k)),
                             group_thousands(n));
  if (!unknown.empty()) out += "left out of a series, the job's value unknown: " + unknown + "\n";
  out += "\n";
  out += fmt::format("{:<13}{:>8}{:>8}{:>8}{:>8}{:>8}", "series", "15m", "150m", "12h", "24h", "7d");
  if (!opt.no_hurst) out += fmt::format("{:>8}{:>8}{:>8}{:>8}", "H:VT", "H:R/S", "H:per", "H:avg");
  out += "\n";
  for (int k = 0; k < analysis::kTemporalSeries; ++k) {
    const auto& row = r.rows[static_cast<size_t>(k)];
    out += fmt::format("{:<13}", analysis::temporal_series_name(static_cast<analysis::TemporalSeries>(k)));
    out += cell(row.lag1_15m) + cell(row.lag1_150m) + cell(row.daily_12h) + cell(row.daily_24h) + cell(row.weekly_7d);
    if (!opt.no_hurst)
      out += cell(row.hurst.variance_time) + cell(row.hurst.rs) + cell(row.hurst.periodogram) + cell(row.hurst.average);
    out += "\n";
  }
  out += "\n15m/150m: lag-1 autocorrelation of 15- and 150-minute aggregates (locality); 12h/24h: 6-hour bins at "
         "lags 2 and 4 (daily cycle); 7d: 1-day bins at lag 7 (weekly cycle). Aggregates: job count, or the mean "
         "over the jobs arriving in the bin (empty bins skipped).\n";
  if (!opt.no_hurst)
    out += "H: the Hurst exponent by variance-time (VT), rescaled range (R/S) and periodogram (per) estimates, and "
           "their mean (avg); above 0.5: long-range dependence (self-similarity).\n";
  fmt::print("{}", out);
}

}  // namespace

void add_analyze_temporal(CLI::App& analyze) {
  auto opt = std::make_shared<TemporalCliOptions>();
  CLI::App* cmd = analyze.add_subcommand(
      "temporal", "Temporal structure (Talby): locality (lag-1 autocorrelation at 15 and 150 minutes), daily and "
                  "weekly cycles, and the Hurst parameter (variance-time, R/S, periodogram, average)");
  cmd->add_option("TRACE", opt->path, kLogInputHelp)->required();
  cmd->add_flag("--no-hurst", opt->no_hurst, "skip the self-similarity estimates");
  cmd->add_option("--csv", opt->csv, "write the result table as CSV (- = standard output)");
  CLI::Option* series_csv =
      cmd->add_option("--series-csv", opt->series_csv, "write one binned series as CSV (see --series, --bin)");
  // Without --series-csv they would be ignored without a word (and a bad --bin never checked).
  cmd->add_option("--series", opt->series, "series for --series-csv: runtime|procs|cpu|interarrival|jobs")
      ->capture_default_str()
      ->needs(series_csv);
  cmd->add_option("--bin", opt->bin, "bin width for --series-csv")->capture_default_str()->needs(series_csv);
  cmd->add_flag("--json", opt->json, "print one JSON document");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  cmd->callback([opt] { run_temporal(*opt); });
}

}  // namespace schedlab::cli
