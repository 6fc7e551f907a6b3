#include "schedlab/analysis/diversity.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/analysis/distribution.h"
#include "schedlab/base/random.h"

namespace schedlab::analysis {
namespace {

std::vector<double> uniform_sample(size_t n, double lo, double hi, uint64_t seed) {
  base::Rng rng(seed);
  std::vector<double> v(n);
  for (double& x : v) x = lo + (hi - lo) * rng.uniform();
  return v;
}

TEST(Diversity, SameDistributionIsAtTheBaselineAndADifferentOneIsFar) {
  DiversityOptions opt;
  opt.rounds = 50;
  const auto a = uniform_sample(20000, 0, 1, 1);
  const auto b = uniform_sample(20000, 0, 1, 2);
  const auto c = uniform_sample(20000, 0, 0.3, 3);  // concentrated in the lower part
  const DiversityResult same = diversity({a, b}, opt);
  for (const auto& row : same.rows) {
    EXPECT_LT(row.job_weighted, 3 * row.baseline_job_weighted + 0.005);
    EXPECT_LT(row.job_weighted, 0.02);
  }
  const DiversityResult diff = diversity({a, b, c}, opt);
  // c holds a third of the pool; [0, 0.3] covers ~12.8 of the 24 pooled bins, where c has ~1560 jobs
  // a bin against 833 expected: m ~ 0.038 (a and b: ~0.02).
  EXPECT_GT(diff.rows[2].job_weighted, 0.02);
  EXPECT_GT(diff.rows[2].job_weighted, 5 * diff.rows[2].baseline_job_weighted);
  EXPECT_LT(diff.rows[0].job_weighted, diff.rows[2].job_weighted);
}

// The baseline as its definition reads (diversity.h): round k of log l draws n bins by binary search on the
// cumulative shares from Rng::stream(seed, l * 2^20 + k); the median m over the rounds. The library's guided
// search and its threads must give these same numbers.
double naive_baseline(int64_t n, const Bins& bins, const DiversityOptions& o, uint64_t seed, uint64_t l) {
  std::vector<double> cumulative;
  double c = 0;
  for (const double s : bins.shares) cumulative.push_back(c += s);
  std::vector<double> ms;
  for (int k = 0; k < o.rounds; ++k) {
    base::Rng rng = base::Rng::stream(seed, (l << 20) + static_cast<uint64_t>(k));
    std::vector<int64_t> counts(bins.shares.size(), 0);
    for (int64_t i = 0; i < n; ++i) {
      const double u = rng.uniform() * c;
      auto j = static_cast<size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
      ++counts[std::min(j, counts.size() - 1)];
    }
    ms.push_back(max_deviation(counts, n, bins, o.expected));
  }
  std::sort(ms.begin(), ms.end());
  return quantile_sorted(ms, 0.5);
}

TEST(Diversity, BaselineIsTheNaiveDrawOnAnyNumberOfThreads) {
  DiversityOptions opt;
  opt.rounds = 21;
  opt.bins = 7;  // uneven shares: ties in the values make some bins fat
  std::vector<double> a = uniform_sample(3000, 0, 1, 4), b = uniform_sample(2000, 0.2, 2, 5);
  for (size_t i = 0; i < a.size(); i += 3) a[i] = 0.5;
  for (const int threads : {1, 2, 5}) {
    opt.threads = threads;
    size_t last = 0, calls = 0;
    opt.progress = [&](size_t done, size_t total) {
      EXPECT_EQ(total, 2u * 2 * 21);
      EXPECT_GT(done, 0u);
      last = std::max(last, done);
      ++calls;
    };
    const DiversityResult r = diversity({a, b}, opt);
    for (uint64_t l = 0; l < 2; ++l) {
      const auto n = r.rows[l].jobs;
      EXPECT_EQ(r.rows[l].baseline_job_weighted, naive_baseline(n, r.job_weighted_bins, opt, opt.seed, l)) << threads;
      EXPECT_EQ(r.rows[l].baseline_same_weight, naive_baseline(n, r.same_weight_bins, opt, opt.seed ^ 1, l))
          << threads;
    }
    EXPECT_EQ(last, 84u);  // the last call says every round is done
    EXPECT_GE(calls, 1u);
  }
  opt.threads = -1;
  EXPECT_THROW(diversity({a, b}, opt), std::invalid_argument);
}

TEST(Diversity, SameWeightPoolRemovesTheDominanceOfABigLog) {
  DiversityOptions opt;
  opt.rounds = 0;
  const auto big = uniform_sample(90000, 0, 1, 4);     // 90% of the jobs
  const auto small = uniform_sample(10000, 1, 2, 5);   // a disjoint range
  const DiversityResult r = diversity({big, small}, opt);
  // Job-weighted, the pool is nearly `big`: big looks close, small far. Same-weight, both are equally far.
  EXPECT_LT(r.rows[0].job_weighted, r.rows[1].job_weighted);
  EXPECT_NEAR(r.rows[0].same_weight, r.rows[1].same_weight, 0.01);
  EXPECT_NEAR(r.same_weight_bins.shares[0], 1.0 / 24, 1e-3);
}

TEST(Diversity, NeedsTwoNonEmptyLogs) {
  EXPECT_THROW(diversity({{1.0, 2.0}}, {}), std::invalid_argument);
  EXPECT_THROW(diversity({{1.0, 2.0}, {}}, {}), std::invalid_argument);
}

// Locality and diversity validate their shared histogram options the same way, in the library.
TEST(Diversity, RejectsBadBinsAndRoundsLikeLocality) {
  const std::vector<std::vector<double>> logs = {{1, 2, 3, 4}, {2, 3, 4, 5}};
  DiversityOptions o;
  o.bins = 1;
  EXPECT_THROW(diversity(logs, o), std::invalid_argument);
  o.bins = 4;
  o.rounds = -1;
  EXPECT_THROW(diversity(logs, o), std::invalid_argument);
  EXPECT_EQ(parse_expected_counts("uniform"), ExpectedCounts::kUniform);
  EXPECT_EQ(parse_expected_counts("share"), ExpectedCounts::kShare);
  EXPECT_FALSE(parse_expected_counts("Share").has_value());
}

}  // namespace
}  // namespace schedlab::analysis
