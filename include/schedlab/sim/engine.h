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
  // the real state. Throws std::invalid_argument, saying what is wrong, when the snapshot does not belong to the
  // workload or contradicts itself (a job's processors or submit time not the workload's, a job started after
  // state.now, processors in use other than the running jobs').
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
  // The running job's entry (found by its key in the running list; throws std::logic_error if absent).
  const RunningJob& find_running(JobId id) const;
  RunningJob erase_running(JobId id);
  void finish();
  int64_t next_time() const;

  const Workload* workload_ = nullptr;
  size_t arrival_end_ = 0;             // jobs [0, arrival_end_) arrive (all, except in a fork without arrivals)
  size_t total_ = 0;                   // the jobs this engine sees end (the finish check, the progress total)
  bool predicted_runtimes_ = false;    // a fork with ForkOptions::Runtimes::kPredicted
  // Per job, the runtime it is simulated with when that is not the workload's (forks with predicted runtimes,
  // engines from a snapshot); empty otherwise (8 bytes a job saved): see runtime_of().
  std::vector<int64_t> runtime_;
  int64_t runtime_of(size_t idx) const { return runtime_.empty() ? workload_->jobs[idx].runtime : runtime_[idx]; }
  void own_runtimes();  // fills runtime_ from the workload
  size_t done_before_ = 0;             // jobs done before this engine's first instant (from_state)
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<predict::Predictor> predictor_;
  SimOptions options_;
  SimState state_;
  SimResult result_;
  size_t next_arrival_ = 0;
  MinHeap terminations_;
  MinHeap deadlines_;
  // Feedback (Workload::has_feedback()): the jobs that follow each job as linked lists (first_follower_ by the job
  // followed, next_follower_ by follower; -1 ends), and the arrivals of the followers of jobs that have ended
  // (time, job). The arrival walk (next_arrival_) skips the followers. In a fork without future arrivals, no
  // follower arrives.
  std::vector<JobId> first_follower_, next_follower_;
  MinHeap follower_arrivals_;
  bool followers_arrive_ = true;
  bool follows(size_t idx) const { return !workload_->after.empty() && workload_->after[idx] >= 0; }
  void skip_followers() {
    while (next_arrival_ < arrival_end_ && follows(next_arrival_)) ++next_arrival_;
  }
  void arrive(const Job& job, int64_t t);
  // The job as the predictor is told of it: with feedback, with the submit time the simulation gave it (a copy in
  // seen_job_, valid until the next call).
  Job seen_job_;
  const Job& seen(size_t idx) {
    const Job& j = workload_->jobs[idx];
    if (result_.submit.empty()) return j;
    seen_job_ = j;
    seen_job_.submit = result_.submit[idx];
    return seen_job_;
  }
  enum class Status : uint8_t { kPending, kWaiting, kRunning, kDone };
  // What the engine tracks of a job between its arrival and its end. Kept only for those jobs (a pool of
  // states and a 4-byte slot per job) instead of 41 bytes for every job of the workload.
  struct Live {
    int64_t prediction = 0;          // current prediction (waiting or running)
    int64_t arrival_prediction = 0;  // the prediction it got on arrival
    int64_t eff_start = 0;           // running: now - time run so far
    int64_t attained = 0;            // waiting: time run before (suspended jobs)
    int64_t end_at = -1;             // running: when it terminates (stale heap entries differ)
    Status status = Status::kWaiting;
    uint8_t streak = 0;              // running: deadline misses in a row that raised the prediction by 1 s only
  };
  static constexpr int32_t kPendingSlot = -1, kDoneSlot = -2;
  std::vector<int32_t> slot_;        // per job: its state in live_, or kPendingSlot / kDoneSlot
  std::vector<Live> live_;
  std::vector<int32_t> free_live_;   // free places in live_
  Status status(size_t idx) const {
    const int32_t s = slot_[idx];
    return s >= 0 ? live_[static_cast<size_t>(s)].status : s == kPendingSlot ? Status::kPending : Status::kDone;
  }
  Live& live(size_t idx) { return live_[static_cast<size_t>(slot_[idx])]; }  // (the job is waiting or running)
  const Live& live(size_t idx) const { return live_[static_cast<size_t>(slot_[idx])]; }
  Live& admit(size_t idx);  // a pending job arrives: its state (references to other states may be invalidated)
  void retire(size_t idx);  // a live job is done
  std::vector<JobId> suspended_now_; // suspended by the overrun policy at this instant
  std::vector<JobId> missed_now_;    // ran past their prediction at this instant and run on
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
