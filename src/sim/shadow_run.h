// A private header (src/sim): the background runs of an adaptive scheduler's candidates (pbas).
//
// WindowMeter measures a schedule over a window [start, now) by one rule, for the real run and for the
// shadow runs alike (the thesis does not say how a candidate is measured; Decision, docs/adaptive.md):
// - every job that started in the window, and every job still waiting at its end as if it started then,
//   counts once with wait = start − submit, response = wait + L, slowdown = max(1, response / max(L, 1)) and bounded
//   slowdown = max(1, response / max(L, 10 s)), where L is the length the job runs (its log runtime, or
//   what its prediction says when the runs use predicted runtimes);
// - utilization = processor-seconds busy in the window / (processors × window length).
// ShadowRun is a candidate scheduler running on its own copy of the machine: it starts from the real state
// at a switch point, gets the same arrivals as the real run (at the same instants), and starts what it
// decides; its jobs end after L (the log's runtime — an offline what-if — or the prediction), so it needs
// no engine and no job table: synchronising copies the queue and the running jobs only.
// Candidates must not suspend jobs or need processor identities (checked when pbas is made).
// Cost per shadow instant: the scheduler's call plus O(R) per termination and per start (the running list is
// kept sorted as the engine keeps it) and O(log R) per heap operation.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "schedlab/sim/scheduler.h"
#include "schedlab/sim/state.h"

namespace schedlab::sim {

enum class AdaptiveMetric { kWait, kResponse, kSlowdown, kBoundedSlowdown, kUtilization };

class WindowMeter {
 public:
  void reset(int64_t start, int64_t busy_procs);
  // Processors busy from the last change until t.
  void advance(int64_t t);
  void started(int64_t submit, int64_t start, int64_t length, int64_t procs);
  void ended(int64_t procs) { busy_ -= procs; }
  // The window's value of `metric` at `now` given the jobs still waiting (each with its length).
  double value(AdaptiveMetric metric, int64_t now, int64_t total_procs, const WaitQueue& waiting,
               const std::function<int64_t(const WaitingJob&)>& length) const;

 private:
  struct Sums {
    int64_t jobs = 0;
    double wait = 0, response = 0, slowdown = 0, bsld = 0;
    void add(int64_t wait_s, int64_t length);
  };
  int64_t start_ = 0, last_ = 0, busy_ = 0;
  double area_ = 0;  // processor-seconds busy in [start_, last_)
  Sums sums_;
};

// A plain copyable value; the scheduler it runs is passed to each call (the adaptive scheduler owns it).
class ShadowRun {
 public:
  // The run continues from `state` (copied); the measurement window starts at state.now. `log_runtimes`:
  // jobs run their log runtime, else their prediction; `kill_at_prediction`: the scheduler kills jobs that
  // outlive their prediction (Overrun::kKill).
  void start(const SimState& state, bool log_runtimes, bool kill_at_prediction);
  // Processes the run's own instants (terminations, wake-ups) before t.
  void advance_before(int64_t t, Scheduler& scheduler);
  // The instant t: the run's terminations at t, then `arrivals`, then one scheduler call.
  void instant(int64_t t, const std::vector<WaitingJob>& arrivals, Scheduler& scheduler);
  double value(AdaptiveMetric metric, int64_t now) const;
  const SimState& state() const { return state_; }
  // The length a job runs in this run.
  int64_t length(JobId id, int64_t prediction) const;

 private:
  // (end, job, predicted end: the job's key in the running list), ordered by end then job.
  using TimedJob = std::tuple<int64_t, JobId, int64_t>;
  void step(int64_t t, const std::vector<WaitingJob>& arrivals, Scheduler& scheduler);

  SimState state_;
  bool log_runtimes_ = true;
  bool kill_ = false;
  std::priority_queue<TimedJob, std::vector<TimedJob>, std::greater<>> ends_;
  int64_t wake_ = std::numeric_limits<int64_t>::max();
  WindowMeter meter_;
  Decision decision_;
};

}  // namespace schedlab::sim
