// Runtime predictors: plug-ins that tell the scheduler how long each job is expected to run.
//
// Contract:
// - The engine calls on_arrival for every job when it enters the wait queue; the returned value is the
//   job's initial prediction. It then calls on_start, on_termination, and on_deadline_miss (the job is
//   still running at start + prediction) as they happen. Within one instant the engine reports all
//   terminations, then all arrivals, then all starts; deadline misses come after the arrivals.
// - Every callback may append updated predictions for ANY waiting or running job to `updates`
//   ({job, prediction}); the engine applies them in order, tells the scheduler, and calls the scheduler
//   again at that instant. Updates for jobs that are neither waiting nor running are ignored.
// - A prediction is never below the elapsed runtime: the engine raises a running job's prediction to
//   (now - start) when a predictor returns less, and a prediction is always >= 0.
// - A predictor that leaves an overdue job's prediction alone (e.g. `estimate`) makes the job count as
//   "ending now" for the scheduler: expected end = max(start + prediction, now) (sim/state.h).
// - Predictors may only use the job's public fields; Job::runtime is reserved for `perfect`.
// - Predictors are copyable values via clone() (adaptive schedulers run several side by side); all
//   randomness comes from PredictorConfig::seed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schedlab/workload/job.h"

namespace schedlab::predict {

// Deadline misses in a row, each raising the prediction by one second only, after which a job counts as predicted
// "second by second" (sim::SimResult::second_by_second_jobs, predict::ReplayResult's): a minute of them. The
// profiler's rule does it once or twice at a multiple of the estimate; a no-estimate SBH capped below the job's
// runtime does it until the job ends.
inline constexpr int kSecondBySecondStreak = 60;
// The rule, for a simulator after a job's deadline miss at `now` and the predictor's update: `streak` is the job's
// count of such misses in a row (0 at first), `end` the job's predicted end now. True once per job, when its streak
// reaches kSecondBySecondStreak.
inline bool second_by_second(uint8_t& streak, int64_t end, int64_t now) {
  if (end != now + 1) {
    streak = 0;
    return false;
  }
  return streak < kSecondBySecondStreak && ++streak == kSecondBySecondStreak;
}

// The job model (workload/job.h) is the predictors' vocabulary.
using workload::Job;
using workload::JobId;

struct PredictionUpdate {
  JobId job = -1;
  int64_t prediction = 0;  // seconds of runtime (from the job's start)
};
using Updates = std::vector<PredictionUpdate>;

// Parameters a predictor factory receives (extensible: named string parameters for later predictors).
struct PredictorConfig {
  uint64_t seed = 0;
  std::map<std::string, std::string> params;
  // Where a relative "@PATH" predictor and relative file parameters are read from (base::spec_in_dir, Params);
  // empty: the working directory. make_predictor passes a spec file's own directory on to the predictor.
  std::string files_dir = {};
};

class Predictor {
 public:
  virtual ~Predictor() = default;
  virtual std::unique_ptr<Predictor> clone() const = 0;
  virtual std::string_view name() const = 0;
  // What results call it: the canonical spec make_predictor made it from, with the parameters that differ from
  // their defaults and the correction ("user-last2:correction=tsafrir;order=end"), so that two configurations
  // never print alike; name() when the predictor was constructed directly. Copied by clone().
  std::string_view label() const { return label_.empty() ? name() : std::string_view(label_); }
  void set_label(std::string label) { label_ = std::move(label); }

  // A job arrives at `now`; returns its initial prediction (>= 0). In every hook `job.submit` is when the job was
  // submitted in this run: the log's time, or with feedback (sim/simulate.h) the time the simulation gave it.
  virtual int64_t on_arrival(int64_t now, const Job& job, Updates& updates) = 0;
  // The job starts at `now` with its current prediction `prediction`.
  virtual void on_start(int64_t now, const Job& job, int64_t prediction, Updates& updates) {
    (void)now, (void)job, (void)prediction, (void)updates;
  }
  // The job terminates at `now` (it ran now - start seconds).
  virtual void on_termination(int64_t now, const Job& job, int64_t start, Updates& updates) {
    (void)now, (void)job, (void)start, (void)updates;
  }
  // The job is still running at now = start + prediction. A prediction raised by one second only (to now + 1) at
  // kSecondBySecondStreak misses in a row is warned of: the predictor has stopped predicting the job.
  virtual void on_deadline_miss(int64_t now, const Job& job, int64_t start, int64_t prediction,
                                Updates& updates) {
    (void)now, (void)job, (void)start, (void)prediction, (void)updates;
  }

 protected:
  Predictor() = default;
  Predictor(const Predictor&) = default;
  Predictor& operator=(const Predictor&) = default;

 private:
  std::string label_;
};

}  // namespace schedlab::predict
