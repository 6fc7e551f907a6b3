// schedlab categorize TRACE: job-weighted mean and C.V. of the run time per category key (Gibbons 1997,
// Tables 3.1/3.2; analysis/categories.h).
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
#include "schedlab/base/json_text.h"
#include "schedlab/experiments/categorize_report.h"
#include "cli/text_util.h"
#include "schedlab/analysis/categories.h"

namespace schedlab::cli {
namespace {

struct CategorizeCliOptions {
  std::string path, parallelism = "exact", groups;
  int64_t min_jobs = 6, max_jobs = 0, top = 20;
  bool json = false, skip_invalid = false;
};

// The key's field values of a group, e.g. "exe 12, user 7, size 16" ("size 9-16" for a log2 bucket).
std::string group_label(const analysis::CategoryGroup& g, bool log2_buckets) {
  std::vector<std::string> parts;
  if (g.executable >= 0) parts.push_back(fmt::format("exe {}", g.executable));
  if (g.user >= 0) parts.push_back(fmt::format("user {}", g.user));
  if (g.queue >= 0) parts.push_back(fmt::format("queue {}", g.queue));
  if (g.parallelism > 2 && log2_buckets)
    parts.push_back(fmt::format("size {}-{}", g.parallelism / 2 + 1, g.parallelism));
  else if (g.parallelism >= 0)
    parts.push_back(fmt::format("size {}", g.parallelism));
  if (parts.empty()) return "all jobs";
  std::string out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) out += ", " + parts[i];
  return out;
}

void run_categorize(const CategorizeCliOptions& opt) {
  analysis::CategorizeOptions co;
  co.min_group_jobs = opt.min_jobs;
  co.max_group_jobs = opt.max_jobs;
  co.parallelism = analysis::parse_parallelism_bucket(opt.parallelism).value();  // (CLI checked the names)
  analysis::check_group_listing(opt.top);  // the options before the log is read
  analysis::check_categorize_options(co);
  std::optional<analysis::CategoryKey> list_key;
  if (!opt.groups.empty()) list_key = analysis::parse_category_key(opt.groups).value();
  const swf::Log log = read_log_for_analysis(opt.path, opt.skip_invalid);
  const analysis::Categorization c = analysis::categorize(log.records, co);
  const auto lowest = c.lowest_cv();

  if (opt.json) {
    nlohmann::ordered_json j;
    j["command"] = "categorize";
    j["path"] = opt.path;
    j.update(experiments::to_json(c, list_key, opt.top));
    fmt::print("{}\n", base::json_text(j, 2));
    return;
  }

  std::string out = fmt::format("categorize {}: run time (field 4) per category, {}\n", opt.path,
                                counted_grouped(c.records, "record"));
  out += fmt::format("groups of >= {} jobs{}; C.V. = sample sd / mean per group; weights = jobs per group\n\n",
                     co.min_group_jobs, co.max_group_jobs > 0 ? fmt::format(" and <= {}", co.max_group_jobs) : "");
  out += fmt::format("{:<28} {:>8} {:>10} {:>7} {:>11} {:>8}\n", "key", "groups", "jobs", "share", "mean (s)",
                     "C.V.");
  const auto share = [&](int64_t n) {
    return c.records > 0 ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(n) / static_cast<double>(c.records))
                         : std::string("-");
  };
  for (const auto& r : c.keys) {
    std::string name(analysis::category_key_name(r.key));
    if (r.key == analysis::CategoryKey::kParallelism && co.parallelism == analysis::ParallelismBucket::kLog2)
      name += " (log2)";
    out += fmt::format("{:<28} {:>8} {:>10} {:>7} {:>11} {:>8}\n", name, group_thousands(r.groups),
                       group_thousands(r.jobs), share(r.jobs),
                       r.groups > 0 ? group_thousands(std::llround(r.mean_runtime)) : "-",
                       r.groups > 0 ? fmt::format("{:.2f}", r.weighted_cv) : "-");
  }
  out += lowest ? fmt::format("lowest weighted C.V.: {} ({:.2f})\n", analysis::category_key_name(*lowest),
                              c[*lowest].weighted_cv)
                : "no key has a group\n";
  out += "\njobs left out:\n";
  for (const auto& r : c.keys) {
    std::string reasons;
    for (int e = 0; e < analysis::kCategoryExclusionKinds; ++e) {
      const int64_t n = r.excluded[static_cast<size_t>(e)];
      if (n == 0) continue;
      if (!reasons.empty()) reasons += ", ";
      reasons += fmt::format("{} {}", analysis::category_exclusion_name(static_cast<analysis::CategoryExclusion>(e)),
                             group_thousands(n));
    }
    out += fmt::format("  {:<28} {}\n", analysis::category_key_name(r.key), reasons.empty() ? "none" : reasons);
  }
  if (list_key) {
    const auto& r = c[*list_key];
    const auto list = analysis::largest_groups(r, opt.top);
    out += fmt::format("\ngroups of {} ({} of {}, most jobs first):\n", analysis::category_key_name(*list_key),
                       list.size(), r.groups);
    // An empty table under its header read as if the listing had failed: say that every job was left out.
    if (list.empty()) {
      out += "  none: no group kept (the jobs left out are counted above)\n";
      fmt::print("{}", out);
      return;
    }
    out += fmt::format("  {:<34} {:>8} {:>11} {:>8}\n", "group", "jobs", "mean (s)", "C.V.");
    for (const auto& g : list)
      out += fmt::format("  {:<34} {:>8} {:>11} {:>8.2f}\n", group_label(g, co.parallelism == analysis::ParallelismBucket::kLog2), group_thousands(g.jobs),
                         group_thousands(std::llround(g.mean)), g.cv);
  }
  fmt::print("{}", out);
}

}  // namespace

void add_categorize_command(CLI::App& app) {
  auto opt = std::make_shared<CategorizeCliOptions>();
  CLI::App* cmd = app.add_subcommand("categorize", "Mean and C.V. of the run time per category key (Gibbons 1997)");
  cmd->footer("Job-weighted mean and coefficient of variation of the run time per category key: system, user, queue, "
              "parallelism, executable, executable+user+parallelism (Gibbons 1997, Tables 3.1/3.2).");
  cmd->add_option("TRACE", opt->path, kLogInputHelp)->required();
  cmd->add_option("--min-jobs", opt->min_jobs, "leave out groups with fewer jobs (>= 2; the thesis: more than five)")
      ->capture_default_str();
  cmd->add_option("--max-jobs", opt->max_jobs, "leave out groups with more jobs (0 = no limit)")
      ->capture_default_str();
  cmd->add_option("--parallelism", opt->parallelism,
                  "exact: one group per size; log2: the profiler's buckets {1},{2},{3-4},{5-8},...")
      ->check(CLI::IsMember(analysis::parallelism_bucket_names()))
      ->capture_default_str();
  cmd->add_option("--groups", opt->groups, "also list the groups of this key")
      ->check(CLI::IsMember(analysis::category_key_names()));
  cmd->add_option("--top", opt->top, "groups listed with --groups, most jobs first (0 = all)")->capture_default_str();
  cmd->add_flag("--json", opt->json, "print one JSON document");
  cmd->add_flag("--skip-invalid", opt->skip_invalid, "skip malformed records (counted by reason) instead of failing");
  cmd->callback([opt] { run_categorize(*opt); });
}

}  // namespace schedlab::cli
