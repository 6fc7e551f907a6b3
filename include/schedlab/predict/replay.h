// Replaying a log's own schedule through a predictor, without scheduling: each job arrives at its submit
// time, starts at the start time given (the log's submit + wait) and ends at start + runtime. The predictor
// sees the same events as in a simulation — at one instant: terminations (job id order), arrivals, deadline
// misses (a job still running at start + prediction), starts — and its updates are applied at once (a
// running job's prediction is never below its elapsed runtime). Used by `schedlab predict` to measure a
// predictor's accuracy on what really happened (predict/accuracy.h). Cost: O(events × log events) plus the
// predictor's own cost.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "schedlab/predict/accuracy.h"
#include "schedlab/workload/job.h"
#include "schedlab/predict/predictor.h"

namespace schedlab::predict {

struct ReplayResult {
  std::vector<JobAccuracy> jobs;         // by job id
  std::vector<int64_t> initial;          // prediction at arrival, by job id
  std::vector<int64_t> at_start;         // prediction when the job started, by job id
  std::vector<JobId> termination_order;  // (end, id)
  int64_t deadline_misses = 0;
  // Jobs whose predictions were raised by one second at a time for a minute or more (kSecondBySecondStreak).
  int64_t second_by_second_jobs = 0;
  int64_t updates = 0;                   // prediction changes applied
  AccuracySummary summary;               // over termination order minus the warm-up
};

// `jobs`: ids = index, ordered by submit; `start[i]` >= jobs[i].submit. Throws std::invalid_argument
// otherwise. warmup_fraction: the first floor(f × n) terminated jobs are left out of the summary. `progress`, when
// set, is called as the simulation engine calls it (at most every 1,024 events and 0.2 s, and at the end) with the
// jobs ended so far and n: a long replay's display, or a caller's way to stop it (by throwing).
ReplayResult replay(const std::vector<Job>& jobs, const std::vector<int64_t>& start, Predictor& predictor,
                    double warmup_fraction = 0.0,
                    const std::function<void(size_t done, size_t total)>& progress = {});

}  // namespace schedlab::predict
