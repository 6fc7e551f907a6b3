#include "schedlab/sim/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace schedlab::sim {

// Quantile q by linear interpolation between order statistics, in O(n) (values are reordered).
static double quantile(std::vector<double>& values, double q) {
  const double h = q * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(h));
  auto nth = values.begin() + static_cast<std::ptrdiff_t>(lo);
  std::nth_element(values.begin(), nth, values.end());
  const double a = *nth;
  if (lo + 1 >= values.size()) return a;
  const double b = *std::min_element(nth + 1, values.end());
  return a + (h - static_cast<double>(lo)) * (b - a);
}

Summary summarize(std::vector<double>& values) {
  Summary s;
  if (values.empty()) return s;
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  s.max = *std::max_element(values.begin(), values.end());
  s.median = quantile(values, 0.5);
  s.p90 = quantile(values, 0.9);
  return s;
}

Metrics compute_metrics(const std::vector<JobTimes>& jobs, int64_t machine_procs, int64_t bsld_tau,
                        double warmup_fraction) {
  Metrics m;
  if (jobs.empty()) return m;
  const auto n = jobs.size();
  const auto skip = static_cast<size_t>(std::floor(warmup_fraction * static_cast<double>(n)));
  m.warmup_excluded = static_cast<int64_t>(std::min(skip, n));
  m.jobs = static_cast<int64_t>(n) - m.warmup_excluded;

  std::vector<double> wait, response, slowdown, bsld;
  wait.reserve(n);
  response.reserve(n);
  slowdown.reserve(n);
  bsld.reserve(n);
  int64_t first_submit = std::numeric_limits<int64_t>::max(), last_end = std::numeric_limits<int64_t>::min();
  double work = 0;
  for (size_t k = 0; k < n; ++k) {
    const JobTimes& j = jobs[k];
    const int64_t run = j.run >= 0 ? j.run : j.end - j.start;
    first_submit = std::min(first_submit, j.submit);
    last_end = std::max(last_end, j.end);
    work += static_cast<double>(j.procs) * static_cast<double>(run);
    if (k < skip) continue;
    const auto resp = static_cast<double>(j.end - j.submit);
    wait.push_back(static_cast<double>(j.start - j.submit));
    response.push_back(resp);
    slowdown.push_back(resp / static_cast<double>(std::max<int64_t>(run, 1)));
    bsld.push_back(std::max(1.0, resp / static_cast<double>(std::max(run, bsld_tau))));
  }
  m.wait = summarize(wait);
  m.response = summarize(response);
  m.slowdown = summarize(slowdown);
  m.bounded_slowdown = summarize(bsld);
  m.makespan = last_end - first_submit;
  if (m.makespan > 0 && machine_procs > 0) {
    m.utilization = work / (static_cast<double>(machine_procs) * static_cast<double>(m.makespan));
  }
  return m;
}

}  // namespace schedlab::sim
