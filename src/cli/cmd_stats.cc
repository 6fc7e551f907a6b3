// schedlab stats TRACE [--json] [--procs N] [--skip-invalid]: a summary of a log (analysis::summarize).
#include <cmath>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/text_util.h"
#include "cli/read_input.h"
#include "schedlab/analysis/summary.h"
#include "schedlab/base/count_text.h"
#include "schedlab/base/duration.h"
#include "schedlab/base/json_text.h"
#include "schedlab/experiments/log_summary.h"
#include "schedlab/swf/reader.h"
#include "schedlab/trace/log_time.h"

namespace schedlab::cli {
namespace {

using analysis::Distribution;
using analysis::Summary;

struct StatsOptions {
  std::string path;
  bool json = false;
  bool skip_invalid = false;
  std::string procs;
};


// ---- text ----

// A number for the report: "-" for NaN, integers grouped by thousands, else `decimals` places.
std::string num(double v, int decimals) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return group_thousands(static_cast<int64_t>(v));
  const std::string fixed = fmt::format("{:.{}f}", std::fabs(v), decimals);
  const size_t dot = fixed.find('.');
  const std::string grouped = group_thousands(std::stoll(fixed.substr(0, dot)));
  return (v < 0 ? "-" : "") + grouped + (dot == std::string::npos ? "" : fixed.substr(dot));
}

std::string count(int64_t n) { return group_thousands(n); }

// A share as a percentage; a share that is not 0 (or 1) never shows as 0.0% (or 100.0%).
std::string percent(double share) {
  if (std::isnan(share)) return "-";
  if (share > 0 && share < 0.0005) return "<0.1%";
  if (share < 1 && share > 0.9995) return ">99.9%";
  return fmt::format("{:.1f}%", 100.0 * share);
}

std::string count_of(int64_t n, int64_t total) {
  return total > 0 ? fmt::format("{} ({})", count(n), percent(static_cast<double>(n) / static_cast<double>(total)))
                   : count(n);
}

void line(std::string& out, std::string_view label, const std::string& value) {
  out += fmt::format("  {:<36}{}\n", label, value);
}

void distribution_table(std::string& out, const Summary& s) {
  struct Column {
    std::string title;
    const Distribution* d;
    int decimals;
  };
  const std::vector<Column> columns = {{"runtime [s]", &s.runtime, 1},          {"size [procs]", &s.size, 1},
                                       {"estimate [s]", &s.estimate, 1},        {"interarrival [s]", &s.interarrival, 1},
                                       {"wait [s]", &s.wait, 1},                {"runtime/estimate", &s.accuracy, 3}};
  struct Row {
    std::string name;
    double Distribution::*field;
  };
  const std::vector<Row> rows = {{"min", &Distribution::min},       {"p10", &Distribution::p10},
                                 {"p25", &Distribution::p25},       {"median", &Distribution::median},
                                 {"p75", &Distribution::p75},       {"p90", &Distribution::p90},
                                 {"p99", &Distribution::p99},       {"max", &Distribution::max},
                                 {"mean", &Distribution::mean},     {"cv", &Distribution::cv}};
  std::vector<std::vector<std::string>> cells(rows.size() + 1);
  for (const auto& c : columns) {
    cells[0].push_back(count(c.d->count));
    for (size_t r = 0; r < rows.size(); ++r)
      cells[r + 1].push_back(num(c.d->*rows[r].field, rows[r].name == "cv" ? 2 : c.decimals));
  }
  std::vector<size_t> width(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    width[c] = columns[c].title.size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  out += fmt::format("  {:<8}", "");
  for (size_t c = 0; c < columns.size(); ++c) out += fmt::format("  {:>{}}", columns[c].title, width[c]);
  out += '\n';
  for (size_t r = 0; r < cells.size(); ++r) {
    out += fmt::format("  {:<8}", r == 0 ? std::string("jobs") : rows[r - 1].name);
    for (size_t c = 0; c < columns.size(); ++c) out += fmt::format("  {:>{}}", cells[r][c], width[c]);
    out += '\n';
  }
}

std::string stats_text(const std::string& path, const swf::Header& header, const Summary& s) {
  std::string out;
  out += fmt::format("{}\n\n", path);

  out += "Jobs\n";
  line(out, "records", count(s.records));
  line(out, "machine size", fmt::format("{} (from {})", base::counted_grouped(s.machine.procs, "processor"),
                                        trace::machine_size_source_name(s.machine.source)));
  line(out, "valid jobs", count_of(s.valid_jobs, s.records));
  for (int i = 1; i < trace::kExclusionKinds; ++i)
    line(out, fmt::format("excluded: {}", trace::exclusion_name(static_cast<trace::Exclusion>(i))),
         count_of(s.excluded[static_cast<size_t>(i)], s.records));
  line(out, "without estimate", count_of(s.without_estimate, s.records));
  // Fields 17-18: what simulate --feedback would follow.
  line(out, "naming a preceding job", count_of(s.dependent, s.records));
  if (s.dependent > 0) {
    line(out, "  its job earlier in the log", count(s.preceding_earlier));
    line(out, "  with a think time", count(s.think_given));
  }

  out += "\nRead\n";
  line(out, "lines", count(s.read.lines));
  line(out, "header lines", count(s.read.header_lines));
  line(out, "header problems", count(static_cast<int64_t>(header.problems.size())));
  for (const std::string& p : header.problems) line(out, "  ignored", p);
  line(out, "fields with decimals", count(s.read.decimal_fields));
  line(out, "skipped lines", count(s.read.skipped_total()));
  for (const auto& [reason, n] : s.read.skipped) line(out, fmt::format("  skipped: {}", reason), count(n));
  // A preempted job's bursts (SWF status 2-4 after its summary line): not jobs of their own.
  const swf::WarningCount& partial = s.read.partial_executions;
  line(out, "partial-execution lines",
       partial.count > 0 ? fmt::format("{} (first at line {}; {})", count(partial.count), partial.first_line,
                                       s.read.partial_executions_kept ? "kept" : "left out: a job is its summary line")
                         : "0");
  for (int i = 0; i < swf::kWarningKinds; ++i) {
    const auto& w = s.read.warnings[static_cast<size_t>(i)];
    line(out, fmt::format("warning: {}", swf::warning_name(static_cast<swf::Warning>(i))),
         w.count > 0 ? fmt::format("{} (first at line {})", count(w.count), w.first_line) : "0");
  }

  out += "\nPopulation (distinct values, -1 ignored)\n";
  line(out, "users", count(s.users));
  line(out, "groups", count(s.groups));
  line(out, "executables", count(s.executables));
  line(out, "queues", count(s.queues));
  line(out, "partitions", count(s.partitions));

  out += "\nTime (seconds from the log start)\n";
  const auto stamp = [&](int64_t t) {
    if (s.submit_known == 0) return std::string("-");
    const auto date = trace::format_log_time_if_known(t, header);
    return date ? fmt::format("{}  ({})", count(t), *date) : count(t);
  };
  line(out, "first submit", stamp(s.first_submit));
  line(out, "last submit", stamp(s.last_submit));
  line(out, "span", fmt::format("{:.2f} days (last - first submit)", s.span_days));
  line(out, "jobs per day", num(s.jobs_per_day, 1));
  line(out, "offered load", std::isnan(s.offered_load)
                                ? std::string(s.valid_jobs == 0 ? "n/a (no valid job)" : "-")
                                : fmt::format("{:.3f} (valid jobs' size x runtime / (procs x their submit span))", s.offered_load));

  out += "\nDistributions (each over the jobs where the value is known; type-7 quantiles; cv = sd/mean)\n";
  distribution_table(out, s);

  out += "\nEstimates and sizes\n";
  line(out, "runtime > estimate",
       fmt::format("{} of {} with runtime and estimate", percent(s.runtime_over_estimate_share),
                   base::counted_grouped(s.accuracy.count, "job")));
  line(out, "distinct estimates", count(s.distinct_estimates));
  for (const auto& [share, values] : {std::pair{50, s.estimates_for_50}, std::pair{90, s.estimates_for_90}}) {
    line(out, fmt::format("popular estimates for {}%", share),
         fmt::format("{} {} {}% of jobs with an estimate", base::counted_grouped(values, "value"),
                     values == 1 ? "covers" : "cover", share));
  }
  if (const analysis::EstimateLimit& l = s.estimate_limit; l.value > 0) {
    // The largest estimate at least 1 in 2,000 jobs used: the site's limit, beside the few jobs above it.
    const double with_estimate = static_cast<double>(s.estimate.count);
    line(out, "estimate limit",
         fmt::format("{} ({} s), {} of jobs with an estimate; {}", base::format_duration(l.value), count(l.value),
                     percent(static_cast<double>(l.jobs) / with_estimate),
                     l.above == 0 ? std::string("none above it")
                                  : fmt::format("{} ({}) above it, up to {} s", count(l.above),
                                                percent(static_cast<double>(l.above) / with_estimate),
                                                count(s.largest_estimate))));
  }
  line(out, "power-of-two sizes", fmt::format("{} of {} with a size", percent(s.power_of_two_share),
                                              base::counted_grouped(s.size.count, "job")));
  return out;
}

void run_stats(const StatsOptions& opt) {
  std::optional<int64_t> procs;
  if (!opt.procs.empty()) procs = parse_int_option("--procs", opt.procs, 1, INT32_MAX);
  swf::ReadOptions read_options;
  read_options.skip_invalid = opt.skip_invalid;
  const swf::Log log = read_input_log(opt.path, read_options);
  const Summary s = analysis::summarize(log, procs);
  if (opt.json) {
    nlohmann::ordered_json j;
    j["path"] = opt.path;
    j.update(experiments::to_json(s, log.header));
    fmt::print("{}\n", base::json_text(j, 2));
  }
  else fmt::print("{}", stats_text(opt.path, log.header, s));
}

}  // namespace

void add_stats_command(CLI::App& app) {
  auto opt = std::make_shared<StatsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "stats", "Summarize a log: jobs, exclusions, users, load, distributions, estimate accuracy");
  cmd->footer("The jobs and those excluded (by reason), users, time span, offered load, distributions of runtime, "
              "size, estimate, inter-arrival and wait, estimate accuracy, and the reader's counts.");
  cmd->add_option("TRACE", opt->path, kLogInputHelp)->required();
  cmd->add_flag("--json", opt->json, "print one JSON document instead of the text report");
  cmd->add_option("--procs", opt->procs, "machine size (default: MaxProcs, else MaxNodes, else the largest job)")
      ->type_name("N");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  cmd->callback([opt] { run_stats(*opt); });
}

}  // namespace schedlab::cli
