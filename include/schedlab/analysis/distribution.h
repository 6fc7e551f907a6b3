// Summary statistics of a sample of numbers: quantiles, mean and coefficient of variation.
//
// Definitions (binding for every figure schedlab prints from this header):
// - Quantile: linear interpolation between order statistics, Hyndman & Fan type 7 (the default of R,
//   NumPy and Excel's PERCENTILE): for the sorted sample x[0..n-1] and probability p in [0, 1],
//   h = (n - 1) p, Q(p) = x[floor(h)] + (h - floor(h)) (x[floor(h) + 1] - x[floor(h)]).
//   So Q(0) = min, Q(1) = max, and the median of an even-sized sample is the mean of the two middle values.
// - Mean: arithmetic mean.
// - Coefficient of variation: population standard deviation (divide by n) over the mean; NaN when the
//   mean is 0.
// - An empty sample has count 0 and every other figure NaN.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace schedlab::analysis {

struct Distribution {
  int64_t count = 0;  // number of values described
  double min = 0, p10 = 0, p25 = 0, median = 0, p75 = 0, p90 = 0, p99 = 0, max = 0;
  double mean = 0;
  double cv = 0;  // coefficient of variation: population standard deviation / mean
};

// Type-7 quantile of an ascending-sorted, non-empty sample; p is clamped to [0, 1].
double quantile_sorted(std::span<const double> sorted, double p);

// Describes `values` (in any order; the vector is sorted in place).
Distribution describe(std::vector<double> values);

// Popularity cover: the smallest k such that the k largest counts (`counts_desc`, in descending order) sum
// to at least `fraction` of `total` (0 when total is 0). Used for "how many of the most popular estimate
// values cover 50% of the jobs" by `stats` and by the estimate models.
int64_t popular_cover(const std::vector<int64_t>& counts_desc, int64_t total, double fraction);

// Two-sample Kolmogorov-Smirnov statistic sup |F_a(x) - F_b(x)| (samples in any order; copies are sorted; ties
// stepped over together on both sides). 0 when either is empty.
double ks_statistic(std::vector<double> a, std::vector<double> b);

}  // namespace schedlab::analysis
