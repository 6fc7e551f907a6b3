// schedlab analyze distance A B: how close two logs' job distributions are (analysis/log_distance.h).
#include <cmath>
#include <memory>
#include <string>
#include <tuple>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_commands.h"
#include "cli/analyze_util.h"
#include "cli/text_util.h"
#include "schedlab/analysis/log_distance.h"
#include "schedlab/base/count_text.h"
#include "schedlab/base/json_text.h"
#include "schedlab/experiments/distance_report.h"

namespace schedlab::cli {
namespace {

struct DistanceCliOptions {
  std::string a, b;
  bool json = false, skip_invalid = false;
};

std::string value(double v) {
  if (std::isnan(v)) return "n/a";
  return std::fabs(v) >= 100 || v == std::floor(v) ? fmt::format("{:.0f}", v) : fmt::format("{:.4g}", v);
}

void run_distance(const DistanceCliOptions& opt) {
  const swf::Log a = read_log_for_analysis(opt.a, opt.skip_invalid);
  const swf::Log b = read_log_for_analysis(opt.b, opt.skip_invalid);
  const analysis::LogDistance d = analysis::log_distance(a, b);
  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "analyze distance";
    j["a_path"] = opt.a;
    j["b_path"] = opt.b;
    j.update(experiments::to_json(d));
    fmt::print("{}\n", base::json_text(j, 2));
    return;
  }
  // "(100 processors)", and the records in no distribution: "; 1,499 of 28,489 records without a submit time".
  const auto log_line = [](const char* name, const std::string& path, int64_t procs, int64_t records,
                           int64_t unknown_submit) {
    return fmt::format("{}: {} ({}{})\n", name, path, base::counted(procs, "processor"),
                       unknown_submit == 0 ? ""
                                           : fmt::format("; {} of {} without a submit time left out",
                                                         group_thousands(unknown_submit),
                                                         counted_grouped(records, "record")));
  };
  std::string out = log_line("A", opt.a, d.procs_a, d.records_a, d.unknown_submit_a) +
                    log_line("B", opt.b, d.procs_b, d.records_b, d.unknown_submit_b) + "\n";
  // The jobs each attribute is known for (a job of unknown runtime or size is left out of that attribute's
  // distribution; the text showed no count, so a log with gaps compared as if whole).
  out += fmt::format("{:<14}{:>10}{:>10}{:>12}{:>12}{:>8}\n", "attribute", "jobs A", "jobs B", "median A", "median B",
                     "KS");
  for (const auto& x : d.attributes)
    out += fmt::format("{:<14}{:>10}{:>10}{:>12}{:>12}{:>8}\n", analysis::attribute_name(x.attribute),
                       group_thousands(x.count_a), group_thousands(x.count_b), value(x.median_a), value(x.median_b),
                       std::isnan(x.ks) ? "n/a" : fmt::format("{:.3f}", x.ks));
  const auto fixed = [](double v, int digits) { return std::isfinite(v) ? fmt::format("{:.{}f}", v, digits) : "n/a"; };
  out += fmt::format("{:<34}{:>12}{:>12}\n", "jobs/day", fixed(d.jobs_per_day_a, 1), fixed(d.jobs_per_day_b, 1));
  out += fmt::format("{:<34}{:>12}{:>12}\n", "offered load", fixed(d.load_a, 3), fixed(d.load_b, 3));
  // The runtime stands in for a missing estimate (the project's convention): said, since a log without estimates
  // then compares its runtimes with the other's estimates.
  const analysis::AttributeDistance& est = d.attributes[static_cast<size_t>(analysis::Attribute::kEstimate)];
  for (const auto& [name, without, jobs] : {std::tuple{"A", est.estimate_from_runtime_a, est.count_a},
                                            std::tuple{"B", est.estimate_from_runtime_b, est.count_b}})
    if (without > 0)
      out += fmt::format("\nestimate: {} of {}'s {} {} no estimate (field 9): their runtime stands in{}",
                         group_thousands(without), name, counted_grouped(jobs, "job"),
                         base::noun(without, "has", "have"),
                         without == jobs ? ", so its estimates are its runtimes" : "");
  if (est.estimate_from_runtime_a > 0 || est.estimate_from_runtime_b > 0) out += "\n";
  out += "\nKS: two-sample Kolmogorov-Smirnov statistic (0 = the same distribution, 1 = disjoint); procs and cpu as "
         "fractions of each machine's size.\n";
  fmt::print("{}", out);
}

}  // namespace

void add_analyze_distance(CLI::App& analyze) {
  auto opt = std::make_shared<DistanceCliOptions>();
  CLI::App* cmd = analyze.add_subcommand(
      "distance", "How close two logs' job distributions are (a synthetic workload beside the real log it models): "
                  "Kolmogorov-Smirnov distance and medians of runtime, size, CPU work, estimate and inter-arrival, "
                  "jobs per day and offered load");
  cmd->add_option("A", opt->a, "the first log (SWF, or CSV for a .csv or .csv.gz name)")->required();
  cmd->add_option("B", opt->b, "the second log")->required();
  cmd->add_flag("--json", opt->json, "print one JSON document");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  cmd->callback([opt] { run_distance(*opt); });
}

}  // namespace schedlab::cli
