#include "schedlab/experiments/log_replay.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "schedlab/experiments/results_json.h"
#include "schedlab/swf/writer.h"

namespace schedlab::experiments {

namespace {

// The workload and the logged starts: all a replay needs of the log's records.
LogReplay prepare(const swf::Log& log, const LogReplayOptions& options) {
  if (!(options.warmup_fraction >= 0.0 && options.warmup_fraction < 1.0)) {
    throw std::invalid_argument(fmt::format("warm-up fraction must be in [0, 1), got {}", options.warmup_fraction));
  }
  LogReplay out;
  workload::WorkloadOptions wo;
  wo.procs = options.procs;
  wo.extend_estimates = options.extend_estimates;
  out.workload = workload_of(log, wo, "replay");
  const workload::Workload& w = out.workload;
  out.start.resize(w.jobs.size());
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    const auto wait = log.records[w.record_index[i]].wait_time;
    if (wait < 0) ++out.unknown_wait;
    out.start[i] = w.jobs[i].submit + std::max<int64_t>(wait, 0);
  }
  return out;
}

// Replays through a clone (the caller's predictor stays untouched, as in sim::simulate), returned with what it saw.
std::unique_ptr<predict::Predictor> run_replay(LogReplay& out, const predict::Predictor& predictor,
                                               const LogReplayOptions& options) {
  auto p = predictor.clone();
  out.predictor = std::string(p->label());
  out.warmup_fraction = options.warmup_fraction;
  out.result = predict::replay(out.workload.jobs, out.start, *p, options.warmup_fraction, options.progress);
  if (const int64_t n = out.result.second_by_second_jobs; n > 0)
    out.warnings.push_back(second_by_second_warning(n, out.predictor));
  return p;
}

// The estimate of a next job that has none: above any prediction a history gives (runtimes are 32-bit), so a
// prediction at it is a fall-back to the estimate, not a prediction.
constexpr int64_t kNoEstimate = int64_t{1} << 40;

constexpr std::string_view kCsvHead =
    "job_id,user,submit,start,end,runtime,estimate,initial_prediction,prediction_at_start,absolute_error,"
    "relative_accuracy,underestimated\n";

void append_csv_row(std::string& out, const LogReplay& replay, size_t i) {
  const auto& j = replay.workload.jobs[i];
  const predict::ReplayResult& r = replay.result;
  const auto& a = r.jobs[i];
  const int64_t start = replay.start[i];
  // The accuracies at full precision (shortest text that reads back to the same double): six decimals made a
  // relative accuracy of 0.0002717576 read 0.000272, and one below 5e-7 read 0.
  fmt::format_to(std::back_inserter(out), "{},{},{},{},{},{},{},{},{},{},{},{}\n", j.job_number, j.user, j.submit,
                 start, start + j.runtime, j.runtime, j.estimate, r.initial[i], r.at_start[i], a.absolute_error,
                 a.relative_accuracy, a.underestimated ? 1 : 0);
}

}  // namespace

LogReplay replay_log(const swf::Log& log, const predict::Predictor& predictor, const LogReplayOptions& options) {
  LogReplay out = prepare(log, options);
  run_replay(out, predictor, options);
  return out;
}

LogReplay replay_log(swf::Log&& log, const predict::Predictor& predictor, const LogReplayOptions& options) {
  LogReplay out = prepare(log, options);
  std::vector<swf::Record>().swap(log.records);  // not needed past here: freed before the replay's own tables
  run_replay(out, predictor, options);
  return out;
}

