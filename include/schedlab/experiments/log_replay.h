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

}  // namespace schedlab::experiments
