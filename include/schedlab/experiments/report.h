// `schedlab report`: one self-contained HTML page with plots of a workload and of schedules (docs/report.md).
//
// report_data() computes every number the page shows — it is the library's, the page only draws it:
// - workload: the stats summary; jobs and offered load per time bin (the smallest of 1, 2, 3, 6, 12 h, 1, 2 days,
//   1, 2, 4 weeks giving at most 600 bins; load = runtime x size of the jobs submitted in the bin / (procs x bin)); jobs per hour of the day and per day of
//   the week in the log's local time (analysis::utc_offsets; UTC without UnixStartTime); log-binned histograms of
//   runtime, inter-arrival and estimate (4 bins per decade) and of size (powers of two); runtime / estimate
//   (0.05 bins, and > 1); the 10 most popular estimates; locality of sampling of the runtime per 3-day slice
//   against its bootstrap baseline (100 rounds); the 20 busiest users' share of the jobs; flurries; session and
//   user class shares (k-means, when the log has UnixStartTime).
// - scheduling (one run of experiments::run_compare over the schedulers): per scheduler the summary (wait,
//   response, bounded slowdown, utilization), the wait CDF (101 quantiles), the time-averaged queue length and
//   utilization per time bin, per-month mean wait and bounded slowdown with their deviation from the month's mean
//   over the schedulers (Talby's Figure 7), and prediction accuracy when a predictor is given.
// Times ("day") count from the log's time 0; "time_origin" is its UnixStartTime (null without one).
// render_report() puts the data and the plotting libraries (Vega, Vega-Lite, Vega-Embed, inlined) into one page
// that loads nothing else. Throws std::invalid_argument on an empty log, a log whose every job is excluded, or an
// unknown scheduler / predictor.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/sim/job_classes.h"
#include "schedlab/predict/predictor.h"
#include "schedlab/sim/result.h"
#include "schedlab/sim/scheduler.h"
#include "schedlab/swf/reader.h"
#include "schedlab/workload/workload.h"

namespace schedlab::experiments {

struct ReportOptions {
  std::string title;                                   // shown on the page (the log's name)
  std::vector<std::string> schedulers{"easy", "conservative"};
  std::string predictor;                               // empty: the default (estimate)
  std::string correction;                              // empty: none (predict/correction.h)
  // A predictor of the caller's own instead of `predictor` (SimulationSpec::predictor_object).
  std::shared_ptr<const predict::Predictor> predictor_object = {};
  // Policies of the caller's own among `schedulers` (CompareSpec::scheduler_objects).
  std::vector<std::shared_ptr<const sim::Scheduler>> scheduler_objects = {};
  // The simulations' options, as simulate's: the bounded-slowdown threshold, the warm-up, the seed of the scheduler
  // and predictor factories, the engine's invariant checks, and the progress (jobs ended, summed over the
  // schedulers, for a long report). The warm-up (the first fraction of jobs in termination order) is left out of
  // what averages or ranks jobs — the summary table, the wait CDF, the by-class charts, the prediction accuracy —
  // as out of simulate's; the queue and utilization timelines show the machine over the whole run (the utilization
  // counts every job in simulate too) and the per-month means are compare's, over every job of the month.
  sim::SimOptions sim;
  // The schedules' workload as simulate builds it: the machine size (also the workload sections'), another offered
  // load (a target load or a factor on the inter-arrival times), feedback, jobs cut at their estimate, estimates
  // raised to the runtime. The workload's sections show the log as it is.
  workload::WorkloadOptions workload;
  int locality_rounds = 100;
  sim::JobClassLimits class_limits = {};  // the job classes of the "by job class" charts (sim/job_classes.h)
  int threads = 0;
};

nlohmann::json report_data(const swf::Log& log, const ReportOptions& options);

// A sweep's results (the CSV of `schedlab sweep`): `metric` against the parameter `x`, one line per scheduler
// (Talby's Figure 9 kind of plot). Empty `x`: the first parameter column with more than one value besides
// scheduler. Throws std::invalid_argument on a CSV that is not a sweep's, an unknown column or an `x` that is not a
// parameter; an `x` with one value in every run is drawn and said in "warnings".
nlohmann::json sweep_report_data(const std::string& csv_text, const std::string& name, const std::string& metric,
                                 const std::string& x);

// The page: `data` (from report_data or sweep_report_data) and `libraries` (the JavaScript bundle) inlined.
std::string render_report(const nlohmann::json& data, const std::string& libraries);

// The JavaScript bundle the build vendors (scripts/vendor-js.sh, build/report/report-libs.js) read from `path`.
// Throws std::invalid_argument naming the path and how to build it when it is missing.
std::string read_report_libraries(const std::string& path);

}  // namespace schedlab::experiments
