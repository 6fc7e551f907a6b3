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

  // One pass over the jobs (through `get`, which may read scattered outcomes) keeps the three numbers every metric
  // needs, 24 bytes a job; then one metric at a time through one vector. The values are the same, in the same
  // order as ever: the means add up in the same order and the quantiles see the same input.
  struct Times {
    int64_t wait, response, run;
  };
  std::vector<Times> kept;
  kept.reserve(n - std::min(skip, n));
  int64_t first_submit = std::numeric_limits<int64_t>::max(), last_end = std::numeric_limits<int64_t>::min();
  double work = 0;
  for (size_t k = 0; k < n; ++k) {
    const JobTimes j = get(k);
    const int64_t run = j.run >= 0 ? j.run : j.end - j.start;
    first_submit = std::min(first_submit, j.submit);
    last_end = std::max(last_end, j.end);
    work += static_cast<double>(j.procs) * static_cast<double>(run);
    if (k >= skip) kept.push_back({j.start - j.submit, j.end - j.submit, run});
  }
  std::vector<double> values;
  values.reserve(kept.size());
  const auto summary_of = [&](auto&& metric) {
    values.clear();
    for (const Times& t : kept) values.push_back(metric(t));
    return summarize(values);
  };
  m.wait = summary_of([](const Times& t) { return static_cast<double>(t.wait); });
  m.response = summary_of([](const Times& t) { return static_cast<double>(t.response); });
  m.slowdown = summary_of([](const Times& t) {
    return static_cast<double>(t.response) / static_cast<double>(std::max<int64_t>(t.run, 1));
  });
  m.bounded_slowdown = summary_of([&](const Times& t) {
    return std::max(1.0, static_cast<double>(t.response) / static_cast<double>(std::max(t.run, bsld_tau)));
  });
  m.makespan = last_end - first_submit;
  if (m.makespan > 0 && machine_procs > 0) {
    m.utilization = work / (static_cast<double>(machine_procs) * static_cast<double>(m.makespan));
  }
  return m;
}

}  // namespace schedlab::sim
