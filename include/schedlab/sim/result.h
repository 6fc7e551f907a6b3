// What a simulation is asked (SimOptions) and what it gives (SimResult, one JobOutcome per job): the types
// the engine (sim/engine.h) and simulate() (sim/simulate.h) share.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "schedlab/predict/accuracy.h"
#include "schedlab/workload/job.h"
#include "schedlab/workload/workload.h"
#include "schedlab/sim/metrics.h"
#include "schedlab/sim/scheduler.h"

namespace schedlab::sim {

// The job model and the workload (workload/) are the simulator's input.
using workload::Job;
using workload::JobId;
using workload::Workload;
using workload::WorkloadOptions;
using workload::build_workload;

struct SimOptions {
  bool check = false;
  int64_t bsld_tau = 10;          // seconds, > 0
  double warmup_fraction = 0.0;   // in [0, 1)
  uint64_t seed = 0;              // passed to the scheduler and predictor factories (by-name overload)
  // Called now and then while simulating (at most every 1,024 instants and 0.2 s), with the jobs ended so far
  // and the jobs to simulate; for a long run's progress display. Not copied into forks.
  std::function<void(size_t done, size_t total)> progress;
};

struct JobOutcome {
  int64_t start = -1;  // first start
  int64_t end = -1;
  int64_t prediction_at_start = -1;
  int64_t ran = 0;          // seconds run in all (end - start unless suspended)
  int32_t suspensions = 0;  // times suspended by a preemptive scheduler
  bool killed = false;      // killed by the scheduler's overrun policy (not --kill-at-estimate)
};

struct SimResult {
  std::string scheduler;
  std::string predictor;
  int64_t procs = 0;
  std::vector<JobOutcome> jobs;        // indexed by JobId
  // With feedback (Workload::has_feedback()): every job's simulated submit time, by JobId — a job that follows
  // another arrives its think time after that one ended. Empty otherwise: jobs arrive at Workload::jobs[i].submit.
  std::vector<int64_t> submit;
  int64_t submitted(const Workload& w, size_t idx) const { return submit.empty() ? w.jobs[idx].submit : submit[idx]; }
  std::vector<JobId> termination_order;
  Metrics metrics;
  // Accuracy of the predictions the scheduler used (predict/accuracy.h): per job (by JobId), and summarised
  // over the jobs of the averages (warm-up excluded).
  std::vector<predict::JobAccuracy> job_accuracy;
  predict::AccuracySummary accuracy;
  int64_t scheduler_calls = 0;
  int64_t deadline_misses = 0;
  // Deadline misses after which the job ran on with no longer prediction (no correction raised it): overdue,
  // the scheduler took it to end at once until it did, and reservations behind it promised nothing.
  int64_t overdue_misses = 0;
  // Jobs that missed a deadline every second for a minute or more (predict::kSecondBySecondStreak misses in a row,
  // each raising the prediction by one second only): the predictor has stopped predicting them, and the scheduler
  // redoes its reservations every second. A no-estimate SBH capped below the job's runtime does this
  // (docs/predictors.md).
  int64_t second_by_second_jobs = 0;
  // Jobs of the averages (warm-up excluded) that started while a job ahead of them in arrival order (submitted
  // earlier, or in the same second with a lower JobId) still waited: they passed it — EASY's "backfilled" (Talby
  // §2.1, Figure 17), or moved ahead by a policy that reorders its queue (lewf, SJBF's candidates). First starts
  // (a preempted job's later resumptions do not count). FCFS: 0 by construction.
  int64_t backfilled = 0;
  // backfilled / the jobs of the averages (0 without any).
  double backfilled_share() const {
    return metrics.jobs > 0 ? static_cast<double>(backfilled) / static_cast<double>(metrics.jobs) : 0.0;
  }
  // Loss of capacity (Zotkin & Keleher 1999): the processor-seconds left idle while at least one job waited (was
  // submitted and not running: queued, or suspended), over the whole run (warm-up included, as the utilization);
  // and that as a share of the machine's capacity over the makespan. What a policy wastes that the load does not
  // explain: fragmentation, reservations that hold processors, a queue order that blocks. 0 without a span.
  double idle_while_waiting = 0;
  double loss_of_capacity() const {
    return metrics.makespan > 0 && procs > 0
               ? idle_while_waiting / (static_cast<double>(procs) * static_cast<double>(metrics.makespan))
               : 0.0;
  }
  int64_t suspensions = 0;             // by preemptive schedulers (sum over jobs)
  int64_t kills = 0;                   // jobs killed by the scheduler's overrun policy
  int64_t reservations_checked = 0;    // reservations verified by --check
  double wall_time_s = 0;              // time spent simulating (not reading the log)
  std::optional<AdaptiveStats> adaptive;  // adaptive schedulers (pbas, wbas): candidates' time and switches
};

}  // namespace schedlab::sim
