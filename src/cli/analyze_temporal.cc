// schedlab analyze temporal TRACE: lag-1 autocorrelation of 15- and 150-minute aggregates, daily and weekly
// cycles, and Hurst parameters (analysis/temporal.h).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_commands.h"
#include "cli/analyze_util.h"
#include "cli/text_util.h"
#include "schedlab/analysis/attribute.h"
#include "schedlab/analysis/temporal.h"

namespace schedlab::cli {
namespace {

struct TemporalCliOptions {
  std::string path, csv, series_csv, series = "jobs", bin = "15m";
  bool json = false, skip_invalid = false, no_hurst = false;
};

nlohmann::ordered_json number(double v) { return std::isnan(v) ? nlohmann::ordered_json() : nlohmann::ordered_json(v); }

std::string cell(double v) { return std::isnan(v) ? "     n/a" : fmt::format("{:>8.2f}", v); }

void run_temporal(const TemporalCliOptions& opt) {
  check_one_stdout_document(opt.json, opt.csv);
  check_one_stdout_document(opt.json, opt.series_csv);
  const swf::Log log = read_log_for_analysis(opt.path, opt.skip_invalid);
  const analysis::TemporalResult r = analysis::temporal(log.records, !opt.no_hurst);

  if (!opt.series_csv.empty()) {
    // The binned series underlying the autocorrelations, for one attribute and bin width.
    const int64_t width = parse_duration("--bin", opt.bin);
    int which = -1;
    for (int k = 0; k < analysis::kTemporalSeries; ++k)
      if (analysis::temporal_series_name(static_cast<analysis::TemporalSeries>(k)) == opt.series) which = k;
    if (which < 0)
      throw std::invalid_argument(
          fmt::format("--series: '{}' is not one of runtime, procs, cpu, interarrival, jobs", opt.series));
    std::vector<int64_t> times;
    std::vector<double> values;
    std::vector<int64_t> all;
    for (const auto& rec : log.records)
      if (rec.submit_time >= 0) all.push_back(rec.submit_time);
    std::sort(all.begin(), all.end());
    const auto kind = static_cast<analysis::TemporalSeries>(which);
    const bool count = kind == analysis::TemporalSeries::kJobs;
    if (count) {
      times = all;
      values.assign(all.size(), 1.0);
    } else {
      static constexpr analysis::Attribute kAttr[] = {analysis::Attribute::kRuntime, analysis::Attribute::kProcs,
                                                      analysis::Attribute::kCpu, analysis::Attribute::kInterarrival};
      auto s = analysis::attribute_series(log.records, kAttr[which]);
      times = std::move(s.times);
      values = std::move(s.values);
    }
    std::vector<std::string> rows{"bin,start,value"};
    if (!times.empty()) {
      const analysis::Binned b = analysis::bin_series(times, values, all.front(), width, count);
      for (size_t i = 0; i < b.value.size(); ++i)
        rows.push_back(fmt::format("{},{},{}", i, static_cast<int64_t>(i) * width + all.front(),
                                   b.present[i] ? csv_number(b.value[i]) : ""));
    }
    write_csv_lines(opt.series_csv, rows);
  }
  if (!opt.csv.empty()) {
    std::vector<std::string> rows{
        "series,lag1_15m,lag1_150m,daily_12h,daily_24h,weekly_7d,hurst_variance_time,hurst_rs,hurst_periodogram,"
        "hurst_average"};
    for (int k = 0; k < analysis::kTemporalSeries; ++k) {
      const auto& row = r.rows[static_cast<size_t>(k)];
      rows.push_back(fmt::format("{},{},{},{},{},{},{},{},{},{}",
                                 analysis::temporal_series_name(static_cast<analysis::TemporalSeries>(k)),
                                 csv_number(row.lag1_15m), csv_number(row.lag1_150m), csv_number(row.daily_12h),
                                 csv_number(row.daily_24h), csv_number(row.weekly_7d),
                                 csv_number(row.hurst.variance_time), csv_number(row.hurst.rs),
                                 csv_number(row.hurst.periodogram), csv_number(row.hurst.average)));
    }
    write_csv_lines(opt.csv, rows);
  }
  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "analyze temporal";
    j["path"] = opt.path;
    j["jobs"] = r.jobs;
    j["span_days"] = static_cast<double>(r.span_seconds) / 86400.0;
    for (int k = 0; k < analysis::kTemporalSeries; ++k) {
      const auto& row = r.rows[static_cast<size_t>(k)];
      nlohmann::ordered_json e = {
          {"locality", {{"lag1_15m", number(row.lag1_15m)}, {"lag1_150m", number(row.lag1_150m)}}},
          {"daily", {{"lag_12h", number(row.daily_12h)}, {"lag_24h", number(row.daily_24h)}}},
          {"weekly", {{"lag_7d", number(row.weekly_7d)}}}};
      if (!opt.no_hurst)
        e["hurst"] = {{"variance_time", number(row.hurst.variance_time)},
                      {"rs", number(row.hurst.rs)},
                      {"periodogram", number(row.hurst.periodogram)},
                      {"average", number(row.hurst.average)}};
      j["series"][std::string(analysis::temporal_series_name(static_cast<analysis::TemporalSeries>(k)))] = e;
    }
    fmt::print("{}\n", j.dump(2));
    return;
  }
  if (opt.csv == "-" || opt.series_csv == "-") return;
  std::string out = fmt::format("temporal structure: {}\n{} jobs over {:.1f} days\n\n", opt.path,
                                group_thousands(r.jobs), static_cast<double>(r.span_seconds) / 86400.0);
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
  fmt::print("{}", out);
}

}  // namespace

void add_analyze_temporal(CLI::App& analyze) {
  auto opt = std::make_shared<TemporalCliOptions>();
  CLI::App* cmd = analyze.add_subcommand(
      "temporal", "Temporal structure (Talby): locality (lag-1 autocorrelation at 15 and 150 minutes), daily and "
                  "weekly cycles, and the Hurst parameter (variance-time, R/S, periodogram, average)");
  cmd->add_option("TRACE", opt->path, "SWF log (plain or gzip; - for standard input)")->required();
  cmd->add_flag("--no-hurst", opt->no_hurst, "skip the self-similarity estimates");
  cmd->add_option("--csv", opt->csv, "write the result table as CSV (- = standard output)");
  cmd->add_option("--series-csv", opt->series_csv, "write one binned series as CSV (see --series, --bin)");
  cmd->add_option("--series", opt->series, "series for --series-csv: runtime|procs|cpu|interarrival|jobs")
      ->capture_default_str();
  cmd->add_option("--bin", opt->bin, "bin width for --series-csv")->capture_default_str();
  cmd->add_flag("--json", opt->json, "print one JSON document");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted) instead of failing");
  cmd->callback([opt] { run_temporal(*opt); });
}

}  // namespace schedlab::cli
