// The historical profiler (predict/profiler.h) and its predictor (predict/profiler_predictor.h).
// Expected values are the spec's worked examples or were computed by hand / independently (30-digit mpmath:
// exact weighted least squares with the normal equations, Student-t quantiles from the regularised incomplete
// beta function), never copied from this code's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "schedlab/predict/profiler.h"
#include "schedlab/predict/profiler_predictor.h"
#include "schedlab/predict/registry.h"
#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab {
namespace {
// Student-t quantiles (independent: mpmath, 30 digits).
constexpr double kT60_975 = 2.00029782201426010;
constexpr double kT6_975 = 2.44691185114496932;
constexpr double kT2_975 = 4.30265272974946179;
constexpr double kT3_975 = 3.18244630528370844;
constexpr double kT4_975 = 2.77644510519779349;
constexpr double kT11_975 = 2.20098516009163936;
constexpr double kT4_80 = 0.940964577235181364;
}  // namespace
}  // namespace schedlab

namespace schedlab::predict::profiler {
namespace {


TEST(ProfilerBucketsTest, ProcessorAndElapsedBuckets) {
  // ⌈log2 p⌉: {1}, {2}, {3,4}, {5..8}, {9..16}, ...
  EXPECT_EQ(proc_bucket(1), 0);
  EXPECT_EQ(proc_bucket(2), 1);
  EXPECT_EQ(proc_bucket(3), 2);
  EXPECT_EQ(proc_bucket(4), 2);
  EXPECT_EQ(proc_bucket(5), 3);
  EXPECT_EQ(proc_bucket(8), 3);
  EXPECT_EQ(proc_bucket(9), 4);
  EXPECT_EQ(proc_bucket(16), 4);
  EXPECT_EQ(proc_bucket(17), 5);
  EXPECT_EQ(proc_bucket(2147483647), 31);
  // Base 2 in seconds: 0 → 0, [2^(k−1), 2^k) → k.
  EXPECT_EQ(elapsed_bucket(0), 0);
  EXPECT_EQ(elapsed_bucket(1), 1);
  EXPECT_EQ(elapsed_bucket(2), 2);
  EXPECT_EQ(elapsed_bucket(3), 2);
  EXPECT_EQ(elapsed_bucket(4), 3);
  EXPECT_EQ(elapsed_bucket(1023), 10);
  EXPECT_EQ(elapsed_bucket(1024), 11);
  EXPECT_EQ(elapsed_bucket(2147483647), 31);
}

TEST(ProfilerRunEntryTest, ExactSums) {
  RunEntry e;
  e.add(10, 4);
  e.add(20, 4);
  e.add(30, 3);
  EXPECT_EQ(e.n, 3);
  EXPECT_EQ(e.sum_t, 60);
  EXPECT_EQ(e.sum_t2, Uint128{1400});
  EXPECT_EQ(e.sum_p, 11);
  EXPECT_DOUBLE_EQ(e.mean(), 20.0);
  EXPECT_DOUBLE_EQ(e.variance(), 100.0);
  EXPECT_DOUBLE_EQ(e.mean_procs(), 11.0 / 3);
  // Σt² ≈ 9.2e18 is beyond double precision, yet the variance of {2^31 − 1, 2^31 − 2} is exactly 0.5.
  RunEntry big;
  big.add(2147483647, 1);
  big.add(2147483646, 1);
  EXPECT_EQ(to_string(big.sum_t2), "9223372023969873925");
  EXPECT_DOUBLE_EQ(big.variance(), 0.5);
  Uint128 v = 0;
  EXPECT_TRUE(parse_uint128("9223372023969873925", v));
  EXPECT_EQ(v, big.sum_t2);
  EXPECT_TRUE(parse_uint128("340282366920938463463374607431768211455", v));  // 2^128 − 1
  EXPECT_FALSE(parse_uint128("340282366920938463463374607431768211456", v));
  EXPECT_FALSE(parse_uint128("", v));
  EXPECT_FALSE(parse_uint128("-1", v));
  EXPECT_FALSE(parse_uint128("12a", v));
}

// A category's sums by processor bucket, counting only the elapsed buckets at or above the one asked for (the
// jobs that ran at least as long as a running job already has), and the points the fit takes.
TEST(ProfilerCategoryTest, BucketAndPointsSumTheElapsedBucketsFromTheMinimum) {
  Category c;
  const auto entry = [](std::initializer_list<int64_t> runtimes, int64_t procs) {
    RunEntry e;
    for (const int64_t t : runtimes) e.add(t, procs);
    return e;
  };
  c.add(2, 1, entry({10, 12}, 4));
  c.add(2, 3, entry({400}, 4));
  c.add(2, 5, entry({5000, 7000}, 4));
  c.add(4, 3, entry({300}, 16));
  EXPECT_EQ(c.bucket(2, 0), entry({10, 12, 400, 5000, 7000}, 4));  // every elapsed bucket
  EXPECT_EQ(c.bucket(2, 3), entry({400, 5000, 7000}, 4));
  EXPECT_EQ(c.bucket(2, 4), entry({5000, 7000}, 4));
  EXPECT_EQ(c.bucket(2, 6).n, 0);
  EXPECT_EQ(c.bucket(3, 0).n, 0);  // no such processor bucket
  EXPECT_EQ(c.bucket(9, 0).n, 0);
  const auto points = c.points(4);
  ASSERT_EQ(points.size(), 1u);  // bucket 4 has nothing at or above elapsed bucket 4
  EXPECT_EQ(points[0].first, 2);
  EXPECT_EQ(points[0].second, entry({5000, 7000}, 4));
  EXPECT_EQ(c.points(0).size(), 2u);
}

// The thesis's worked example (spec): p = 1, 4, 8; means 8350, 2500, 1700; σ 4175, 1250, 850; n = 60.
TEST(ProfilerFitTest, ThesisWorkedExample) {
  const auto f = ExecutionTime::fit({{1, 8350, 4175.0 * 4175, 20}, {4, 2500, 1250.0 * 1250, 20},
                                     {8, 1700, 850.0 * 850, 20}});
  ASSERT_TRUE(f.has_value());
  EXPECT_NEAR(f->coefficients()[0], 8000, 1e-6);
  EXPECT_NEAR(f->coefficients()[1], 300, 1e-6);
  EXPECT_NEAR(f->coefficients()[2], 50, 1e-6);
  EXPECT_EQ(f->observations(), 60);
  const auto r = f->estimate_time(16, 0.95);
  EXPECT_NEAR(r.estimate, 1600, 1e-6);
  // Three points determine the fit, so (X'V⁻¹X)⁻¹ = X⁻¹V X⁻ᵀ and X0'(X'V⁻¹X)⁻¹X0 = Σ w_i² σ_i² with
  // w = X⁻ᵀX0 = [2/7, −5/2, 45/14]: 914003750/49 (by hand, exact fractions). ν = n = 60.
  EXPECT_NEAR(r.std_error * r.std_error, 914003750.0 / 49, 1e-3);
  EXPECT_DOUBLE_EQ(r.dof, 60);
  EXPECT_NEAR(r.half_width, kT60_975 * std::sqrt(914003750.0 / 49), 1e-6);
  // The covariance (X'V⁻¹X)⁻¹ is kept: X0'·cov·X0 gives the same variance.
  const auto& c = f->covariance();
  const double x0[3] = {1.0 / 16, 1, 16};
  double q = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) q += x0[i] * c[static_cast<size_t>(i)][static_cast<size_t>(j)] * x0[j];
  EXPECT_NEAR(q, 914003750.0 / 49, 1e-2);
  EXPECT_THROW(f->estimate_time(16, 1.0), std::invalid_argument);
  EXPECT_THROW(f->estimate_time(0, 0.95), std::invalid_argument);
}

// The fit against the normal equations solved directly, (X'V⁻¹X) b = X'V⁻¹Y, in long double: the QR solver on up to
// 64 points (fixed capacity) and on more (dynamic) agree with it, on points that do not lie on one curve.
TEST(ProfilerFitTest, AgreesWithTheNormalEquationsOnManyPoints) {
  for (const size_t count : {3u, 10u, 64u, 65u, 200u}) {
    SCOPED_TRACE(count);
    std::vector<FitPoint> points;
    for (size_t i = 0; i < count; ++i) {
      const double p = 1.0 + static_cast<double>(i) * 1.5;
      const double wobble = static_cast<double>((i * 7919) % 13) - 6.0;  // deterministic, not on the curve
      points.push_back({p, 5000.0 / p + 200.0 + 3.0 * p + 40.0 * wobble, 100.0 + 10.0 * static_cast<double>(i % 5),
                        10});
    }
    long double m[3][4] = {};  // [X'V⁻¹X | X'V⁻¹Y]
    for (const FitPoint& pt : points) {
      const long double x[3] = {1.0L / pt.procs, 1.0L, static_cast<long double>(pt.procs)};
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) m[r][c] += x[r] * x[c] / pt.variance;
        m[r][3] += x[r] * pt.mean / pt.variance;
      }
    }
    for (int k = 0; k < 3; ++k)  // Gauss-Jordan (the matrix is positive definite: no pivoting needed)
      for (int r = 0; r < 3; ++r)
        if (r != k) {
          const long double f = m[r][k] / m[k][k];
          for (int c = k; c < 4; ++c) m[r][c] -= f * m[k][c];
        }
    const auto fit = ExecutionTime::fit(points);
    ASSERT_TRUE(fit.has_value());
    for (int k = 0; k < 3; ++k) {
      const double want = static_cast<double>(m[k][3] / m[k][k]);
      EXPECT_NEAR(fit->coefficients()[static_cast<size_t>(k)], want, 1e-7 * std::max(1.0, std::abs(want))) << k;
    }
    EXPECT_EQ(fit->observations(), static_cast<int64_t>(count) * 10);
  }
}

