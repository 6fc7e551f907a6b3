// The metrics of a run from its jobs' times in termination order, read through `get(k)` (a JobTimes for the k-th
// job to end): compute_metrics (sim/metrics.h) over a vector, and the engine over its outcomes without a copy; and
// the rule of a backfilled job, for the engine and the breakdown by class (sim/job_classes.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "schedlab/sim/metrics.h"
#include "schedlab/sim/result.h"

namespace schedlab::sim {

// Calls passed(idx) for every job that passed another (SimResult::backfilled): in arrival order — by JobId, or with
// feedback by (simulated submit, JobId) —, a job that started before the latest start among the jobs ahead of it
// started while that one still waited (it had arrived: its submit is not later). Every job started.
template <class Passed>
void each_passing_job(const SimResult& result, Passed&& passed) {
  const auto& outcomes = result.jobs;
  int64_t latest_start_ahead = std::numeric_limits<int64_t>::min();
  const auto visit = [&](size_t idx) {
    if (outcomes[idx].start < latest_start_ahead) passed(idx);
    latest_start_ahead = std::max(latest_start_ahead, outcomes[idx].start);
  };
  if (result.submit.empty()) {
    for (size_t idx = 0; idx < outcomes.size(); ++idx) visit(idx);
    return;
  }
  std::vector<JobId> order(outcomes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<JobId>(i);
  std::sort(order.begin(), order.end(), [&](JobId a, JobId b) {
    const int64_t sa = result.submit[static_cast<size_t>(a)], sb = result.submit[static_cast<size_t>(b)];
    return sa != sb ? sa < sb : a < b;
  });
  for (const JobId id : order) visit(static_cast<size_t>(id));
}

// summarize() without the mean: the median, 90th percentile and maximum of `values` (reordered in place).
Summary summarize_order_free(std::vector<double>& values);

// `each_kept(f)` calls f(JobTimes) once for every job after the warm-up, in any order (the engine goes by job id,
// reading its outcomes in sequence); the means still add up in termination order, through `get`.
template <class Get, class EachKept>
Metrics metrics_of(size_t n, Get&& get, EachKept&& each_kept, int64_t machine_procs, int64_t bsld_tau,
                   double warmup_fraction) {
  Metrics m;
  if (n == 0) return m;
  const auto skip = static_cast<size_t>(std::floor(warmup_fraction * static_cast<double>(n)));
  m.warmup_excluded = static_cast<int64_t>(std::min(skip, n));
  m.jobs = static_cast<int64_t>(n) - m.warmup_excluded;

  const auto wait = [](const JobTimes& j) { return wait_of(j); };
  const auto response = [](const JobTimes& j) { return response_of(j); };
  const auto slowdown = [](const JobTimes& j) { return slowdown_of(j); };
  const auto bounded = [&](const JobTimes& j) { return bounded_slowdown_of(j, bsld_tau); };

  // One pass in termination order: the span, the work, and the sums of the means (added in that order, as
  // they always were). Then each metric's values, one metric at a time through one vector (8 bytes a job; no copy
  // of the jobs' times), for the order-free parts: median, 90th percentile, maximum.
  int64_t first_submit = std::numeric_limits<int64_t>::max(), last_end = std::numeric_limits<int64_t>::min();
  double work = 0;
  double sum_wait = 0, sum_response = 0, sum_slowdown = 0, sum_bounded = 0;
  for (size_t k = 0; k < n; ++k) {
    const JobTimes j = get(k);
    first_submit = std::min(first_submit, j.submit);
    last_end = std::max(last_end, j.end);
    work += static_cast<double>(j.procs) * static_cast<double>(run_of(j));
    if (k >= skip) {
      sum_wait += wait(j);
      sum_response += response(j);
      sum_slowdown += slowdown(j);
      sum_bounded += bounded(j);
    }
  }
  const auto kept = static_cast<size_t>(m.jobs);
  std::vector<double> values;
  values.reserve(kept);
  const auto summary_of = [&](auto&& metric, double sum) {
    values.clear();
    each_kept([&](const JobTimes& j) { values.push_back(metric(j)); });
    Summary s = summarize_order_free(values);
    if (!values.empty()) s.mean = sum / static_cast<double>(values.size());
    return s;
  };
  m.wait = summary_of(wait, sum_wait);
  m.response = summary_of(response, sum_response);
  m.slowdown = summary_of(slowdown, sum_slowdown);
  m.bounded_slowdown = summary_of(bounded, sum_bounded);
  m.makespan = last_end - first_submit;
  if (m.makespan > 0 && machine_procs > 0) {
    m.utilization = work / (static_cast<double>(machine_procs) * static_cast<double>(m.makespan));
  }
  return m;
}

// The same, the kept jobs read through `get` too.
template <class Get>
Metrics metrics_of(size_t n, Get&& get, int64_t machine_procs, int64_t bsld_tau, double warmup_fraction) {
  const auto skip = std::min(n, static_cast<size_t>(std::floor(warmup_fraction * static_cast<double>(n))));
  return metrics_of(
      n, get,
      [&](auto&& f) {
        for (size_t k = skip; k < n; ++k) f(get(k));
      },
      machine_procs, bsld_tau, warmup_fraction);
}

}  // namespace schedlab::sim
