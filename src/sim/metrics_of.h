// The metrics of a run from its jobs' times in termination order, read through `get(k)` (a JobTimes for the k-th
// job to end): compute_metrics (sim/metrics.h) over a vector, and the engine over its outcomes without a copy.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "schedlab/sim/metrics.h"

namespace schedlab::sim {

template <class Get>
Metrics metrics_of(size_t n, Get&& get, int64_t machine_procs, int64_t bsld_tau, double warmup_fraction) {
  Metrics m;
  if (n == 0) return m;
  const auto skip = static_cast<size_t>(std::floor(warmup_fraction * static_cast<double>(n)));
  m.warmup_excluded = static_cast<int64_t>(std::min(skip, n));
  m.jobs = static_cast<int64_t>(n) - m.warmup_excluded;

  int64_t first_submit = std::numeric_limits<int64_t>::max(), last_end = std::numeric_limits<int64_t>::min();
  double work = 0;
  const auto run_of = [](const JobTimes& j) { return j.run >= 0 ? j.run : j.end - j.start; };
  for (size_t k = 0; k < n; ++k) {
    const JobTimes j = get(k);
    first_submit = std::min(first_submit, j.submit);
    last_end = std::max(last_end, j.end);
    work += static_cast<double>(j.procs) * static_cast<double>(run_of(j));
  }
  // One metric at a time through one vector (the peak memory of a run is here), in the jobs' order as before:
  // the means add up in the same order and the quantiles see the same input.
  std::vector<double> values;
  values.reserve(n - std::min(skip, n));
  const auto summary_of = [&](auto&& metric) {
    values.clear();
    for (size_t k = skip; k < n; ++k) values.push_back(metric(get(k)));
    return summarize(values);
  };
  m.wait = summary_of([](const JobTimes& j) { return static_cast<double>(j.start - j.submit); });
  m.response = summary_of([](const JobTimes& j) { return static_cast<double>(j.end - j.submit); });
  m.slowdown = summary_of([&](const JobTimes& j) {
    return static_cast<double>(j.end - j.submit) / static_cast<double>(std::max<int64_t>(run_of(j), 1));
  });
  m.bounded_slowdown = summary_of([&](const JobTimes& j) {
    return std::max(1.0, static_cast<double>(j.end - j.submit) / static_cast<double>(std::max(run_of(j), bsld_tau)));
  });
  m.makespan = last_end - first_submit;
  if (m.makespan > 0 && machine_procs > 0) {
    m.utilization = work / (static_cast<double>(machine_procs) * static_cast<double>(m.makespan));
  }
  return m;
}

}  // namespace schedlab::sim