TEST(ProfilerFitTest, NeedsThreeDistinctPointsWithVariance) {
  EXPECT_FALSE(ExecutionTime::fit({{1, 10, 1, 2}, {2, 8, 1, 2}}).has_value());
  EXPECT_FALSE(ExecutionTime::fit({{2, 10, 1, 2}, {2, 8, 1, 2}, {2, 9, 1, 2}}).has_value());  // rank 1
  EXPECT_FALSE(ExecutionTime::fit({{1, 10, 0, 2}, {2, 8, 1, 2}, {4, 9, 1, 2}}).has_value());  // zero variance
}

// The thesis's Welch example (spec): n = 30, m = 40, means 700/300, sd 900/500, d0 = 300.
TEST(ProfilerWelchTest, ThesisExample) {
  const auto r95 = welch_test(700, 900, 30, 300, 500, 40, 300, 0.95);
  EXPECT_NEAR(r95.t, 0.548408497107082, 1e-12);
  EXPECT_NEAR(r95.dof, 42.2946528801047, 1e-10);
  EXPECT_NEAR(r95.critical, 1.682, 5e-4);           // the thesis's t(42.29, 0.95)
  EXPECT_NEAR(r95.critical, 1.68168814718986, 1e-9);  // mpmath
  EXPECT_FALSE(r95.accepted);
  const auto r60 = welch_test(700, 900, 30, 300, 500, 40, 300, 0.60);
  EXPECT_NEAR(r60.critical, 0.255, 5e-4);
  EXPECT_NEAR(r60.critical, 0.254946583066233, 1e-9);
  EXPECT_TRUE(r60.accepted);
  // The general form on estimates gives the same numbers (se² = s²/n, ν = n − 1).
  Estimate a, b;
  a.ok = b.ok = true;
  a.estimate = 700;
  a.std_error = 900 / std::sqrt(30.0);
  a.dof = 29;
  b.estimate = 300;
  b.std_error = 500 / std::sqrt(40.0);
  b.dof = 39;
  const auto g = welch_test(a, b, 300, 0.95);
  EXPECT_NEAR(g.t, r95.t, 1e-12);
  EXPECT_NEAR(g.dof, r95.dof, 1e-9);
  EXPECT_FALSE(g.accepted);
  EXPECT_THROW(welch_test(700, 900, 1, 300, 500, 40, 300, 0.95), std::invalid_argument);
  EXPECT_THROW(welch_test(700, 900, 30, 300, 500, 40, 300, 0.0), std::invalid_argument);
  // No spread on either side: the verdict is the sign of the difference.
  EXPECT_TRUE(welch_test(700, 0, 5, 300, 0, 5, 300, 0.95).accepted);
  EXPECT_FALSE(welch_test(600, 0, 5, 300, 0, 5, 300, 0.95).accepted);
}

