// schedlab predict: replay a log's own schedule (logged submit, start = submit + wait, end = start + runtime;
// no scheduling) through a runtime predictor and report its accuracy (predict/replay.h, predict/accuracy.h).
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "schedlab/predict/registry.h"
#include "schedlab/predict/replay.h"
#include "schedlab/sim/workload.h"
#include "schedlab/swf/reader.h"


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

void write_jobs_csv(const std::string& path, const sim::Workload& w, const std::vector<int64_t>& start,
                    const predict::ReplayResult& r) {
  std::string out =
      "job_id,user,submit,start,end,runtime,estimate,initial_prediction,prediction_at_start,absolute_error,"
      "relative_accuracy,underestimated\n";
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    const auto& j = w.jobs[i];
    const auto& a = r.jobs[i];
    out += fmt::format("{},{},{},{},{},{},{},{},{},{:.3f},{:.6f},{}\n", j.job_number, j.user, j.submit, start[i],
                       start[i] + j.runtime, j.runtime, j.estimate, r.initial[i], r.at_start[i], a.absolute_error,
                       a.relative_accuracy, a.underestimated ? 1 : 0);
  }
  if (path == "-") {
    fmt::print("{}", out);
    return;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error(fmt::format("cannot write {}", path));
  const bool ok = std::fwrite(out.data(), 1, out.size(), f) == out.size();
  if (std::fclose(f) != 0 || !ok) throw std::runtime_error(fmt::format("cannot write {}", path));
}

void run(const PredictArgs& a) {
  std::string spec = a.predictor;
  if (!a.correction.empty()) {
    spec += (spec.find(':') == std::string::npos ? ":" : ";") + ("correction=" + a.correction);
  }
  const auto predictor = predict::make_predictor(spec, predict::PredictorConfig{a.seed, {}});
  const swf::Log log = swf::read_log(a.trace);
  sim::WorkloadOptions wo;
  wo.procs = a.procs;
  wo.extend_estimates = a.extend_estimates;
  const sim::Workload w = sim::build_workload(log.header, log.records, wo);
  std::vector<int64_t> start(w.jobs.size());
  int64_t unknown_wait = 0;
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    const auto wait = log.records[w.record_index[i]].wait_time;
    if (wait < 0) ++unknown_wait;
    start[i] = w.jobs[i].submit + std::max<int64_t>(wait, 0);
  }
  if (!(a.warmup_fraction >= 0.0 && a.warmup_fraction < 1.0)) {
    throw std::invalid_argument(fmt::format("warm-up fraction must be in [0, 1), got {}", a.warmup_fraction));
  }
  const predict::ReplayResult r = predict::replay(w.jobs, start, *predictor, a.warmup_fraction);
  if (!a.jobs_out.empty()) write_jobs_csv(a.jobs_out, w, start, r);
  const auto& s = r.summary;
  if (a.json) {
    nlohmann::json doc = {
        {"trace", a.trace},
        {"predictor", std::string(predictor->name())},
        {"jobs",
         {{"records", w.records},
          {"replayed", w.jobs.size()},
          {"excluded", w.excluded_total},
          {"without_estimate", w.without_estimate},
          {"unknown_wait", unknown_wait},
          {"extended", w.extended}}},
        {"warmup_fraction", a.warmup_fraction},
        {"accuracy",
         {{"jobs", s.jobs},
          {"absolute_error", {{"mean", s.mean_absolute_error}, {"median", s.median_absolute_error}}},
          {"relative_accuracy", {{"mean", s.mean_relative_accuracy}, {"median", s.median_relative_accuracy}}},
          {"underestimated_share", s.underestimated_share},
          {"predictions_per_job", s.mean_predictions}}},
        {"deadline_misses", r.deadline_misses},
        {"prediction_updates", r.updates},
        {"notes", w.notes},
    };
    fmt::print("{}\n", doc.dump(2));
    return;
  }
  fmt::print("trace        {}\n", a.trace);
  fmt::print("predictor    {}\n", predictor->name());
  fmt::print("jobs         {} replayed of {} records, {} excluded, {} without estimate, {} with unknown wait (0 used)\n",
             w.jobs.size(), w.records, w.excluded_total, w.without_estimate, unknown_wait);
  for (const auto& note : w.notes) fmt::print("note         {}\n", note);
  fmt::print("\naccuracy over {} jobs (time-weighted over each job's life; {} warm-up jobs excluded)\n", s.jobs,
             w.jobs.size() - static_cast<size_t>(s.jobs));
  fmt::print("{:<24} {:>14.1f} s (median {:.1f} s)\n", "absolute error, mean", s.mean_absolute_error,
             s.median_absolute_error);
  fmt::print("{:<24} {:>14.4f} (median {:.4f})\n", "relative accuracy, mean", s.mean_relative_accuracy,
             s.median_relative_accuracy);
  fmt::print("{:<24} {:>14.4f}\n", "underestimated share", s.underestimated_share);
  fmt::print("{:<24} {:>14.3f}\n", "predictions per job", s.mean_predictions);
  fmt::print("{:<24} {:>14}\n", "deadline misses", r.deadline_misses);
}

}  // namespace

void add_predict_command(CLI::App& app) {
  auto args = std::make_shared<PredictArgs>();
  CLI::App* cmd = app.add_subcommand(
      "predict", "replay a log's own schedule through a runtime predictor and report its accuracy");
  cmd->add_option("TRACE", args->trace, "the log (\"-\" = standard input)")->required();
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
