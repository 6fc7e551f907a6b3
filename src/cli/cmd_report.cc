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
  SimCliOptions sim;  // simulate's workload and simulation options, for the schedules
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
    apply_sim_options(opt.sim, ro.workload, ro.sim);
    ro.threads = opt.threads;
    ro.class_limits = *job_class_limits({.by_class = true, .limits = opt.class_limits});  // its charts are always drawn
    Progress progress("report: schedules", "jobs", 2.0, false);  // summed over the schedulers
    ro.sim.progress = [&progress](size_t done, size_t total) { progress.update(done, total); };
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
  // simulate's, for the schedules: the workload sections show the log as it is (but at --procs).
  const std::string warmup_help =
      "leave the first fraction of terminated jobs out of the summary table, the wait CDF and the by-class charts "
      "(default 0)";
  for (CLI::Option* o : add_sim_options(cmd, opt->sim, warmup_help)) o->excludes(sweep);
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
