// schedlab report LOG -o report.html | schedlab report --sweep results.csv -o sweep.html: one self-contained HTML
// page of plots (experiments/report.h; docs/report.md).
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/data_files.h"
#include "cli/progress.h"
#include "cli/read_input.h"
#include "cli/sim_options.h"
#include "cli/text_util.h"
#include "schedlab/base/params.h"
#include "schedlab/experiments/report.h"
#include "schedlab/swf/csv.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"

namespace schedlab::cli {
namespace {

struct ReportCliOptions {
  std::string log, sweep, output, schedulers = "easy,conservative", predictor, correction, metric = "wait_mean", x,
      title, class_limits;
  std::optional<int64_t> procs;
  std::optional<double> load;
  double arrival_scale = 1.0;
  bool feedback = false;
  bool kill_at_estimate = false;
  bool extend_estimates = false;
  int threads = 0;
};

// The vendored plotting libraries, shipped beside the binary (cli/data_files.h).
std::string libraries() { return experiments::read_report_libraries(data_file("report-libs.js")); }

void run_report(const ReportCliOptions& opt) {
  // Neither or both is a usage error (exit 2, with the pointer to --help), not bad input.
  if (opt.log.empty() == opt.sweep.empty())
    throw CLI::ArgumentMismatch("give a LOG or --sweep results.csv (one of them)", CLI::ExitCodes::ArgumentMismatch);
  swf::check_output_is_not_input(opt.output, {opt.log, opt.sweep});
  const auto t0 = std::chrono::steady_clock::now();
  nlohmann::json data;
  if (!opt.sweep.empty()) {
    data = experiments::sweep_report_data(swf::read_text(opt.sweep), opt.sweep == "-" ? "<stdin>" : opt.sweep,
                                          opt.metric, opt.x);
    if (!opt.title.empty()) data["title"] = opt.title;
    for (const auto& w : data["warnings"]) fmt::print(stderr, "schedlab: warning: {}\n", w.get<std::string>());
  } else {
    experiments::ReportOptions ro;
    ro.title = !opt.title.empty() ? opt.title : opt.log == "-" ? "<stdin>" : opt.log;
    ro.schedulers = base::parse_spec_list(opt.schedulers, "scheduler");
    ro.predictor = opt.predictor;
    ro.correction = opt.correction;
    ro.workload = {.procs = opt.procs,
                   .kill_at_estimate = opt.kill_at_estimate,
                   .extend_estimates = opt.extend_estimates,
                   .load = opt.load,
                   .arrival_scale = opt.arrival_scale,
                   .feedback = opt.feedback};
    ro.threads = opt.threads;
    ro.class_limits = *job_class_limits({.by_class = true, .limits = opt.class_limits});  // its charts are always drawn
    Progress progress("report: schedules", "jobs", 2.0, false);  // summed over the schedulers
    ro.progress = [&progress](size_t done, size_t total) { progress.update(done, total); };
    data = experiments::report_data(read_input_log(opt.log), ro);
    progress.finish();
    for (const auto& w : data["scheduling"]["warnings"]) fmt::print(stderr, "schedlab: warning: {}\n", w.get<std::string>());
  }
  const std::string page = experiments::render_report(data, libraries());
  swf::write_text_file(opt.output, page);
  fmt::print("{}: {:.1f} MB, wall time {:.1f} s\n", opt.output, static_cast<double>(page.size()) / 1e6,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto opt = std::make_shared<ReportCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "report", "One self-contained HTML page of plots of a log and its schedules, or of a sweep's results");
  cmd->footer("A log's page: the workload (cycles, distributions, estimates, locality, users, sessions, flurries) and "
              "its schedules (waits, queue, utilization, per-month deviations). --sweep: a metric against a "
              "parameter. docs/report.md");
  cmd->add_option("LOG", opt->log, kLogInputHelp);
  CLI::Option* sweep =
      cmd->add_option("--sweep", opt->sweep, "a sweep's results (CSV of schedlab sweep) instead of a log");
  cmd->add_option("-o,--output", opt->output, "the HTML page")->required();
  cmd->add_option("--title", opt->title, "the page's title (default: the path of the log or of the results)");
  // The options of one kind of page are refused with the other (they were ignored without a word).
  cmd->add_option("-s,--schedulers", opt->schedulers, "schedulers to simulate, comma-separated or the option repeated")
      ->capture_default_str()
      ->join(',')
      ->excludes(sweep);
  cmd->add_option("-p,--predictor", opt->predictor, "runtime predictor spec (default: estimate)")->excludes(sweep);
  cmd->add_option("--correction", opt->correction, "prediction correction: none, tsafrir, double, times10")
      ->excludes(sweep);
  cmd->add_option("--procs", opt->procs, "machine size (default: the log's)")->excludes(sweep);
  // What-if at another load, as simulate's --load and --arrival-scale: the schedules only.
  auto* load = cmd->add_option("--load", opt->load, "simulate at this offered load (inter-arrival times scaled)")
                   ->excludes(sweep);
  cmd->add_option("--arrival-scale", opt->arrival_scale, "simulate with inter-arrival times multiplied by F")
      ->excludes(sweep)
      ->excludes(load);
  cmd->add_flag("--feedback", opt->feedback,
                "simulate with feedback: a job that names a preceding job (SWF fields 17-18) is submitted its think "
                "time after that job ends")
      ->excludes(sweep);
  cmd->add_flag("--kill-at-estimate", opt->kill_at_estimate, "simulate with jobs cut at their user estimate")
      ->excludes(sweep);
  cmd->add_flag("--extend-estimates", opt->extend_estimates,
                "simulate with the estimate of jobs that ran longer than it raised to their runtime")
      ->excludes(sweep);
  cmd->add_option("--metric", opt->metric, "--sweep: the metric column plotted")->capture_default_str()->needs(sweep);
  cmd->add_option("--x", opt->x, "--sweep: the parameter on the x axis (default: the first that varies)")
      ->needs(sweep);
  cmd->add_option("--class-limits", opt->class_limits,
                  "RUNTIME,PROCS of the charts by job class: short jobs run at most RUNTIME, narrow ones use at most "
                  "PROCS (default 1h,8)")
      ->excludes(sweep);
  cmd->add_option("--threads", opt->threads, "parallel simulations (0 = all cores)")
      ->capture_default_str()
      ->excludes(sweep);
  cmd->callback([opt] { run_report(*opt); });
}

}  // namespace schedlab::cli
