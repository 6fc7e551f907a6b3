// A simulation's metrics by job class: who gains and who pays under a policy. The four classes of Srinivasan et
// al. (2002), by the job's runtime (short: at most `short_runtime` seconds) and size (narrow: at most
// `narrow_procs` processors) — EASY serves short narrow jobs by backfilling them; a policy that favours short jobs
// makes the long wide ones wait. A job's class is set by the workload's runtime (cut at the estimate under
// --kill-at-estimate) and processors; its metrics are those of sim/metrics.h, over the jobs of the averages (the
// warm-up excluded), the means added in termination order as the whole run's are; a job is backfilled as in
// SimResult::backfilled (it started while a job ahead of it in arrival order still waited).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/sim/result.h"
#include "schedlab/workload/workload.h"

namespace schedlab::sim {

struct JobClassLimits {
  int64_t short_runtime = 3600;  // seconds: a job that runs at most this long is short
  int64_t narrow_procs = 8;      // a job of at most this many processors is narrow
};

// The classes' names, in the order of metrics_by_class.
inline constexpr const char* kJobClassNames[4] = {"short narrow", "short wide", "long narrow", "long wide"};

struct JobClassMetrics {
  std::string name;              // one of kJobClassNames
  int64_t jobs = 0;              // of the averages
  double share = 0;              // jobs / the run's jobs of the averages
  double work_share = 0;         // their processors x runtime / the averages' (0 without any work)
  double wait_mean = 0, response_mean = 0, slowdown_mean = 0, bounded_slowdown_mean = 0;  // 0 without jobs
  int64_t backfilled = 0;
  double backfilled_share = 0;   // backfilled / jobs (0 without jobs)
};

// "RUNTIME,PROCS" as users write the limits: a duration (base/duration.h) and a whole number, both positive ("1h,8",
// the defaults; "30m,32"). Throws std::invalid_argument naming the part that is wrong.
JobClassLimits parse_job_class_limits(std::string_view text);
// The limits as parse_job_class_limits reads them ("1h,8").
std::string job_class_limits_text(const JobClassLimits& limits);

// The four classes in the order above. `result` is `workload`'s simulation (ids index workload.jobs); `bsld_tau`
// the run's (SimOptions::bsld_tau). Throws std::invalid_argument when the limits are not positive or the result is
// not of this workload. O(n).
std::vector<JobClassMetrics> metrics_by_class(const workload::Workload& workload, const SimResult& result,
                                              JobClassLimits limits = {}, int64_t bsld_tau = 10);

}  // namespace schedlab::sim