TEST(ProfilerCorrectionTest, RuleAndDecision) {
  // E = 1000, CI = 100: the rule fires only when E + 3·CI = 1300 < R.
  EXPECT_DOUBLE_EQ(corrected_estimate(1000, 100, 1200), 1000);  // not yet: E kept
  EXPECT_DOUBLE_EQ(corrected_estimate(1000, 100, 1300), 1000);  // 1300 is not < 1300
  // Decision case 1 < R/E <= 1.5: ⌈1.4 − 0.5⌉·E = 1000 < R, raised to ⌈1.4⌉·E = 2000.
  EXPECT_DOUBLE_EQ(corrected_estimate(1000, 100, 1400), 2000);
  EXPECT_DOUBLE_EQ(corrected_estimate(1000, 100, 1500), 2000);
  EXPECT_DOUBLE_EQ(corrected_estimate(1000, 100, 1800), 2000);  // thesis ⌈1.3⌉ = 2 already
  EXPECT_DOUBLE_EQ(corrected_estimate(1000, 100, 2600), 3000);  // thesis ⌈2.1⌉ = 3
  EXPECT_DOUBLE_EQ(corrected_estimate(1000, 100, 2200), 3000);  // thesis ⌈1.7⌉ = 2 → 2000 < R; ⌈2.2⌉ = 3
  EXPECT_DOUBLE_EQ(corrected_estimate(1000, 100, 3000), 3000);  // exact multiple
  EXPECT_DOUBLE_EQ(corrected_estimate(1000, 0, 1001), 2000);
  EXPECT_DOUBLE_EQ(corrected_estimate(0, 0, 50), 50);  // E = 0 cannot be scaled
}

