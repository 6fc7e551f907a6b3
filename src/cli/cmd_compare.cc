// schedlab compare: several schedulers on one log, compared period by period (Talby §7.2).
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_util.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/sim_options.h"
#include "cli/read_input.h"
#include "cli/text_util.h"
#include "schedlab/base/duration.h"
#include "schedlab/base/json_text.h"
#include "schedlab/base/params.h"
#include "schedlab/experiments/compare.h"
#include "schedlab/experiments/simulation.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"
#include "schedlab/trace/log_time.h"

namespace schedlab::cli {

namespace {

struct CompareArgs {
  std::string trace;
  std::string schedulers = "easy,conservative,flex,maui";
  std::string predictor;
  std::string correction;
  SimCliOptions sim;
  std::string period = "30d";
  std::string baseline;
  int threads = 0;
  bool json = false;
  std::string csv;
  JobClassCliOptions classes;
};

std::string signed_percent(double x) { return std::isnan(x) ? "n/a" : fmt::format("{:+.0f}%", 100.0 * x); }

void print_text(const CompareArgs& a, const experiments::CompareResult& r, const swf::Header& header) {
  using experiments::CompareMetric;
  const size_t n = r.names.size();
  const std::string of_records =
      static_cast<int64_t>(r.jobs) != r.records ? " of " + counted(r.records, "record") : std::string();
  fmt::print("trace      {}\nmachine    {}, {}{}, {} of {}\n", a.trace, counted(r.procs, "processor"),
             counted(static_cast<int64_t>(r.jobs), "job"), of_records,
             counted(static_cast<int64_t>(r.periods.size()), "period"),
             // Periods are days or weeks as a rule (the default 30d read "720h").
             r.spec.period % 86400 == 0 ? fmt::format("{}d", r.spec.period / 86400) : base::format_duration(r.spec.period));
  // The predictor each scheduler ran with (a preset has its own): two comparisons under different predictors
  // printed alike.
  std::string predictors;
  for (size_t s = 0; s < n; ++s)
    if (r.results[s].predictor != r.results[0].predictor) predictors = "differ";
  if (predictors.empty()) {
    predictors = r.results[0].predictor;
  } else {
    predictors.clear();
    for (size_t s = 0; s < n; ++s)
      predictors += fmt::format("{}{} with {}", s == 0 ? "" : "; ", r.names[s], r.results[s].predictor);
  }
  fmt::print("predictor  {}\n", predictors);
  for (const auto& note : r.notes) fmt::print("note       {}\n", note);  // what was left out or changed
  // The averages' settings when they are not the defaults: the whole-log means and the periods' differ in their jobs.
  if (const int64_t warmup = r.results.front().metrics.warmup_excluded; warmup > 0)
    fmt::print("warm-up    the first {} to end, left out of the whole-log means (the period means keep them)\n",
               counted(warmup, "job"));
  if (r.spec.sim.bsld_tau != 10) fmt::print("bsld tau   {} s\n", r.spec.sim.bsld_tau);
  fmt::print("baseline   {}\n\n", r.names[r.baseline]);
  size_t width = 12;
  for (const auto& s : r.names) width = std::max(width, s.size() + 2);
  // "won": the periods won alone, "+k" the periods where the lowest mean was shared with another.
  const auto won = [&r](CompareMetric m) {
    const auto alone = r.wins(m), shared = r.shared_wins(m);
    std::vector<std::string> out;
    for (size_t s = 0; s < alone.size(); ++s)
      out.push_back(shared[s] == 0 ? fmt::format("{}", alone[s]) : fmt::format("{}+{}", alone[s], shared[s]));
    return out;
  };
  const auto won_wait = won(CompareMetric::kWait);
  const auto won_bsld = won(CompareMetric::kBoundedSlowdown);
  size_t won_width = 8;  // wider for many short periods ("24693+3234")
  for (const auto& w : won_wait) won_width = std::max(won_width, w.size() + 1);
  for (const auto& w : won_bsld) won_width = std::max(won_width, w.size() + 1);
  fmt::print("{:<{}} {:>10} {:>{}} {:>8} {:>9} {:>9} {:>{}} {:>8} {:>9} {:>9} {:>7}\n", "scheduler", width, "wait (s)",
             "won", won_width, "perf", "stability", "bsld", "won", won_width, "perf", "stability", "util", "lost");
  for (size_t s = 0; s < n; ++s) {
    fmt::print("{:<{}} {:>10.0f} {:>{}} {:>8} {:>9} {:>9.1f} {:>{}} {:>8} {:>9} {:>9.4f} {:>7.4f}\n", r.names[s], width,
               r.whole(CompareMetric::kWait, s), won_wait[s], won_width,
               signed_percent(r.performance_gain(CompareMetric::kWait, s)),
               signed_percent(r.stability_gain(CompareMetric::kWait, s)),
               r.whole(CompareMetric::kBoundedSlowdown, s), won_bsld[s], won_width,
               signed_percent(r.performance_gain(CompareMetric::kBoundedSlowdown, s)),
               signed_percent(r.stability_gain(CompareMetric::kBoundedSlowdown, s)), r.results[s].metrics.utilization,
               r.results[s].loss_of_capacity());
  }
  fmt::print("(won: periods with the lowest mean, +k: those where another had the same; perf, "
             "stability: gains over {} in the whole-log mean and in the standard deviation of the period means; "
             "lost: loss of capacity, processors idle while jobs waited)\n",
             r.names[r.baseline]);
  if (!r.by_class.empty()) {
    // Who gains and who pays: each class's mean wait and bounded slowdown under each scheduler.
    const sim::JobClassLimits& limits = *r.spec.by_class;
    fmt::print("\nmean wait (s) and bounded slowdown by job class (short: runtime <= {}, narrow: <= {}; "
               "share of the jobs)\n{:<{}}",
               base::format_duration(limits.short_runtime), counted(limits.narrow_procs, "processor"), "scheduler",
               width);
    for (const sim::JobClassMetrics& c : r.by_class[0])
      fmt::print(" {:>22}", fmt::format("{} ({:.0f}%)", c.name, 100 * c.share));
    fmt::print("\n");
    for (size_t s = 0; s < n; ++s) {
      fmt::print("{:<{}}", r.names[s], width);
      for (const sim::JobClassMetrics& c : r.by_class[s]) fmt::print(" {:>12.0f} {:>9.2f}", c.wait_mean, c.bounded_slowdown_mean);
      fmt::print("\n");
    }
  }

  // With one scheduler there is no pair: the section would be a heading over nothing.
  if (n > 1)
    fmt::print("\nwait gaps between two schedulers (periods won, mean and largest gap over the winner's mean wait, "
               "over the periods where the winner waited at all)\n");
  for (size_t x = 0; x < n; ++x) {
    for (size_t y = x + 1; y < n; ++y) {
      const auto g = r.gaps(x, y);
      const auto gap_text = [](const std::string& name, const experiments::CompareResult::Gap& gap) {
        if (gap.gap_periods == 0) return fmt::format("{} wins {}", name, gap.periods);
        const std::string over = gap.gap_periods == gap.periods ? "" : fmt::format(" over {}", gap.gap_periods);
        return fmt::format("{} wins {} ({} mean, {} max{})", name, gap.periods, signed_percent(gap.mean),
                           signed_percent(gap.max), over);
      };
      fmt::print("  {} vs {}: {}, {}{}\n", r.names[x], r.names[y], gap_text(r.names[x], g.a), gap_text(r.names[y], g.b),
                 g.tied == 0 ? "" : fmt::format(", equal in {}", g.tied));
    }
  }

  // A period's start as a date in the log's time zone (with the time of day for periods shorter than a day, to the
  // second under an hour), where the header says when the log began; seconds from its start otherwise (the JSON
  // and CSV keep the seconds).
  const auto start_text = [&](int64_t t) {
    const std::optional<std::string> d = trace::format_log_time_if_known(t, header);
    if (!d) return std::to_string(t);
    return d->substr(0, r.spec.period >= 86400 ? 10 : r.spec.period >= 3600 ? 16 : 19);
  };
  size_t start_width = 11;
  for (const auto& period : r.periods) start_width = std::max(start_width, start_text(period.start).size());
  fmt::print("\nmean wait (s) and bounded slowdown per period\n{:<7} {:<{}} {:>7}", "period", "start", start_width,
             "jobs");
  for (const auto& s : r.names) fmt::print(" {:>{}}", s.substr(0, 20), 22);
  fmt::print("\n");
  for (size_t p = 0; p < r.periods.size(); ++p) {
    fmt::print("{:<7} {:<{}} {:>7}", r.periods[p].index, start_text(r.periods[p].start), start_width,
               r.periods[p].jobs);
    for (size_t s = 0; s < n; ++s) {
      fmt::print(" {:>13.0f} {:>8.1f}", r.period_means[0][s][p], r.period_means[1][s][p]);
    }
    fmt::print("\n");
  }

  for (size_t s = 0; s < n; ++s) {
    if (s == r.baseline) continue;
    fmt::print("\ncorrelation of period attributes with the wait difference {} - {} (absolute, relative)\n",
               r.names[s], r.names[r.baseline]);
    const auto c = r.correlations(s);
    for (size_t i = 0; i < c.size(); ++i) {
      auto f = [](double x) { return std::isnan(x) ? std::string("n/a") : fmt::format("{:+.2f}", x); };
      fmt::print("  {:<22} {:>6} {:>6}\n", experiments::period_attribute_names()[i], f(c[i].first), f(c[i].second));
    }
  }
}

void run(const CompareArgs& a) {
  check_one_stdout_document(a.json, a.csv);  // one document on standard output
  check_no_report_options("--csv", a.csv,
                          {{"--by-class", a.classes.by_class},
                           {"--class-limits", !a.classes.limits.empty()},
                           {"--baseline", !a.baseline.empty()}});
  experiments::CompareSpec spec;
  spec.schedulers = base::parse_spec_list(a.schedulers, "scheduler");
  spec.predictor = a.predictor;
  spec.correction = a.correction;
  apply_sim_options(a.sim, spec.workload, spec.sim);
  const std::optional<int64_t> period = base::parse_duration(a.period);
  if (!period || *period <= 0) {
    throw std::invalid_argument(fmt::format("compare: --period '{}' is not a positive duration (e.g. 30d, 12h, 3600)", a.period));
  }
  spec.period = *period;
  spec.baseline = a.baseline;
  spec.threads = a.threads;
  spec.by_class = job_class_limits(a.classes);
  swf::check_output_is_not_input(a.csv, {a.trace});
  Progress progress("compare", "jobs", 2.0, false);  // summed over the schedulers
  spec.sim.progress = [&progress](size_t done, size_t total) { progress.update(done, total); };
  const swf::Log log = read_input_log(a.trace);
  const experiments::CompareResult r = experiments::run_compare(spec, log);
  progress.finish();
  for (const std::string& w : r.warnings) fmt::print(stderr, "schedlab: warning: {}\n", w);
  if (!a.csv.empty()) swf::write_text_file(a.csv, experiments::compare_csv(r));
  if (a.csv == "-") return;  // the CSV is the output (the report followed it there)
  if (a.json) {
    nlohmann::json doc = experiments::to_json(r);
    doc["trace"] = a.trace;
    fmt::print("{}\n", base::json_text(doc, 2));
  } else {
    print_text(a, r, log.header);
  }
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* cmd = app.add_subcommand("compare", "Several schedulers on one log, compared period by period (Talby §7.2)");
  cmd->add_option("TRACE", args->trace, kLogInputHelp)->required();
  cmd->add_option("--schedulers,-s", args->schedulers,
                  "scheduler specs or presets, comma-separated or the option repeated; a spec with parameters in "
                  "brackets (default: easy,conservative,flex,maui)")
      ->join(',');  // -s easy -s flex = -s easy,flex (it was refused with "At Most 1 required but received 2")
  cmd->add_option("--predictor,-p", args->predictor, "runtime predictor spec for every scheduler (default: estimate)");
  cmd->add_option("--correction", args->correction, "prediction correction: none, tsafrir, double, times10");
  add_sim_options(cmd, args->sim,
                  "leave the first fraction of terminated jobs out of the whole-log averages (default 0)");
  cmd->add_option("--period", args->period, "period length: seconds or a duration (30d, 12h, 1w; default 30d)");
  cmd->add_option("--baseline", args->baseline, "the scheduler gains are measured against (default: the last listed)");
  cmd->add_option("--threads", args->threads, "simulations run in parallel (default: the machine's cores)");
  add_job_class_options(cmd, args->classes);
  cmd->add_flag("--json", args->json, "print one JSON document");
  cmd->add_option("--csv", args->csv, "write the per-period table (attributes, means, deviations) as CSV");
  cmd->callback([args]() { run(*args); });
}

}  // namespace schedlab::cli