namespace {

void check_next_job(const NextJob& job) {
  if (job.user < 0) throw std::invalid_argument(fmt::format("the next job's user must be >= 0, got {}", job.user));
  if (job.procs <= 0) throw std::invalid_argument(fmt::format("the next job's procs must be > 0, got {}", job.procs));
  if (job.estimate && *job.estimate <= 0)
    throw std::invalid_argument(fmt::format("the next job's estimate must be > 0 seconds, got {}", *job.estimate));
}

// The replay prepared (out.replay: the workload and the starts), then run and asked about the next job.
void answer_next(NextPrediction& out, const predict::Predictor& predictor, const LogReplayOptions& options) {
  const NextJob& job = out.job;
  const workload::Workload& w = out.replay.workload;
  if (job.procs > w.procs)  // before the replay: a mistyped size costs no replay
    throw std::invalid_argument(fmt::format("the next job's {} processors are more than the machine's {}", job.procs,
                                            w.procs));
  const auto p = run_replay(out.replay, predictor, options);
  int64_t last = 0;
  double accuracy = 0;
  int64_t under = 0;
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    last = std::max({last, w.jobs[i].submit, out.replay.start[i] + w.jobs[i].runtime});
    if (w.jobs[i].user != job.user) continue;
    ++out.user_jobs;
    accuracy += out.replay.result.jobs[i].relative_accuracy;
    under += out.replay.result.jobs[i].underestimated ? 1 : 0;
  }
  const auto n = static_cast<double>(out.user_jobs);
  out.user_mean_relative_accuracy = out.user_jobs > 0 ? accuracy / n : std::nan("");
  out.user_underestimated_share = out.user_jobs > 0 ? static_cast<double>(under) / n : std::nan("");
  out.submit = last + 1;
  workload::Job next;
  next.id = static_cast<workload::JobId>(w.jobs.size());
  next.submit = out.submit;
  next.has_estimate = job.estimate.has_value();
  next.estimate = job.estimate.value_or(kNoEstimate);
  next.runtime = 0;  // unknown: a predictor that looks at it is refused below
  next.procs = job.procs;
  next.user = job.user;
  next.group = job.group;
  next.executable = job.executable;
  next.queue = job.queue;
  next.partition = job.partition;
  // A predictor that reads the job's runtime (`perfect`, with or without a correction, or one of the caller's own)
  // has no answer for a job yet to run: asked on a copy with another runtime, it would answer otherwise.
  const auto copy = p->clone();
  predict::Updates updates, copy_updates;  // for the waiting and running jobs: none is left
  const int64_t prediction = std::max<int64_t>(0, p->on_arrival(out.submit, next, updates));
  next.runtime = int64_t{1} << 31;
  if (std::max<int64_t>(0, copy->on_arrival(out.submit, next, copy_updates)) != prediction)
    throw std::invalid_argument(fmt::format("{}: its prediction depends on the job's runtime (as perfect's does), "
                                            "which a job yet to run does not have",
                                            out.replay.predictor));
  if (prediction < kNoEstimate) out.prediction = prediction;
}

}  // namespace

NextPrediction predict_next(const swf::Log& log, const predict::Predictor& predictor, const NextJob& job,
                            const LogReplayOptions& options) {
  check_next_job(job);
  NextPrediction out;
  out.job = job;
  out.replay = prepare(log, options);
  answer_next(out, predictor, options);
  return out;
}

NextPrediction predict_next(swf::Log&& log, const predict::Predictor& predictor, const NextJob& job,
                            const LogReplayOptions& options) {
  check_next_job(job);
  NextPrediction out;
  out.job = job;
  out.replay = prepare(log, options);
  std::vector<swf::Record>().swap(log.records);  // not needed past here, as in replay_log
  answer_next(out, predictor, options);
  return out;
}

nlohmann::json to_json(const NextPrediction& next) {
  const NextJob& j = next.job;
  const auto number = [](double v) { return std::isnan(v) ? nlohmann::json() : nlohmann::json(v); };
  return {{"predictor", next.replay.predictor},
          {"job",
           {{"user", j.user},
            {"procs", j.procs},
            {"estimate", j.estimate ? nlohmann::json(*j.estimate) : nlohmann::json()},
            {"executable", j.executable},
            {"group", j.group},
            {"queue", j.queue},
            {"partition", j.partition}}},
          {"submit", next.submit},
          {"prediction", next.prediction ? nlohmann::json(*next.prediction) : nlohmann::json()},
          {"user_jobs", next.user_jobs},
          {"user_mean_relative_accuracy", number(next.user_mean_relative_accuracy)},
          {"user_underestimated_share", number(next.user_underestimated_share)},
          {"jobs", next.replay.workload.jobs.size()},
          {"warnings", next.replay.warnings}};
}

std::string log_replay_csv(const LogReplay& replay) {
  std::string out(kCsvHead);
  for (size_t i = 0; i < replay.workload.jobs.size(); ++i) append_csv_row(out, replay, i);
  return out;
}

void write_log_replay_csv(const std::string& path, const LogReplay& replay) {
  swf::write_text_file(path, kCsvHead, replay.workload.jobs.size(),
                       [&replay](std::string& out, size_t i) { append_csv_row(out, replay, i); });
}

nlohmann::json to_json(const LogReplay& replay) {
  const workload::Workload& w = replay.workload;
  return {
      {"predictor", replay.predictor},
      {"jobs",
       {{"records", w.records},
        {"replayed", w.jobs.size()},
        {"excluded", w.excluded_total},
        {"without_estimate", w.without_estimate},
        {"unknown_wait", replay.unknown_wait},
        {"extended", w.extended}}},
      {"warmup_fraction", replay.warmup_fraction},
      {"accuracy", to_json(replay.result.summary)},
      {"deadline_misses", replay.result.deadline_misses},
      {"second_by_second_jobs", replay.result.second_by_second_jobs},
      {"prediction_updates", replay.result.updates},
      {"notes", w.notes},
      {"warnings", replay.warnings},
  };
}

}  // namespace schedlab::experiments
