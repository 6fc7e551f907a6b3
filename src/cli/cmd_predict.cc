// schedlab predict: replay a log's own schedule (logged submit, start = submit + wait, end = start + runtime;
// no scheduling) through a runtime predictor and report its accuracy (predict/replay.h, predict/accuracy.h).
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/analyze_util.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/read_input.h"
#include "cli/text_util.h"
#include "schedlab/base/json_text.h"
#include "schedlab/experiments/log_replay.h"
#include "schedlab/predict/registry.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"

namespace schedlab::cli {

namespace {

struct PredictArgs {
  std::string trace;
  std::string predictor{predict::kDefaultPredictor};
  std::string correction;
  std::optional<int64_t> procs;
  bool extend_estimates = false;
  double warmup_fraction = 0.0;
  uint64_t seed = 0;
  bool json = false;
  std::string jobs_out;
};

void run(const PredictArgs& a) {
  // One document on standard output: the per-job CSV there was followed by the report or the JSON.
  check_one_stdout_document(a.json, a.jobs_out);
  predict::PredictorConfig config{a.seed, {}};
  if (!a.correction.empty()) config.params.emplace("correction", a.correction);  // joins the spec's parameters
  const auto predictor = predict::make_predictor(a.predictor, config);
  swf::check_output_is_not_input(a.jobs_out, {a.trace});
  swf::Log log = read_input_log(a.trace);
  Progress progress("predict", "jobs", 2.0, false);  // shown on a terminal once a replay takes over 2 s
  const experiments::LogReplay r = experiments::replay_log(
      std::move(log), *predictor,
      {a.procs, a.extend_estimates, a.warmup_fraction,
       [&progress](size_t done, size_t total) { progress.update(done, total); }});
  progress.finish();
  for (const std::string& w : r.warnings) fmt::print(stderr, "schedlab: warning: {}\n", w);
  if (!a.jobs_out.empty()) experiments::write_log_replay_csv(a.jobs_out, r);
  if (a.jobs_out == "-") return;  // the CSV is the output
  if (a.json) {
    nlohmann::json doc = experiments::to_json(r);
    doc["trace"] = a.trace;
    fmt::print("{}\n", base::json_text(doc, 2));
    return;
  }
  const workload::Workload& w = r.workload;
  const auto& s = r.result.summary;
  fmt::print("trace        {}\n", a.trace);
  fmt::print("predictor    {}\n", r.predictor);
  fmt::print("jobs         {} replayed of {} records, {} excluded, {} without estimate, {} with unknown wait (0 used)\n",
             w.jobs.size(), w.records, w.excluded_total, w.without_estimate, r.unknown_wait);
  for (const auto& note : w.notes) fmt::print("note         {}\n", note);
  fmt::print("\naccuracy over {} jobs (time-weighted over each job's life; {} warm-up jobs excluded)\n", s.jobs,
             w.jobs.size() - static_cast<size_t>(s.jobs));
  fmt::print("{:<24} {:>14.1f} s (median {:.1f} s)\n", "absolute error, mean", s.mean_absolute_error,
             s.median_absolute_error);
  fmt::print("{:<24} {:>14.4f} (median {:.4f})\n", "relative accuracy, mean", s.mean_relative_accuracy,
             s.median_relative_accuracy);
  fmt::print("{:<24} {:>14.4f}\n", "underestimated share", s.underestimated_share);
  fmt::print("{:<24} {:>14.3f}\n", "predictions per job", s.mean_predictions);
  fmt::print("{:<24} {:>14}\n", "deadline misses", r.result.deadline_misses);
}

}  // namespace

void add_predict_command(CLI::App& app) {
  auto args = std::make_shared<PredictArgs>();
  CLI::App* cmd = app.add_subcommand(
      "predict", "Replay a log's own schedule through a runtime predictor and report its accuracy");
  cmd->add_option("TRACE", args->trace, kLogInputHelp)->required();
  cmd->add_option("--predictor,-p", args->predictor, "predictor spec NAME[:KEY=VALUE;...] (default: estimate)");
  cmd->add_option("--correction", args->correction, "none (default), tsafrir, double, times10");
  cmd->add_option("--procs", args->procs, "machine size (jobs larger are left out)");
  cmd->add_flag("--extend-estimates", args->extend_estimates, "raise estimates below the runtime to the runtime");
  cmd->add_option("--warmup-fraction", args->warmup_fraction, "leave the first fraction of terminated jobs out");
  cmd->add_option("--seed", args->seed, "random seed (default 0)");
  cmd->add_flag("--json", args->json, "print one JSON document");
  cmd->add_option("--jobs-out", args->jobs_out, "write per-job accuracy as CSV (\"-\" = standard output)");
  cmd->callback([args]() { run(*args); });
}

}  // namespace schedlab::cli
