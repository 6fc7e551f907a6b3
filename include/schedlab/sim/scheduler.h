// Scheduling policies: plug-ins behind this small interface, registered by name in
// src/sim/scheduler_registry.cc (sim/scheduler_registry.h).
//
// Contract:
// - At every instant where something happened (terminations, arrivals, prediction changes) the engine
//   first updates the state and calls the notification hooks (on_termination for each finished job in
//   job-id order, then on_arrival for each arriving job in queue order, then on_prediction_change), then
//   calls schedule() ONCE. schedule() appends to `decision.start` the waiting jobs to start now, in
//   order; the engine starts them in that order (each must be waiting and fit in the processors left
//   free by the previous ones; otherwise the engine throws std::logic_error). Starting a job does not
//   call schedule() again at the same instant.
// - A scheduler may append the reservations it holds ({job, time}: "this job will start no later than
//   time") to `decision.reservations`; with --check the engine verifies that no job starts later than a
//   reservation it was given. A reservation counts as a promise only if no running job was overdue when
//   it was made, and only until a running job outlives its prediction or a running job's prediction
//   changes (after that no policy could keep it); a job's own promise also ends when its prediction grows
//   while it waits (its reservation rested on its old length).
// - Preemption (schedulers that need it): `decision.suspend` lists running jobs to suspend now; the engine
//   suspends them BEFORE starting `decision.start`. A suspended job leaves state.running, keeps the time it
//   has run (WaitingJob::attained), joins the back of state.queue, and is resumed by listing it in
//   `decision.start` again — on exactly the processors it held (state.held) when the machine tracks
//   processors (needs_processors()), so list resumptions before new jobs that could take those processors.
//   New jobs get the lowest-numbered free processors outside `decision.avoid` (use those only if nothing
//   else is free).
// - What happens when a running job outlives its prediction is the scheduler's policy (overrun()): it keeps
//   running (default), is killed (counted as killed; it ran its prediction), or is suspended and re-queued
//   at the back with a fresh prediction (the predictor's, or else time run + its prediction at arrival:
//   "as if resubmitted").
// - A scheduler may ask to be called again at a later time even if nothing happens then
//   (`decision.wake_at`, e.g. the time of a reservation that no termination or arrival will bring): the
//   engine then calls schedule() at that time. Each call's request replaces the previous one.
// - Schedulers see predictions only (WaitingJob/RunningJob::prediction, SimState::expected_end); they
//   must not read Job::runtime.
// - Schedulers are copyable values via clone(): internal state (e.g. an availability profile) is copied.
//   Deterministic; randomness only from SchedulerConfig::seed.
// - Adaptive schedulers (pbas, wbas) run other schedulers as candidates and synchronise them to the real
//   state (on_sync): afterwards the state the scheduler sees is not the one its notifications built. A
//   scheduler that keeps bookkeeping about jobs must then follow the state (rebuild what disagrees).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/sim/state.h"

namespace schedlab::sim {

// What an adaptive scheduler reports (sim/result.h carries it into SimResult).
struct AdaptiveStats {
  struct Candidate {
    std::string spec;
    int64_t active_seconds = 0;  // time this candidate's decisions drove the machine
    int64_t chosen = 0;          // switch points at which it was chosen
  };
  std::string kind;              // "pbas" or "wbas"
  std::vector<Candidate> candidates;
  int64_t switch_points = 0;     // times the choice was made
  int64_t switches = 0;          // times the active candidate changed
};

struct Reservation {
  JobId job = -1;
  int64_t time = 0;  // the job will start no later than this
};

struct Decision {
  std::vector<JobId> start;                // jobs to start (or resume) now, in order
  std::vector<JobId> suspend;              // running jobs to suspend now, before the starts
  ProcSet avoid;                           // processors new jobs should avoid (tracking machines only)
  std::vector<Reservation> reservations;   // optional promises, checked with --check
  int64_t wake_at = -1;                    // call schedule() again at this time (> now); -1: no request
  // Set by the engine under --check: schedulers for which reporting reservations costs extra work may
  // skip it when false. (Input; clear() leaves it alone.)
  bool wants_reservations = false;
  void clear() {
    start.clear();
    suspend.clear();
    avoid.clear();
    reservations.clear();
    wake_at = -1;
  }
};

// Parameters a scheduler factory receives (extensible: named string parameters for later policies).
struct SchedulerConfig {
  uint64_t seed = 0;
  std::map<std::string, std::string> params;
  // Where a relative "@PATH" in the spec (the spec itself, an adaptive scheduler's candidate) is read from:
  // the directory of the file that names it (base::spec_in_dir); empty: the working directory.
  std::string files_dir = {};
};

// What the engine does with a running job that outlives its prediction.
enum class Overrun { kKeepRunning, kKill, kSuspend };

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual std::unique_ptr<Scheduler> clone() const = 0;
  virtual std::string_view name() const = 0;
  // The policy for jobs that outlive their prediction (see above).
  virtual Overrun overrun() const { return Overrun::kKeepRunning; }
  // Whether the scheduler needs processor identities (preemption with resumption in place).
  virtual bool needs_processors() const { return false; }
  // Seconds a resumed job holds its processors before it makes progress again (restoring its memory image;
  // LSF took up to 30 s): the job's end moves that much later at every resumption.
  virtual int64_t resume_delay() const { return 0; }

  // Notifications (default: ignored). Each is called after the state reflects the event.
  // The job has joined state.queue.
  virtual void on_arrival(const SimState& state, const WaitingJob& job) { (void)state, (void)job; }
  // The job started (it is in state.running); called for every job of a decision, in order.
  virtual void on_start(const SimState& state, const RunningJob& job) { (void)state, (void)job; }
  // The job has left state.running and its processors are free again (it ended or was killed).
  virtual void on_termination(const SimState& state, const RunningJob& job) { (void)state, (void)job; }
  // The job was suspended: it left state.running (as `job`), its processors are free, and it waits at the
  // back of state.queue. Called for the engine's suspensions (overrun()) and for decision.suspend.
  virtual void on_suspend(const SimState& state, const RunningJob& job) { (void)state, (void)job; }
  // A waiting or running job's prediction changed from `old_prediction` to the value now in the state.
  virtual void on_prediction_change(const SimState& state, JobId job, int64_t old_prediction) {
    (void)state, (void)job, (void)old_prediction;
  }

  // The state was replaced by another (an adaptive scheduler synchronising its candidates): what the
  // scheduler knows about jobs may be stale; the next schedule() sees `state` (or a later one).
  virtual void on_sync(const SimState& state) { (void)state; }

  // Adaptive schedulers: which candidate was active how long, and the switches (nullptr: not adaptive).
  virtual const AdaptiveStats* adaptive_stats() const { return nullptr; }

  // Decides which waiting jobs start now (see the contract above). `decision` arrives empty.
  virtual void schedule(const SimState& state, Decision& decision) = 0;

 protected:
  Scheduler() = default;
  Scheduler(const Scheduler&) = default;
  Scheduler& operator=(const Scheduler&) = default;
};

}  // namespace schedlab::sim
