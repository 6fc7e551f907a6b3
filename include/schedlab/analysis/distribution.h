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
#include <utility>
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

// A log's estimate limit: the largest estimate value at least kLimitMinShare of the jobs with an estimate used
// (`counts`: value -> jobs, any order), and the jobs whose estimate is above it. The site's maximal allowed
// estimate, which Tsafrir et al. find "always one of the more popular estimates"; a log's largest value is often a
// few jobs above it (CEA-Curie: 3 jobs at 2^31 - 1 s over a 24 h limit that 35% of the jobs use). One job in 2,000:
// KTH's 60 h limit holds 0.098% of its jobs; the most popular value above a limit in the 13 shared logs, 0.025%
// (docs/estimate-models.md). Used by `stats` and by the estimate models (T_max, Song's cap).
inline constexpr double kLimitMinShare = 0.0005;
struct EstimateLimit {
  int32_t value = 0;   // 0 when no job has an estimate
  int64_t jobs = 0;    // jobs at the limit
  int64_t above = 0;   // jobs above it
};
EstimateLimit estimate_limit(const std::vector<std::pair<int32_t, int64_t>>& counts);

// Two-sample Kolmogorov-Smirnov statistic sup |F_a(x) - F_b(x)| (samples in any order; copies are sorted; ties
// stepped over together on both sides). 0 when either is empty.
double ks_statistic(std::vector<double> a, std::vector<double> b);

}  // namespace schedlab::analysis