// exe 7, user 1: T(p) = 8000/p + 300 + 50p exactly at p = 1, 4, 8 (two jobs each, s² = 20000);
// exe 9, user 1: three jobs on 4 processors; exe −1 (unknown), user 1: two jobs on 2 processors.
Repository sample_repository() {
  Repository repo;
  for (int t : {8250, 8450}) repo.add(7, 1, 1, t);
  for (int t : {2400, 2600}) repo.add(7, 1, 4, t);
  for (int t : {1600, 1800}) repo.add(7, 1, 8, t);
  for (int t : {100, 200, 300}) repo.add(9, 1, 4, t);
  for (int t : {50, 70}) repo.add(-1, 1, 2, t);
  return repo;
}

TEST(ProfilerRepositoryTest, FitAtTheExeUserLevel) {
  const Repository repo = sample_repository();
  EXPECT_EQ(repo.jobs(), 11);
  EXPECT_EQ(repo.executables(), 2u);
  const Estimate e = repo.get_estimate({7, 1, 16, 0}, 0.95);
  ASSERT_TRUE(e.ok);
  EXPECT_EQ(e.level, Level::kExeUser);
  EXPECT_EQ(e.method, Method::kFit);
  EXPECT_EQ(e.samples, 6);
  EXPECT_EQ(e.buckets, 3);
  EXPECT_NEAR(e.estimate, 1600, 1e-6);
  // V_ii = s²/n = 10000; X0'(X'V⁻¹X)⁻¹X0 = (4/49 + 25/4 + 2025/196)·10000 = 3266/196·10^4; ν = 6.
  EXPECT_NEAR(e.std_error, std::sqrt(3266.0 / 196 * 10000), 1e-6);
  EXPECT_NEAR(e.half_width, kT6_975 * std::sqrt(3266.0 / 196 * 10000), 1e-6);
  EXPECT_NEAR(e.half_width, 998.845641517939, 1e-6);  // mpmath
  ASSERT_TRUE(e.function.has_value());
  EXPECT_NEAR(e.function->coefficients()[0], 8000, 1e-6);
  // Another user of the same executable: the executable level (the same jobs).
  const Estimate other = repo.get_estimate({7, 2, 16, 0}, 0.95);
  ASSERT_TRUE(other.ok);
  EXPECT_EQ(other.level, Level::kExe);
  EXPECT_NEAR(other.estimate, 1600, 1e-6);
  EXPECT_NEAR(other.half_width, e.half_width, 1e-6);
}

TEST(ProfilerRepositoryTest, BucketMeanWithFewerThanThreeBuckets) {
  const Repository repo = sample_repository();
  // exe 9 has one processor bucket ({3,4}): no fit; the bucket mean 200, s = 100, half-width t(2)·100/√3.
  for (int64_t procs : {3, 4}) {
    const Estimate e = repo.get_estimate({9, 1, procs, 0}, 0.95);
    ASSERT_TRUE(e.ok);
    EXPECT_EQ(e.level, Level::kExeUser);
    EXPECT_EQ(e.method, Method::kBucketMean);
    EXPECT_DOUBLE_EQ(e.estimate, 200);
    EXPECT_DOUBLE_EQ(e.sd, 100);
    EXPECT_DOUBLE_EQ(e.dof, 2);
    EXPECT_EQ(e.samples, 3);
    EXPECT_NEAR(e.half_width, kT2_975 * 100 / std::sqrt(3.0), 1e-9);
  }
}

TEST(ProfilerRepositoryTest, FallsBackToTheSystemLevel) {
  const Repository repo = sample_repository();
  // exe 9 on 16 processors: no fit and no bucket at (exe 9, user 1) nor at exe 9, so the system level: 4 buckets
  // {1}: 8250, 8450; {2}: 50, 70; {3,4}: 2400, 2600, 100, 200, 300; {5..8}: 1600, 1800 — fitted (mpmath).
  const Estimate e = repo.get_estimate({9, 1, 16, 0}, 0.95);
  ASSERT_TRUE(e.ok);
  EXPECT_EQ(e.level, Level::kSystem);
  EXPECT_EQ(e.method, Method::kFit);
  EXPECT_EQ(e.samples, 11);
  EXPECT_EQ(e.buckets, 4);
  EXPECT_NEAR(e.estimate, 12487.1986908582505, 1e-6);
  EXPECT_NEAR(e.std_error, 270.322553023119012, 1e-7);
  EXPECT_NEAR(e.half_width, 594.975927641970268, 1e-6);
  EXPECT_NEAR(e.half_width, kT11_975 * e.std_error, 1e-9);
  // An unknown executable goes straight to the system level (its own leaf is not a category).
  const Estimate u = repo.get_estimate({-1, 1, 2, 0}, 0.95);
  ASSERT_TRUE(u.ok);
  EXPECT_EQ(u.level, Level::kSystem);
  EXPECT_NEAR(u.estimate, 60.9217374725938165, 1e-7);
  EXPECT_NEAR(u.half_width, 22.0064244244656750, 1e-7);
  // At 3 processors the system fit is negative (−1694.9: extrapolation artefact), so the chain takes the mean
  // of the system's {3,4} bucket: 1120, s² = 6388000/4 = 1597000, half-width t(4)·√(1597000/5).
  const Estimate m = repo.get_estimate({-1, 1, 3, 0}, 0.95);
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.level, Level::kSystem);
  EXPECT_EQ(m.method, Method::kBucketMean);
  EXPECT_DOUBLE_EQ(m.estimate, 1120);
  EXPECT_NEAR(m.half_width, kT4_975 * std::sqrt(319400.0), 1e-8);
  // Nothing at all: an empty repository.
  EXPECT_FALSE(Repository().get_estimate({7, 1, 4, 0}, 0.95).ok);
  EXPECT_THROW(repo.get_estimate({7, 1, 0, 0}, 0.95), std::invalid_argument);
  EXPECT_THROW(repo.get_estimate({7, 1, 4, 0}, 1.5), std::invalid_argument);
}

