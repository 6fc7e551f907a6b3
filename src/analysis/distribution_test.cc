#include "schedlab/analysis/distribution.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace schedlab::analysis {
namespace {

TEST(Distribution, Type7QuantilesOfFourValues) {
  // R: quantile(c(1, 2, 3, 4), c(.1, .25, .5, .75, .9, .99)) = 1.3 1.75 2.5 3.25 3.7 3.97
  const Distribution d = describe({4, 1, 3, 2});
  EXPECT_EQ(d.count, 4);
  EXPECT_DOUBLE_EQ(d.min, 1);
  EXPECT_DOUBLE_EQ(d.p10, 1.3);
  EXPECT_DOUBLE_EQ(d.p25, 1.75);
  EXPECT_DOUBLE_EQ(d.median, 2.5);
  EXPECT_DOUBLE_EQ(d.p75, 3.25);
  EXPECT_DOUBLE_EQ(d.p90, 3.7);
  EXPECT_NEAR(d.p99, 3.97, 1e-12);
  EXPECT_DOUBLE_EQ(d.max, 4);
  EXPECT_DOUBLE_EQ(d.mean, 2.5);
  // population sd = sqrt(((1.5^2 + 0.5^2) * 2) / 4) = sqrt(1.25)
  EXPECT_NEAR(d.cv, std::sqrt(1.25) / 2.5, 1e-12);
}

TEST(Distribution, QuantilesOfZeroToHundredAreThePercentages) {
  std::vector<double> v;
  for (int i = 100; i >= 0; --i) v.push_back(i);
  const Distribution d = describe(v);
  EXPECT_DOUBLE_EQ(d.p10, 10);
  EXPECT_DOUBLE_EQ(d.p25, 25);
  EXPECT_DOUBLE_EQ(d.median, 50);
  EXPECT_DOUBLE_EQ(d.p75, 75);
  EXPECT_DOUBLE_EQ(d.p90, 90);
  EXPECT_DOUBLE_EQ(d.p99, 99);
  EXPECT_DOUBLE_EQ(d.max, 100);
}

TEST(Distribution, OddSampleMedianIsTheMiddleValue) {
  const Distribution d = describe({50, 10, 40, 20, 30});
  EXPECT_DOUBLE_EQ(d.median, 30);
  EXPECT_DOUBLE_EQ(d.p25, 20);
  EXPECT_DOUBLE_EQ(d.p10, 14);  // h = 0.4: 10 + 0.4 * 10
  EXPECT_DOUBLE_EQ(d.mean, 30);
}

TEST(Distribution, SingleValue) {
  const Distribution d = describe({7});
  EXPECT_EQ(d.count, 1);
  EXPECT_DOUBLE_EQ(d.min, 7);
  EXPECT_DOUBLE_EQ(d.p99, 7);
  EXPECT_DOUBLE_EQ(d.max, 7);
  EXPECT_DOUBLE_EQ(d.cv, 0);
}

TEST(Distribution, EmptyIsNaN) {
  const Distribution d = describe({});
  EXPECT_EQ(d.count, 0);
  EXPECT_TRUE(std::isnan(d.median));
  EXPECT_TRUE(std::isnan(d.mean));
  EXPECT_TRUE(std::isnan(d.cv));
}

TEST(Distribution, CvUndefinedForZeroMean) {
  EXPECT_TRUE(std::isnan(describe({0, 0, 0}).cv));
  EXPECT_DOUBLE_EQ(describe({0, 0, 0}).mean, 0);
}

TEST(Distribution, QuantileClampsProbability) {
  const std::vector<double> v = {1, 2, 3};
  EXPECT_DOUBLE_EQ(quantile_sorted(v, -1), 1);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 2), 3);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.75), 2.5);
}

TEST(Distribution, LargeValuesKeepPrecision) {
  // Seconds near the 32-bit limit: the mean and cv must not lose the small spread.
  const Distribution d = describe({2e9, 2e9 + 2, 2e9 + 4});
  EXPECT_DOUBLE_EQ(d.mean, 2e9 + 2);
  EXPECT_NEAR(d.cv, std::sqrt(8.0 / 3.0) / (2e9 + 2), 1e-15);
}

// Hand-computed: 4,000 jobs, so the limit needs 2 (1 in 2,000). 10 h with exactly 2 jobs is the limit; 100 h
// (1 job) and 2^31 - 1 s (1 job) are above it. Order does not matter; with no job there is no limit.
TEST(EstimateLimit, TheLargestValueOneJobIn2000Used) {
  std::vector<std::pair<int32_t, int64_t>> counts = {{360000, 1}, {3600, 3996}, {2147483647, 1}, {36000, 2}};
  EstimateLimit l = estimate_limit(counts);
  EXPECT_EQ(l.value, 36000);
  EXPECT_EQ(l.jobs, 2);
  EXPECT_EQ(l.above, 2);
  counts[3].second = 1;  // 1 of 3,999 jobs at 10 h: below 1 in 2,000
  l = estimate_limit(counts);
  EXPECT_EQ(l.value, 3600);
  EXPECT_EQ(l.jobs, 3996);
  EXPECT_EQ(l.above, 3);
  l = estimate_limit({{60, 1}, {7200, 1}});  // fewer than 2,000 jobs: every value is used enough
  EXPECT_EQ(l.value, 7200);
  EXPECT_EQ(l.above, 0);
  l = estimate_limit({});
  EXPECT_EQ(l.value, 0);
  EXPECT_EQ(l.jobs + l.above, 0);
}

TEST(KsStatistic, SimpleCases) {
  EXPECT_DOUBLE_EQ(ks_statistic({1, 2, 3}, {3, 2, 1}), 0.0);
  EXPECT_DOUBLE_EQ(ks_statistic({1, 2}, {3, 4}), 1.0);
  EXPECT_DOUBLE_EQ(ks_statistic({1, 2, 3, 4}, {1, 2}), 0.5);
  EXPECT_DOUBLE_EQ(ks_statistic({5, 5, 5}, {5}), 0.0);  // ties are stepped over together
  EXPECT_DOUBLE_EQ(ks_statistic({}, {1}), 0.0);
}

}  // namespace
}  // namespace schedlab::analysis
