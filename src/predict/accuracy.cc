#include "schedlab/predict/accuracy.h"

#include <algorithm>
#include <cmath>

namespace schedlab::predict {

double relative_accuracy(int64_t runtime, int64_t prediction) {
  if (runtime == prediction) return 1.0;
  if (runtime <= 0 || prediction <= 0) return 0.0;
  return runtime < prediction ? static_cast<double>(runtime) / static_cast<double>(prediction)
                              : static_cast<double>(prediction) / static_cast<double>(runtime);
}

// (Reorders v.)
static double median(std::vector<double>& v) {
  if (v.empty()) return 0;
  const double h = 0.5 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(h));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
  const double a = v[lo];
  if (lo + 1 >= v.size()) return a;
  const double b = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end());
  return a + (h - static_cast<double>(lo)) * (b - a);
}

namespace {

// The summary over count jobs, job(k) giving the k-th: the sums in that order, and the medians through one
// vector of values at a time (8 bytes a job).
template <typename JobAt>
AccuracySummary summarize(size_t count, JobAt job) {
  AccuracySummary s;
  if (count == 0) return s;
  s.jobs = static_cast<int64_t>(count);
  const auto n = static_cast<double>(count);
  double under = 0, preds = 0;
  for (size_t k = 0; k < count; ++k) {
    const JobAccuracy& j = job(k);
    under += j.underestimated ? 1 : 0;
    preds += j.predictions;
  }
  // Means as sums divided once (as sim/metrics.cc does): adding v / n count times drifted, so that a log predicted
  // perfectly had a mean relative accuracy of 1.000000000000943 (OSC-Clust) or 0.9999999999999999 (10 jobs).
  // A mean of values in [0, 1] is kept in [0, 1] against the last bit of rounding.
  std::vector<double> values(count);
  double sum = 0;
  for (size_t k = 0; k < count; ++k) sum += values[k] = job(k).absolute_error;
  s.mean_absolute_error = sum / n;
  s.median_absolute_error = median(values);
  sum = 0;
  for (size_t k = 0; k < count; ++k) sum += values[k] = job(k).relative_accuracy;
  s.mean_relative_accuracy = std::clamp(sum / n, 0.0, 1.0);
  s.median_relative_accuracy = median(values);
  s.underestimated_share = under / n;
  s.mean_predictions = preds / n;
  return s;
}

}  // namespace

AccuracySummary summarize_accuracy(const std::vector<JobAccuracy>& jobs) {
  return summarize(jobs.size(), [&](size_t k) -> const JobAccuracy& { return jobs[k]; });
}

AccuracySummary summarize_accuracy(const std::vector<JobAccuracy>& jobs, const std::vector<JobId>& order, size_t from) {
  from = std::min(from, order.size());
  return summarize(order.size() - from,
                   [&](size_t k) -> const JobAccuracy& { return jobs[static_cast<size_t>(order[from + k])]; });
}

void AccuracyTracker::resize(size_t jobs) { slot_.resize(jobs, -1); }

bool AccuracyTracker::tracked(JobId id) const {
  return id >= 0 && static_cast<size_t>(id) < slot_.size() && slot_[static_cast<size_t>(id)] >= 0;
}

AccuracyTracker::State& AccuracyTracker::state(JobId id) {
  const auto idx = static_cast<size_t>(id);
  if (idx >= slot_.size()) slot_.resize(idx + 1, -1);
  int32_t& slot = slot_[idx];
  if (slot < 0) {
    if (free_.empty()) {
      slot = static_cast<int32_t>(pool_.size());
      pool_.emplace_back();
    } else {
      slot = free_.back();
      free_.pop_back();
    }
  }
  return pool_[static_cast<size_t>(slot)];
}

void AccuracyTracker::set(JobId id, int64_t now, int64_t prediction, int64_t runtime) {
  if (id < 0) return;
  State& s = state(id);
  if (s.first < 0) {
    s.first = now;
  } else {
    const auto dt = static_cast<double>(now - s.since);
    s.aa += dt * static_cast<double>(std::llabs(runtime - s.prediction));
    s.ra += dt * relative_accuracy(runtime, s.prediction);
  }
  s.since = now;
  s.prediction = prediction;
  ++s.predictions;
}

void AccuracyTracker::started(JobId id, int64_t runtime) {
  if (!tracked(id)) return;  // (no prediction was ever set for it: nothing to mark)
  State& s = state(id);
  s.underestimated = s.prediction < runtime;
}

JobAccuracy AccuracyTracker::finish(JobId id, int64_t now, int64_t runtime) {
  JobAccuracy out;
  if (!tracked(id)) return out;  // no prediction was ever set for it: no accuracy either
  set(id, now, state(id).prediction, runtime);
  State& s = state(id);
  --s.predictions;  // the closing call is not a prediction
  const auto life = static_cast<double>(now - s.first);
  if (life > 0) {
    out.absolute_error = s.aa / life;
    out.relative_accuracy = s.ra / life;
  } else {
    out.absolute_error = static_cast<double>(std::llabs(runtime - s.prediction));
    out.relative_accuracy = relative_accuracy(runtime, s.prediction);
  }
  out.underestimated = s.underestimated;
  out.predictions = s.predictions;
  // The job's state goes back to the pool: the tracker holds the jobs alive, not every job.
  s = State{};
  int32_t& slot = slot_[static_cast<size_t>(id)];
  free_.push_back(slot);
  slot = -1;
  return out;
}

}  // namespace schedlab::predict