TEST(ProfilerRepositoryTest, SingleJobBucketsUsePooledVarianceAndFloor) {
  Repository repo;
  for (int t : {1000, 1200}) repo.add(11, 2, 1, t);  // s² = 20000
  repo.add(11, 2, 2, 600);                           // one job: the pooled variance
  for (int t : {300, 340, 320}) repo.add(11, 2, 8, t);  // s² = 400
  for (int t : {100, 100}) repo.add(11, 2, 16, t);      // s² = 0 → floored at 1 s² (pooled with its raw 0)
  // pooled = (1·20000 + 2·400 + 1·0) / (1 + 2 + 1) = 5200; V = diag(10000, 5200, 400/3, 1/2) (mpmath fit).
  const Estimate e = repo.get_estimate({11, 2, 4, 0}, 0.95);
  ASSERT_TRUE(e.ok);
  EXPECT_EQ(e.method, Method::kFit);
  EXPECT_EQ(e.samples, 8);
  EXPECT_NEAR(e.estimate, 486.262477191197244, 1e-6);
  EXPECT_NEAR(e.std_error, 17.1493640745998000, 1e-7);
  EXPECT_NEAR(e.half_width, 39.5465044721489063, 1e-6);
  // Only single-job buckets: no variance information, no fit, no bucket mean: nothing.
  Repository singles;
  singles.add(3, 3, 1, 10);
  singles.add(3, 3, 2, 20);
  singles.add(3, 3, 4, 30);
  EXPECT_FALSE(singles.get_estimate({3, 3, 2, 0}, 0.95).ok);
}

TEST(ProfilerRepositoryTest, ElapsedTimeExcludesShortJobs) {
  Repository repo;
  for (int i = 0; i < 5; ++i) repo.add(3, 1, 1, 10);  // elapsed bucket 4 ([8, 16))
  repo.add(3, 1, 1, 1000);                             // bucket 10 ([512, 1024))
  repo.add(3, 1, 1, 1100);                             // bucket 11 ([1024, 2048))
  repo.add(3, 1, 1, 1200);                             // bucket 11
  auto mean_at = [&](int64_t attained) {
    const Estimate e = repo.get_estimate({3, 1, 1, attained}, 0.95);
    EXPECT_TRUE(e.ok);
    EXPECT_EQ(e.method, Method::kBucketMean);
    return std::make_pair(e.estimate, e.samples);
  };
  EXPECT_EQ(mean_at(0), std::make_pair((50.0 + 3300) / 8, int64_t{8}));
  EXPECT_EQ(mean_at(5), std::make_pair((50.0 + 3300) / 8, int64_t{8}));  // bucket 3: all kept
  EXPECT_EQ(mean_at(900), std::make_pair(1100.0, int64_t{3}));           // bucket 10: the 10 s jobs are out
  // Bucket-granular: R = 1150 is in bucket 11, which keeps 1100 (< R) and drops 1000.
  EXPECT_EQ(mean_at(1150), std::make_pair(1150.0, int64_t{2}));
  // Past every job: nothing ran that long anywhere.
  EXPECT_FALSE(repo.get_estimate({3, 1, 1, 5000}, 0.95).ok);
  // The executable-time function at a level honours the attained time too.
  Repository fit = sample_repository();
  EXPECT_TRUE(fit.exec_time_function(Level::kExeUser, 7, 1, 0).has_value());
  EXPECT_FALSE(fit.exec_time_function(Level::kExeUser, 7, 1, 4000).has_value());  // only the p = 1 jobs remain
}

