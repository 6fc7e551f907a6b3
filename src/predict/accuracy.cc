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

static double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const double h = 0.5 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(h));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
  const double a = v[lo];
  if (lo + 1 >= v.size()) return a;
  const double b = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo) + 1, v.end());
  return a + (h - static_cast<double>(lo)) * (b - a);
}

AccuracySummary summarize_accuracy(const std::vector<JobAccuracy>& jobs) {
  AccuracySummary s;
  if (jobs.empty()) return s;
  s.jobs = static_cast<int64_t>(jobs.size());
  std::vector<double> aa, ra;
  aa.reserve(jobs.size());
  ra.reserve(jobs.size());
  double under = 0, preds = 0;
  for (const auto& j : jobs) {
    aa.push_back(j.absolute_error);
    ra.push_back(j.relative_accuracy);
    under += j.underestimated ? 1 : 0;
    preds += j.predictions;
  }
  const auto n = static_cast<double>(jobs.size());
  for (double v : aa) s.mean_absolute_error += v / n;
  for (double v : ra) s.mean_relative_accuracy += v / n;
  s.median_absolute_error = median(std::move(aa));
  s.median_relative_accuracy = median(std::move(ra));
  s.underestimated_share = under / n;
  s.mean_predictions = preds / n;
  return s;
}

void AccuracyTracker::resize(size_t jobs) { slot_.resize(jobs, -1); }

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
  if (id < 0) return;
  State& s = state(id);
  s.underestimated = s.prediction < runtime;
}

JobAccuracy AccuracyTracker::finish(JobId id, int64_t now, int64_t runtime) {
  JobAccuracy out;
  if (id < 0) return out;
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
