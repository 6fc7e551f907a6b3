// Simulation metrics (docs/conventions.md), all times in seconds.
//
// Per job: wait = start - submit; response = end - submit;
//   slowdown = max(1, response / max(runtime, 1))   (runtime 0 counts as 1 s, so the slowdown stays finite,
//     and a job that neither waited nor ran has 1, not 0: the bounded slowdown with tau = 1 s);
//   bounded slowdown = max(1, response / max(runtime, tau)), tau = --bsld-tau (default 10 s).
//   runtime is the time the job actually ran in the simulation (JobTimes::run: end - start unless the job
//   was suspended; start is its first start, so wait excludes time spent suspended).
// Averages (wait, response, slowdown, bounded_slowdown) exclude the warm-up: the first
//   floor(warmup_fraction * n) jobs in termination order (the order the engine processed terminations:
//   by end time, ties by job id).
// Each is summarised by mean, median and p90 (linear interpolation between order statistics,
//   i.e. quantile q = x[floor(h)] + (h - floor(h)) * (x[floor(h)+1] - x[floor(h)]), h = q * (n - 1)) and max.
// Over all simulated jobs (warm-up included):
//   utilization = sum(procs * runtime) / (machine procs * (last end - first submit));
//   makespan = last end - first submit. Both 0 for an empty workload or a zero-length span.
#pragma once

#include <cstdint>
#include <vector>

namespace schedlab::sim {

struct Summary {
  double mean = 0, median = 0, p90 = 0, max = 0;
};

// Summary of `values` (reordered in place; O(n)). All zero when empty.
Summary summarize(std::vector<double>& values);

struct Metrics {
  int64_t jobs = 0;             // jobs in the averages
  int64_t warmup_excluded = 0;  // jobs left out of the averages as warm-up
  Summary wait, response, slowdown, bounded_slowdown;
  double utilization = 0;
  int64_t makespan = 0;
};

struct JobTimes {
  int64_t submit = 0, start = 0, end = 0, procs = 0;
  int64_t run = -1;  // seconds run; -1: end - start
};

// One job's metrics, as defined above (the summaries and the breakdowns by class, sim/job_classes.h, use these).
inline int64_t run_of(const JobTimes& j) { return j.run >= 0 ? j.run : j.end - j.start; }
inline double wait_of(const JobTimes& j) { return static_cast<double>(j.start - j.submit); }
inline double response_of(const JobTimes& j) { return static_cast<double>(j.end - j.submit); }
inline double slowdown_of(const JobTimes& j) {
  const double r = static_cast<double>(j.end - j.submit) / static_cast<double>(run_of(j) > 1 ? run_of(j) : 1);
  return r > 1.0 ? r : 1.0;
}
inline double bounded_slowdown_of(const JobTimes& j, int64_t tau) {
  const double r = static_cast<double>(j.end - j.submit) / static_cast<double>(run_of(j) > tau ? run_of(j) : tau);
  return r > 1.0 ? r : 1.0;
}

// Computes the metrics of jobs listed in termination order.
Metrics compute_metrics(const std::vector<JobTimes>& in_termination_order, int64_t machine_procs,
                        int64_t bsld_tau = 10, double warmup_fraction = 0.0);

}  // namespace schedlab::sim
