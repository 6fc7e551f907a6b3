// Prediction accuracy (Talby's thesis §8; docs/predictors.md).
//
// Per job with runtime R and prediction P: absolute error AA = |R − P| (seconds); relative accuracy
// RA = 1 if R = P, R/P if R < P, P/R if R > P (0 when one of them is 0 and the other not). When the prediction
// changes during the job's life, both are time-weighted from submission T0 to end TN:
//     A = (1 / (TN − T0)) Σ A_i (T_i − T_{i−1})
// where A_i is the accuracy of the prediction in force from T_{i−1} to T_i. A job with TN = T0 takes the
// accuracy of its last prediction. A job is underestimated when the prediction it started with is below R
// (it outlived it: at least one deadline miss).
// AccuracyTracker accumulates the sums online: O(1) per prediction change, O(1) memory per job.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "schedlab/workload/job.h"

namespace schedlab::predict {

using workload::Job;
using workload::JobId;

double relative_accuracy(int64_t runtime, int64_t prediction);

struct JobAccuracy {
  double absolute_error = 0;     // seconds, time-weighted
  double relative_accuracy = 0;  // in [0, 1], time-weighted
  bool underestimated = false;
  int32_t predictions = 0;       // how many predictions the job had (1 = never changed)
};

struct AccuracySummary {
  int64_t jobs = 0;
  double mean_absolute_error = 0, median_absolute_error = 0;
  double mean_relative_accuracy = 0, median_relative_accuracy = 0;
  double underestimated_share = 0;    // in [0, 1]
  double mean_predictions = 0;        // predictions per job
};

// Summary over `jobs` (mean and median, median interpolated as in sim/metrics.h).
AccuracySummary summarize_accuracy(const std::vector<JobAccuracy>& jobs);
// The same over jobs[order[k]] for k in [from, order.size()), in that order, without a copy of them (a run's
// jobs in termination order after its warm-up).
AccuracySummary summarize_accuracy(const std::vector<JobAccuracy>& jobs, const std::vector<JobId>& order, size_t from);

class AccuracyTracker {
 public:
  explicit AccuracyTracker(size_t jobs = 0) { resize(jobs); }
  void resize(size_t jobs);
  // The job's prediction is `prediction` from `now` on (the first call is the arrival). `runtime` = R.
  void set(JobId id, int64_t now, int64_t prediction, int64_t runtime);
  // The job starts with its current prediction (nothing for a job no prediction was set for).
  void started(JobId id, int64_t runtime);
  // The job ended at `now`; returns its accuracy, and forgets the job (all zero for a job no prediction was set
  // for, or one already finished).
  JobAccuracy finish(JobId id, int64_t now, int64_t runtime);

 private:
  struct State {
    int64_t first = -1, since = -1, prediction = 0;
    double aa = 0, ra = 0;
    int32_t predictions = 0;
    bool underestimated = false;
  };
  State& state(JobId id);  // the job's state, taken from the pool on first use
  bool tracked(JobId id) const;  // the job has a state (a prediction was set and it has not finished)
  std::vector<int32_t> slot_;  // per job: its state in pool_, -1 when it has none (not arrived, or finished)
  std::vector<State> pool_;    // the states of the jobs between arrival and end (48 bytes each)
  std::vector<int32_t> free_;  // free places in pool_
};

}  // namespace schedlab::predict
