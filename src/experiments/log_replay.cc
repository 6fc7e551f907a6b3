#include "schedlab/experiments/log_replay.h"

#include <algorithm>
#include <iterator>
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

void run_replay(LogReplay& out, const predict::Predictor& predictor, const LogReplayOptions& options) {
  const auto p = predictor.clone();  // the caller's predictor stays untouched, as in sim::simulate
  out.predictor = std::string(p->label());
  out.warmup_fraction = options.warmup_fraction;
  out.result = predict::replay(out.workload.jobs, out.start, *p, options.warmup_fraction, options.progress);
  if (const int64_t n = out.result.second_by_second_jobs; n > 0)
    out.warnings.push_back(second_by_second_warning(n, out.predictor));
}

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