TEST(ProfilerRepositoryTest, GetEstimateCorrectsJobsPastTheirEstimate) {
  Repository repo;
  for (int t : {256, 260, 264, 268}) repo.add(7, 1, 4, t);  // E = 262, CI(95%) = t(3)·√(80/3/4) = 8.217
  const double ci = kT3_975 * std::sqrt(80.0 / 3 / 4);
  const Estimate before = repo.get_estimate({7, 1, 4, 286}, 0.95);  // 286 <= E + 3·CI = 286.65: E kept
  ASSERT_TRUE(before.ok);
  EXPECT_FALSE(before.corrected);
  EXPECT_DOUBLE_EQ(before.estimate, 262);
  const Estimate after = repo.get_estimate({7, 1, 4, 287}, 0.95);  // 287 > 286.65: E' = ⌈287/262⌉·262
  ASSERT_TRUE(after.ok);
  EXPECT_TRUE(after.corrected);
  EXPECT_DOUBLE_EQ(after.estimate, 524);
  EXPECT_DOUBLE_EQ(after.uncorrected, 262);
  EXPECT_NEAR(after.half_width, ci, 1e-9);
  // Decision case 1 < R/E <= 1.5: R = 300 (R/E = 1.145): the thesis's ⌈0.645⌉·E = 262 < R, raised to ⌈1.145⌉·E.
  EXPECT_DOUBLE_EQ(repo.get_estimate({7, 1, 4, 300}, 0.95).estimate, 524);
  // estimate_at is the raw level answer.
  EXPECT_DOUBLE_EQ(repo.estimate_at(Level::kExeUser, {7, 1, 4, 300}, 0.95).estimate, 262);
}

TEST(ProfilerRepositoryTest, OrderDoesNotMatterAndInputIsChecked) {
  Repository a = sample_repository(), b;
  for (int t : {50, 70}) b.add(-1, 1, 2, t);
  for (int t : {300, 100, 200}) b.add(9, 1, 4, t);
  for (int t : {1800, 1600, 2600, 2400, 8450, 8250}) b.add(7, 1, t > 5000 ? 1 : t > 2000 ? 4 : 8, t);
  for (const JobQuery q : {JobQuery{7, 1, 16, 0}, JobQuery{9, 1, 16, 0}, JobQuery{-1, 1, 2, 0}}) {
    const Estimate x = a.get_estimate(q, 0.9), y = b.get_estimate(q, 0.9);
    EXPECT_EQ(x.estimate, y.estimate);  // bit-identical: exact sums
    EXPECT_EQ(x.half_width, y.half_width);
  }
  EXPECT_THROW(a.add(1, 1, 1, -1), std::invalid_argument);
  EXPECT_THROW(a.add(1, 1, 0, 10), std::invalid_argument);
  EXPECT_THROW(a.add(1, 1, 1, int64_t{1} << 31), std::invalid_argument);
}

TEST(ProfilerRepositoryTest, CompareJobEstimates) {
  Repository repo;
  for (int t : {100, 200, 300, 400, 500}) repo.add(1, 1, 2, t);  // A: mean 300, s² = 25000, n = 5
  for (int t : {90, 100, 110}) repo.add(2, 1, 2, t);             // B: mean 100, s² = 100, n = 3
  // se² = 25000/5 + 100/3; ν = (5000 + 33.3)² / (5000²/4 + 33.3²/2) = 4.05315 → critical t(ν, 0.95) = 2.12384.
  const double va = 5000, vb = 100.0 / 3, nu = (va + vb) * (va + vb) / (va * va / 4 + vb * vb / 2);
  // d0 = 0: t = 200/√(va + vb) = 2.8190 > 2.1238: accepted.
  const auto c0 = compare_job_estimates(repo, 0, 0.95, {1, 1, 2, 0}, {2, 1, 2, 0});
  ASSERT_TRUE(c0.ok);
  EXPECT_NEAR(c0.test.t, 200 / std::sqrt(va + vb), 1e-12);
  EXPECT_NEAR(c0.test.dof, nu, 1e-9);
  EXPECT_NEAR(c0.test.dof, 4.05315083103724113, 1e-9);
  EXPECT_NEAR(c0.test.critical, 2.12383978085776349, 1e-8);
  EXPECT_TRUE(c0.test.accepted);
  // d0 = 50: t = 150/√(va + vb) = 2.1143 < 2.1238: not supported (a close call, decided by the exact quantile).
  const auto c50 = compare_job_estimates(repo, 50, 0.95, {1, 1, 2, 0}, {2, 1, 2, 0});
  EXPECT_NEAR(c50.test.t, 2.11428443580722808, 1e-12);
  EXPECT_FALSE(c50.test.accepted);
  // A job with no estimate anywhere (it has run longer than any job): no comparison.
  EXPECT_FALSE(compare_job_estimates(repo, 0, 0.95, {1, 1, 2, 0}, {5, 1, 64, 100000}).ok);
  // A difference that is not a number gave t = nan and "not supported"; a query outside an SWF job's range was
  // answered (a negative elapsed time as 0, 2^40 processors by extrapolation).
  EXPECT_THROW(compare_job_estimates(repo, std::nan(""), 0.95, {1, 1, 2, 0}, {2, 1, 2, 0}), std::invalid_argument);
  EXPECT_THROW(compare_job_estimates(repo, INFINITY, 0.95, {1, 1, 2, 0}, {2, 1, 2, 0}), std::invalid_argument);
  EXPECT_THROW(repo.get_estimate({1, 1, 2, -5}, 0.95), std::invalid_argument);
  EXPECT_THROW(repo.get_estimate({1, 1, int64_t{1} << 40, 0}, 0.95), std::invalid_argument);
  EXPECT_NO_THROW(repo.get_estimate({1, 1, (int64_t{1} << 31) - 1, 0}, 0.95));
}

