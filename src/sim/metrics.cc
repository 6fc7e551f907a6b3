#include "schedlab/sim/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "sim/metrics_of.h"

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

Summary summarize_order_free(std::vector<double>& values) {
  Summary s;
  if (values.empty()) return s;
  s.max = *std::max_element(values.begin(), values.end());
  s.median = quantile(values, 0.5);
  s.p90 = quantile(values, 0.9);
  return s;
}

Summary summarize(std::vector<double>& values) {
  if (values.empty()) return {};
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  Summary s = summarize_order_free(values);
  s.mean = mean;
  return s;
}

Metrics compute_metrics(const std::vector<JobTimes>& jobs, int64_t machine_procs, int64_t bsld_tau,
                        double warmup_fraction) {
  return metrics_of(jobs.size(), [&](size_t k) { return jobs[k]; }, machine_procs, bsld_tau, warmup_fraction);
}

}  // namespace schedlab::sim
