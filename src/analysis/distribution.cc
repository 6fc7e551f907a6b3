#include "schedlab/analysis/distribution.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/statistics/univariate_statistics.hpp>

namespace schedlab::analysis {

double quantile_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  p = std::clamp(p, 0.0, 1.0);
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const double lower = std::floor(h);
  const auto i = static_cast<size_t>(lower);
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (h - lower) * (sorted[i + 1] - sorted[i]);
}

Distribution describe(std::vector<double> values) {
  Distribution d;
  d.count = static_cast<int64_t>(values.size());
  if (values.empty()) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    d.min = d.p10 = d.p25 = d.median = d.p75 = d.p90 = d.p99 = d.max = d.mean = d.cv = nan;
    return d;
  }
  std::sort(values.begin(), values.end());
  const std::span<const double> s(values);
  d.min = s.front();
  d.p10 = quantile_sorted(s, 0.10);
  d.p25 = quantile_sorted(s, 0.25);
  d.median = quantile_sorted(s, 0.50);
  d.p75 = quantile_sorted(s, 0.75);
  d.p90 = quantile_sorted(s, 0.90);
  d.p99 = quantile_sorted(s, 0.99);
  d.max = s.back();
  // Boost's one-pass (Welford) mean and population variance: stable for large second counts.
  const double variance = boost::math::statistics::variance(values);
  d.mean = boost::math::statistics::mean(values);
  d.cv = d.mean != 0 ? std::sqrt(variance) / d.mean : std::numeric_limits<double>::quiet_NaN();
  return d;
}

int64_t popular_cover(const std::vector<int64_t>& counts_desc, int64_t total, double fraction) {
  if (total == 0) return 0;
  int64_t sum = 0, k = 0;
  for (const int64_t c : counts_desc) {
    sum += c;
    ++k;
    if (static_cast<double>(sum) >= fraction * static_cast<double>(total)) break;
  }
  return k;
}

EstimateLimit estimate_limit(const std::vector<std::pair<int32_t, int64_t>>& counts) {
  int64_t total = 0;
  for (const auto& [value, jobs] : counts) total += jobs;
  const double least = kLimitMinShare * static_cast<double>(total);
  EstimateLimit l;
  for (const auto& [value, jobs] : counts)
    if (static_cast<double>(jobs) >= least && value > l.value) l = {value, jobs, 0};
  for (const auto& [value, jobs] : counts)
    if (value > l.value) l.above += jobs;
  return l;
}

double ks_statistic(std::vector<double> a, std::vector<double> b) {
  if (a.empty() || b.empty()) return 0;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  size_t i = 0, j = 0;
  double d = 0;
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;  // step over all ties at x on both sides
    while (j < b.size() && b[j] <= x) ++j;
    d = std::max(d, std::fabs(static_cast<double>(i) / na - static_cast<double>(j) / nb));
  }
  return d;
}

}  // namespace schedlab::analysis