TEST(ProfilerRecordTest, SkipsPartialNegativeAndSizeless) {
  swf::Record r;
  r.job_number = 1;
  r.submit_time = 0;
  r.run_time = 100;
  r.requested_procs = 4;
  r.status = 1;
  r.user_id = 3;
  r.executable = 5;
  Repository repo;
  EXPECT_EQ(add_record(repo, r), Skip::kNone);
  r.status = 3;
  EXPECT_EQ(add_record(repo, r), Skip::kPartialExecution);
  r.status = 0;  // failed jobs are learnt
  EXPECT_EQ(add_record(repo, r), Skip::kNone);
  r.run_time = -1;
  EXPECT_EQ(add_record(repo, r), Skip::kNegativeRuntime);
  r.run_time = 100;
  r.requested_procs = -1;
  r.allocated_procs = -1;
  EXPECT_EQ(add_record(repo, r), Skip::kNoSize);
  r.allocated_procs = 2;  // job size falls back to field 5
  EXPECT_EQ(add_record(repo, r), Skip::kNone);
  EXPECT_EQ(repo.jobs(), 3);
  EXPECT_EQ(skip_name(Skip::kPartialExecution), "partial_execution");
}

}  // namespace
}  // namespace schedlab::predict::profiler

namespace schedlab::predict {
namespace {

Job pjob(JobId id, int64_t estimate, int32_t procs = 4, int32_t exe = 7, int32_t user = 1) {
  Job j;
  j.id = id;
  j.job_number = id + 1;
  j.user = user;
  j.executable = exe;
  j.procs = procs;
  j.estimate = estimate;
  j.has_estimate = true;
  return j;
}

// Learns `runtimes` as finished jobs of (exe 7, user 1, 4 processors).
void learn(Predictor& p, std::initializer_list<int64_t> runtimes) {
  Updates u;
  JobId id = 100;
  for (int64_t t : runtimes) {
    const Job j = pjob(id++, 10000);
    p.on_arrival(0, j, u);
    p.on_start(0, j, 0, u);
    p.on_termination(t, j, 0, u);
  }
}

TEST(ProfilerPredictorTest, FallbackThenUpperBoundThenMean) {
  auto p = make_predictor("profiler:confidence=0.95;bound=upper");
  EXPECT_EQ(p->name(), "profiler");
  Updates u;
  EXPECT_EQ(p->on_arrival(0, pjob(0, 777), u), 777);  // empty repository: the user estimate
  learn(*p, {100, 200, 300, 400, 500});
  // mean 300, s/√n = √5000, t(4, 0.975) = 2.7764: 300 + 196.32 → 497 (rounded up).
  EXPECT_EQ(p->on_arrival(0, pjob(1, 777), u), static_cast<int64_t>(std::ceil(300 + kT4_975 * std::sqrt(5000.0))));
  EXPECT_EQ(p->on_arrival(0, pjob(1, 777), u), 497);
  auto mean = make_predictor("profiler:bound=mean");
  learn(*mean, {100, 200, 300, 400, 500});
  EXPECT_EQ(mean->on_arrival(0, pjob(1, 777), u), 300);
  auto c60 = make_predictor("profiler:confidence=0.6");
  learn(*c60, {100, 200, 300, 400, 500});
  EXPECT_EQ(c60->on_arrival(0, pjob(1, 777), u), static_cast<int64_t>(std::ceil(300 + kT4_80 * std::sqrt(5000.0))));
  EXPECT_EQ(c60->on_arrival(0, pjob(1, 777), u), 367);
  EXPECT_TRUE(u.empty());
  // Bad parameters are errors that name them.
  EXPECT_THROW(make_predictor("profiler:confidence=1"), std::invalid_argument);
  EXPECT_THROW(make_predictor("profiler:confidence=abc"), std::invalid_argument);
  EXPECT_THROW(make_predictor("profiler:bound=lower"), std::invalid_argument);
  EXPECT_THROW(make_predictor("profiler:depth=3"), std::invalid_argument);
  EXPECT_EQ(make_predictor("profiler:correction=tsafrir")->name(), "profiler:correction=tsafrir");
}

TEST(ProfilerPredictorTest, DeadlineMissRequeriesWithTheAttainedTime) {
  auto p = make_predictor("profiler");
  learn(*p, {100, 200, 300, 400, 500});
  Updates u;
  const Job j = pjob(1, 10000);
  const int64_t first = p->on_arrival(0, j, u);
  ASSERT_EQ(first, 497);
  p->on_start(0, j, first, u);
  // Miss at R = 497 (bucket [256, 512)): only 300, 400, 500 count: 400 + t(2)·100/√3 = 648.41 → 649.
  p->on_deadline_miss(497, j, 0, 497, u);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].job, 1);
  EXPECT_EQ(u[0].prediction, static_cast<int64_t>(std::ceil(400 + kT2_975 * 100 / std::sqrt(3.0))));
  EXPECT_EQ(u[0].prediction, 649);
  u.clear();
  // Miss at 649 (bucket [512, 1024)): no job ran that long anywhere: the user estimate (10000 > R).
  p->on_deadline_miss(649, j, 0, 649, u);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].prediction, 10000);
  u.clear();
  // Miss at the estimate: 2·R.
  p->on_deadline_miss(10000, j, 0, 10000, u);
  EXPECT_EQ(u[0].prediction, 20000);
}

