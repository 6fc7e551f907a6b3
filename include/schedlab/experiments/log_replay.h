// A predictor's accuracy on what really happened: a log's own schedule (logged submit, start = submit +
// wait, end = start + runtime; no scheduling) replayed through a runtime predictor (predict/replay.h). A
// log's unknown wait (-1) counts as 0 and is counted. This is `schedlab predict`.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/experiments/simulation.h"
#include "schedlab/predict/predictor.h"
#include "schedlab/predict/replay.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/reader.h"

namespace schedlab::experiments {

struct LogReplayOptions {
  std::optional<int64_t> procs;  // machine size: larger jobs are left out (default: the log's)
  bool extend_estimates = false;  // raise estimates below the runtime to the runtime
  double warmup_fraction = 0.0;   // in [0, 1): the first terminated jobs left out of the summary
  std::function<void(size_t done, size_t total)> progress = {};  // predict::replay's
};

struct LogReplay {
  std::string predictor;         // the predictor's name
  workload::Workload workload;        // the jobs replayed, with the exclusion counts
  std::vector<int64_t> start;    // by job id: submit + max(logged wait, 0)
  int64_t unknown_wait = 0;      // jobs whose log wait was -1 (replayed as 0)
  double warmup_fraction = 0.0;
  predict::ReplayResult result;  // per-job accuracy and the summary
  // What the user should know about the result: a predictor that raised missed predictions by one second at a time
  // (second_by_second_warning, simulation.h).
  std::vector<std::string> warnings;
};

// Throws std::invalid_argument on a warm-up fraction outside [0, 1), NoJobLeft (simulation.h) when no job is left
// to replay.
LogReplay replay_log(const swf::Log& log, const predict::Predictor& predictor, const LogReplayOptions& options = {});
// The same, the log's records freed once the workload and the starts are taken from them (the header is kept).
LogReplay replay_log(swf::Log&& log, const predict::Predictor& predictor, const LogReplayOptions& options = {});

// Per-job CSV: job_id,user,submit,start,end,runtime,estimate,initial_prediction,prediction_at_start,
// absolute_error,relative_accuracy,underestimated (one line per replayed job, with a header line).
std::string log_replay_csv(const LogReplay& replay);
// The same written to `path` row by row (swf::write_text_file: ".gz", "-", whole or not at all).
void write_log_replay_csv(const std::string& path, const LogReplay& replay);

// The result as one JSON object (jobs, warm-up, accuracy, deadline misses, prediction updates, notes, warnings).
nlohmann::json to_json(const LogReplay& replay);

// "How long will this user's next job run?" asked of a predictor that has seen the whole log: the log's own schedule
// replayed through it (as replay_log), then a job of the user's arrives one second after the log's last job ended,
// and its initial prediction is the answer. `predict --next`.
struct NextJob {
  int32_t user = -1;                 // >= 0
  int32_t procs = 1;                 // > 0
  std::optional<int64_t> estimate = std::nullopt;  // seconds, > 0; none: the job has no estimate
  int32_t executable = -1, group = -1, queue = -1, partition = -1;
};

struct NextPrediction {
  LogReplay replay;                  // the log replayed (the predictor's accuracy on it)
  NextJob job;
  int64_t submit = 0;                // the job's arrival, on the log's clock
  // Seconds; none when the predictor fell back to the estimate of a job that has none (no history to go by).
  std::optional<int64_t> prediction;
  // The user's jobs in the replayed log, and the predictor's accuracy on them (NaN without any).
  int64_t user_jobs = 0;
  double user_mean_relative_accuracy = 0, user_underestimated_share = 0;
};

// Throws std::invalid_argument on a bad NextJob (naming the field), and as replay_log.
NextPrediction predict_next(const swf::Log& log, const predict::Predictor& predictor, const NextJob& job,
                            const LogReplayOptions& options = {});
// The same, the log's records freed once the workload and the starts are taken from them (as replay_log's).
NextPrediction predict_next(swf::Log&& log, const predict::Predictor& predictor, const NextJob& job,
                            const LogReplayOptions& options = {});

// {predictor, job {user, procs, estimate, executable, group, queue, partition}, submit, prediction (null: none),
// user_jobs, user_mean_relative_accuracy, user_underestimated_share, jobs, warnings}.
nlohmann::json to_json(const NextPrediction& next);

}  // namespace schedlab::experiments
