// The event engine behind simulate() (sim/simulate.h states the event order and the checks).
//
// An Engine is copyable: copying it clones the scheduler and predictor and copies the state and pending
// events, so an adaptive policy can fork the real simulation and run candidates side by side. fork() does
// that with another scheduler and, optionally, the runtimes an online policy could know (the predictions)
// and without the jobs not yet submitted.
// Cost per instant: O(log n) per event for the event heaps, O(1) amortised to add or remove a waiting job
// (sim/state.h WaitQueue), O(running) to insert a started job in the running list, O(log F) per processor
// range when the machine tracks processors, plus the scheduler's own cost.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <queue>
#include <utility>
#include <vector>

#include "schedlab/predict/accuracy.h"
#include "schedlab/predict/predictor.h"
#include "schedlab/sim/result.h"
#include "schedlab/sim/scheduler.h"
#include "schedlab/sim/state.h"
#include "schedlab/workload/workload.h"

namespace schedlab::sim {

// How a fork (Engine::fork) differs from the run it is taken from.
struct ForkOptions {
  // Runtimes from the fork on: the log's (an offline what-if), or the predictions (what an online policy
  // knows): a running job ends at start + its current prediction (or now, when it is overdue), a waiting
  // job runs the prediction it has when it starts, and no job outlives its prediction.
  enum class Runtimes { kLog, kPredicted };
  Runtimes runtimes = Runtimes::kPredicted;
  // false: only the jobs submitted by the fork's instant; the fork ends when they are done.
  bool future_arrivals = false;
};

class Engine {
 public:
  // The workload must outlive the engine (and its copies).
  Engine(const Workload& workload, std::unique_ptr<Scheduler> scheduler,
         std::unique_ptr<predict::Predictor> predictor, const SimOptions& options);
  Engine(const Engine& other);
  Engine& operator=(const Engine& other);
  Engine(Engine&&) noexcept = default;
  Engine& operator=(Engine&&) noexcept = default;
  ~Engine() = default;

  // A copy of this engine at its current instant, with `scheduler` in place of its own and `options`. The
  // new scheduler was told of no earlier event: it sees the state at its first call (a scheduler that keeps
  // its own bookkeeping rebuilds it from the state when they disagree, as conservative does). Throws
  // std::invalid_argument when the scheduler needs processor identities the machine does not track.
  Engine fork(std::unique_ptr<Scheduler> scheduler, const ForkOptions& options) const;

  // An engine that starts from a state snapshot (what a scheduler sees in schedule(): the queue, the running
  // jobs, the machine, at state.now) of a run of `workload`: the jobs neither waiting nor running and
  // submitted by state.now count as done. What an adaptive scheduler uses to run candidates forward from
  // the real state. Throws std::invalid_argument when the snapshot does not belong to the workload.
  static Engine from_state(const Workload& workload, const SimState& state, std::unique_ptr<Scheduler> scheduler,
                           std::unique_ptr<predict::Predictor> predictor, const SimOptions& options,
                           const ForkOptions& fork_options);

  // Processes the next instant (all its events and the scheduler call). False when nothing is left.
  bool step();
  // Runs to the end and checks that every job ran (throws std::logic_error otherwise; for a fork without
  // future arrivals, every job submitted by the fork's instant).
  void run();

  const SimState& state() const { return state_; }
  const Scheduler& scheduler() const { return *scheduler_; }
  // The results so far (metrics are filled in by run()).
  const SimResult& result() const { return result_; }
  SimResult take_result() { return std::move(result_); }

 private:
  using TimedJob = std::pair<int64_t, JobId>;  // (time, job), min-heap
  using MinHeap = std::priority_queue<TimedJob, std::vector<TimedJob>, std::greater<>>;

  void apply_updates();
  void set_prediction(JobId id, int64_t prediction);
  void start_jobs();
  void start_job(JobId id);
  void terminate(JobId id, bool killed);
  void suspend(JobId id);
  // Gives a running job's processors back to the machine; returns them (tracking machines).
  ProcSet release(const RunningJob& r);
  std::vector<RunningJob>::iterator find_running(JobId id);
  void finish();
  int64_t next_time() const;

  const Workload* workload_ = nullptr;
  size_t arrival_end_ = 0;             // jobs [0, arrival_end_) arrive (all, except in a fork without arrivals)
  bool predicted_runtimes_ = false;    // a fork with ForkOptions::Runtimes::kPredicted
  std::vector<int64_t> runtime_;       // per job: the runtime it is simulated with
  size_t done_before_ = 0;             // jobs done before this engine's first instant (from_state)
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<predict::Predictor> predictor_;
  SimOptions options_;
  SimState state_;
  SimResult result_;
  size_t next_arrival_ = 0;
  MinHeap terminations_;
  MinHeap deadlines_;
  enum class Status : uint8_t { kPending, kWaiting, kRunning, kDone };
  std::vector<Status> status_;       // per job
  std::vector<int64_t> prediction_;  // current prediction per job (waiting or running)
  std::vector<int64_t> arrival_prediction_;  // the prediction a job got on arrival
  std::vector<int64_t> eff_start_;   // running: now - time run so far
  std::vector<int64_t> attained_;    // waiting: time run before (suspended jobs)
  std::vector<int64_t> end_at_;      // running: when it terminates (stale heap entries differ)
  std::vector<JobId> suspended_now_; // suspended by the overrun policy at this instant
  predict::AccuracyTracker accuracy_;  // time-weighted prediction accuracy, O(1) per change
  predict::Updates updates_;
  Decision decision_;
  bool predictions_changed_ = false;
  // --check: reservation promises (time, epoch) per job; the epoch changes whenever a running job outlives
  // its prediction or a running job's prediction changes, which voids earlier promises.
  int64_t epoch_ = 0;
  std::vector<std::pair<int64_t, int64_t>> promise_;
  int64_t wake_at_ = std::numeric_limits<int64_t>::max();  // the scheduler's last wake-up request (none: max)
  // Consecutive calls that started nothing and asked for a wake-up with nothing running and no arrival left.
  static constexpr int kMaxIdleWakeups = 1000;
  int idle_wakeups_ = 0;
};

}  // namespace schedlab::sim