TEST(ProfilerPredictorTest, DeadlineMissAppliesTheCorrectionRule) {
  // 256, 260, 264, 268 (one elapsed bucket): E = 262, CI = t(3)·√(26.67/4) = 8.217, E + 3·CI = 286.65.
  const double ci = kT3_975 * std::sqrt(80.0 / 3 / 4);
  for (const bool upper : {true, false}) {
    auto p = make_predictor(upper ? "profiler" : "profiler:bound=mean");
    learn(*p, {256, 260, 264, 268});
    Updates u;
    const Job j = pjob(1, 100000);
    const int64_t first = p->on_arrival(0, j, u);
    EXPECT_EQ(first, upper ? static_cast<int64_t>(std::ceil(262 + ci)) : 262);
    EXPECT_EQ(first, upper ? 271 : 262);
    // Miss at R = first: the bound is not above R and R <= E + 3·CI (the thesis keeps E): ⌈E + 3·CI⌉ = 287.
    p->on_deadline_miss(first, j, 0, first, u);
    ASSERT_EQ(u.size(), 1u);
    EXPECT_EQ(u[0].prediction, 287);
    u.clear();
    // Miss at 287 > E + 3·CI: the rule fires, E' = ⌈287/262⌉·262 = 524 (plus CI with bound=upper).
    p->on_deadline_miss(287, j, 0, 287, u);
    ASSERT_EQ(u.size(), 1u);
    EXPECT_EQ(u[0].prediction, upper ? static_cast<int64_t>(std::ceil(524 + ci)) : 524);
    EXPECT_EQ(u[0].prediction, upper ? 533 : 524);
  }
}

TEST(ProfilerPredictorTest, TrainFileSeedsTheRepository) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("train.swf");
  // exe 7, user 1, 4 processors: 100..500 s; a partial-execution line (status 2) and a job with runtime −1 are
  // not learnt.
  schedlab::testing::write_file(log,
                                "1 0 0 100 4 -1 -1 4 1000 -1 1 1 1 7 -1 -1 -1 -1\n"
                                "2 0 0 200 4 -1 -1 4 1000 -1 1 1 1 7 -1 -1 -1 -1\n"
                                "3 0 0 300 4 -1 -1 4 1000 -1 1 1 1 7 -1 -1 -1 -1\n"
                                "4 0 0 400 4 -1 -1 4 1000 -1 1 1 1 7 -1 -1 -1 -1\n"
                                "5 0 0 500 4 -1 -1 4 1000 -1 1 1 1 7 -1 -1 -1 -1\n"
                                "5 0 0 9999 4 -1 -1 4 1000 -1 2 1 1 7 -1 -1 -1 -1\n"
                                "6 0 0 -1 4 -1 -1 4 1000 -1 5 1 1 7 -1 -1 -1 -1\n");
  auto p = make_predictor("profiler:train=" + log);
  Updates u;
  EXPECT_EQ(p->on_arrival(0, pjob(0, 777), u), 497);
  const auto* pp = dynamic_cast<const ProfilerPredictor*>(p.get());
  ASSERT_NE(pp, nullptr);
  EXPECT_EQ(pp->repository().jobs(), 5);
  EXPECT_THROW(make_predictor("profiler:train=" + dir.file("missing.swf")), swf::ReadError);
}

}  // namespace
}  // namespace schedlab::predict
