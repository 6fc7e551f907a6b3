#include "schedlab/model/tsafrir.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include <gtest/gtest.h>

namespace schedlab::model {
namespace {

constexpr int32_t kM = 60, kH = 3600;

TEST(TsafrirK, EveryBreakpointOfTable3) {
  const std::vector<std::pair<int64_t, int64_t>> points = {{0, 0},        {20, 10},     {200, 20},
                                                           {1000, 35},    {10000, 90},  {70000, 340},
                                                           {250000, 565}, {1000000, 565}};
  for (const auto& [n, k] : points) EXPECT_EQ(tsafrir_k(n), k) << "N = " << n;
}

TEST(TsafrirK, LinearInsideSegmentsRoundedHalfAway) {
  EXPECT_EQ(tsafrir_k(1), 1);          // 0.5 -> 1
  EXPECT_EQ(tsafrir_k(110), 15);       // 10 + 90 x 10/180
  EXPECT_EQ(tsafrir_k(600), 28);       // 20 + 400 x 15/800 = 27.5 -> 28
  EXPECT_EQ(tsafrir_k(77222), 349);    // 340 + 7222 x 225/180000 = 349.03
  EXPECT_EQ(tsafrir_k(249999), 565);
  for (int64_t n = 1; n < 300000; n += 997) EXPECT_LE(tsafrir_k(n), tsafrir_k(n + 997));
}

TEST(TsafrirFPop, FirstRankIs2270WithPaperCoefficients) {
  const auto f = tsafrir_f_pop(565, tsafrir_coefficients(TsafrirCoefficientSet::kPaper));
  ASSERT_EQ(f.size(), 565u);
  EXPECT_NEAR(f[0], 22.70, 0.005);
  const std::vector<double> ranks2to20 = {10.26, 8.65, 7.30, 6.17, 5.23, 4.45, 3.79, 3.24, 2.78, 2.40,
                                          2.08,  1.81, 1.59, 1.40, 1.25, 1.12, 1.01, 0.92, 0.84};
  for (size_t i = 0; i < ranks2to20.size(); ++i) EXPECT_NEAR(f[i + 1], ranks2to20[i], 0.006) << "rank " << i + 2;
  EXPECT_NEAR(std::accumulate(f.begin(), f.begin() + 20, 0.0), 89.0, 1e-9);
  EXPECT_NEAR(std::accumulate(f.begin(), f.end(), 0.0), 100.0, 1e-9);
  for (size_t i = 21; i < f.size(); ++i) EXPECT_LT(f[i], f[i - 1]);  // power-law tail decreasing
}

TEST(TsafrirHeadTimes, EighteenHours) {
  auto h = tsafrir_head_times(18 * kH);
  std::sort(h.begin(), h.end());
  const std::vector<int32_t> want = {5 * kM,  10 * kM, 15 * kM, 20 * kM, 30 * kM, 1 * kH,  2 * kH,
                                     3 * kH,  4 * kH,  5 * kH,  6 * kH,  8 * kH,  10 * kH, 12 * kH,
                                     13 * kH, 14 * kH, 15 * kH, 16 * kH, 17 * kH, 18 * kH};
  EXPECT_EQ(h, want);
}

TEST(TsafrirHeadTimes, FourHoursInSelectionOrder) {
  const auto h = tsafrir_head_times(4 * kH);
  const std::vector<int32_t> want = {
      4 * kH,           5 * kM,           10 * kM,          15 * kM,          20 * kM,
      30 * kM,          1 * kH,           2 * kH,           3 * kH,           3 * kH + 40 * kM,
      3 * kH + 20 * kM, 2 * kH + 40 * kM, 2 * kH + 20 * kM, 1 * kH + 40 * kM, 1 * kH + 20 * kM,
      40 * kM,          3 * kH + 50 * kM, 3 * kH + 30 * kM, 3 * kH + 10 * kM, 2 * kH + 50 * kM};
  EXPECT_EQ(h, want);
}

TEST(TsafrirHeadTimes, ThirtySixHours) {
  const auto h = tsafrir_head_times(36 * kH);
  ASSERT_EQ(h.size(), 20u);
  EXPECT_EQ(h[0], 36 * kH);
  for (int i = 1; i <= 15; ++i) EXPECT_TRUE(tsafrir_is_joint_time(h[static_cast<size_t>(i)]));
  EXPECT_EQ(std::vector<int32_t>(h.begin() + 16, h.end()),
            (std::vector<int32_t>{30 * kH, 20 * kH, 35 * kH, 25 * kH}));
}

TEST(TsafrirPool, MapsEveryTtrToADistinctRankAndTmaxToRankOne) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    base::Rng rng(seed);
    const auto map = tsafrir_pool_map(std::vector<int>(20, 0), rng);
    ASSERT_EQ(map.size(), 20u);
    EXPECT_EQ(map[0], 1);
    std::set<int> ranks(map.begin(), map.end());
    EXPECT_EQ(ranks.size(), 20u);
    EXPECT_EQ(*ranks.begin(), 1);
    EXPECT_EQ(*ranks.rbegin(), 20);
  }
}

TEST(TsafrirPool, RankInAllFourTracesIsForced) {
  // Rank 2 sits at ttr <= 8 in all four traces (CTC 3, KTH4H 5, BLUE 5, SDSC-106 8), and no smaller unmapped
  // rank can be in all four pools then (rank 1 goes to T_max), so step 2 of the pool algorithm forces it at
  // ttr 8 at the latest, whatever the random draws. The randomness shows in different maps for different seeds.
  std::set<std::vector<int>> maps;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    base::Rng rng(seed);
    const auto map = tsafrir_pool_map(std::vector<int>(20, 0), rng);
    const auto pos = std::find(map.begin(), map.end(), 2) - map.begin();
    EXPECT_LE(pos, 8);
    maps.insert(map);
  }
  EXPECT_GT(maps.size(), 10u);
}

TEST(TsafrirPool, PreassignedTtrsAndRanksAreKept) {
  std::vector<int> pre(20, 0);
  pre[4] = 2;
  pre[0] = 1;
  base::Rng rng(7);
  const auto map = tsafrir_pool_map(pre, rng);
  EXPECT_EQ(map[4], 2);
  EXPECT_EQ(std::count(map.begin(), map.end(), 2), 1);
  EXPECT_EQ(std::set<int>(map.begin(), map.end()).size(), 20u);
}

TEST(SharesToCounts, SumsToNAndKeepsUserBinsExact) {
  const std::vector<double> shares = {33.3, 33.3, 33.4};
  // 3.33 3.33 3.34 -> 3 3 3 = 9: one more job to the largest bin, ties by index.
  EXPECT_EQ(shares_to_counts(shares, {false, false, false}, 10), (std::vector<int64_t>{4, 3, 3}));
  // 1.5 rounds to 2 in every bin (8 jobs): two jobs come off the largest non-user bins.
  const auto c = shares_to_counts({25, 25, 25, 25}, {true, false, false, false}, 6);  // 1.5 -> 2 each = 8
  EXPECT_EQ(c[0], 2);  // user bin exact
  EXPECT_EQ(std::accumulate(c.begin(), c.end(), int64_t{0}), 6);
  // Tiny bins get at least one job, the total is still N.
  std::vector<double> many(300, 0.01);
  many[0] = 100 - 299 * 0.01;
  const auto m = shares_to_counts(many, std::vector<bool>(300, false), 1000);
  EXPECT_EQ(std::accumulate(m.begin(), m.end(), int64_t{0}), 1000);
  EXPECT_EQ(*std::min_element(m.begin(), m.end()), 1);
  EXPECT_THROW(shares_to_counts(std::vector<double>(5, 20), std::vector<bool>(5, false), 3), ModelError);
}

// When the user bins leave fewer jobs than the other bins need, the error gives the numbers and what to change.
TEST(SharesToCounts, AnInfeasibleModelSaysWhatIsLeftAndForHowManyBins) {
  try {
    (void)shares_to_counts({60, 39.9, 0.05, 0.05}, {true, true, false, false}, 1000);  // 600 + 399 fixed
    ADD_FAILURE() << "counted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("take 999 of the N = 1000 jobs (99.90%), which leaves 1 for the model's 2 "
                                         "other bins"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("parameter k"), std::string::npos) << e.what();
  }
  try {
    (void)shares_to_counts(std::vector<double>(5, 20), std::vector<bool>(5, false), 3);
    ADD_FAILURE() << "counted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot fit 5 bins into N = 3 jobs"), std::string::npos) << e.what();
  }
}

TEST(TsafrirBins, ExactCountsDistinctTimesAndTmax) {
  for (const int64_t n : {5L, 150L, 1000L, 23070L, 77222L, 250440L}) {
    TsafrirParams p;
    p.n = n;
    p.t_max = 18 * kH;
    base::Rng rng(42);
    const auto bins = tsafrir_bins(p, rng);
    ASSERT_EQ(static_cast<int64_t>(bins.size()), tsafrir_k(n)) << n;
    int64_t total = 0;
    std::set<int32_t> times;
    for (const auto& b : bins) {
      total += b.jobs;
      EXPECT_GE(b.jobs, 1);
      EXPECT_GT(b.time, 0);
      EXPECT_LE(b.time, p.t_max);
      times.insert(b.time);
    }
    EXPECT_EQ(total, n);
    EXPECT_EQ(times.size(), bins.size());
    EXPECT_EQ(bins.back().time, p.t_max);
    EXPECT_EQ(bins.back().popularity_rank, 1);
  }
}

TEST(TsafrirBins, HeadHolds89PercentAndUserBinsAreHonoured) {
  TsafrirParams p;
  p.n = 100000;
  p.t_max = 4 * kH;
  p.t_max_share = 12.5;
  p.user_bins = {{5 * kM, 25.0}};
  base::Rng rng(3);
  const auto bins = tsafrir_bins(p, rng);
  int64_t head = 0, total = 0;
  for (const auto& b : bins) {
    total += b.jobs;
    if (b.head) head += b.jobs;
    if (b.time == 5 * kM) {
      EXPECT_TRUE(b.user);
      EXPECT_EQ(b.jobs, 25000);
    }
    if (b.time == 4 * kH) {
      EXPECT_EQ(b.jobs, 12500);
    }
  }
  EXPECT_EQ(total, p.n);
  EXPECT_NEAR(static_cast<double>(head) / static_cast<double>(total), 0.89, 0.002);
}

TEST(TsafrirBins, SameSeedSameBinsAndBadParametersFail) {
  TsafrirParams p;
  p.n = 5000;
  p.t_max = 36 * kH;
  base::Rng a(9), b(9), c(10);
  const auto x = tsafrir_bins(p, a), y = tsafrir_bins(p, b), z = tsafrir_bins(p, c);
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(x[i].time, y[i].time);
    EXPECT_EQ(x[i].jobs, y[i].jobs);
  }
  bool differs = false;
  for (size_t i = 0; i < x.size() && i < z.size(); ++i) differs |= x[i].jobs != z[i].jobs || x[i].time != z[i].time;
  EXPECT_TRUE(differs);
  TsafrirParams bad = p;
  bad.user_bins = {{40 * kH, 5}};
  EXPECT_THROW(tsafrir_bins(bad, a), ModelError);
  bad.user_bins = {{kH, 60}, {2 * kH, 50}};
  EXPECT_THROW(tsafrir_bins(bad, a), ModelError);
  bad = p;
  bad.n = 0;
  EXPECT_THROW(tsafrir_bins(bad, a), ModelError);
}

TEST(RandomShuffle, EveryEstimateCoversItsRuntimeAndTheMultisetIsKept) {
  base::Rng gen(1);
  std::vector<int32_t> rt(5000), est(5000);
  for (size_t i = 0; i < rt.size(); ++i) {
    rt[i] = static_cast<int32_t>(gen.below(10000));
    est[i] = rt[i] + static_cast<int32_t>(gen.below(500));
  }
  std::reverse(est.begin(), est.end());
  base::Rng rng(5);
  const auto out = random_shuffle_assign(rt, est, rng);
  for (size_t i = 0; i < rt.size(); ++i) EXPECT_GE(out[i], rt[i]);
  auto a = out, b = est;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
}

TEST(RandomShuffle, InfeasibleIsAClearError) {
  base::Rng rng(1);
  const std::vector<int32_t> rt = {100, 200, 300};
  try {
    random_shuffle_assign(rt, {400, 150, 150}, rng, "use a larger T_max");  // 150 < 200
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("infeasible"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("larger T_max"), std::string::npos);
  }
}

// Hand-computed: estimates {8, 7, 6} for runtimes {10, 9, 8} under T_max = 10. Runtime 10 has no estimate, 9 and
// 10 together one: the largest shortfall is 2 (at x = 9), so the two smallest, 6 and 7, become 10 and the 8 stays
// for the runtime 8. Raising the failing positions instead (every pair k with e_k < r_k) would have raised all three.
TEST(RaiseToCover, RaisesTheFewestEstimatesTheSmallestFirst) {
  std::vector<int32_t> est = {7, 8, 6};
  EXPECT_EQ(raise_to_cover(std::vector<int32_t>{9, 8, 10}, est, 10), 2);
  std::sort(est.begin(), est.end());
  EXPECT_EQ(est, (std::vector<int32_t>{8, 10, 10}));
  base::Rng rng(3);
  const auto out = random_shuffle_assign(std::vector<int32_t>{9, 8, 10}, est, rng);  // feasible now
  EXPECT_EQ(out, (std::vector<int32_t>{10, 8, 10}));
  // Ties: runtimes {5, 5, 5} and one estimate >= 5 of three: two raised.
  est = {5, 4, 1};
  EXPECT_EQ(raise_to_cover(std::vector<int32_t>{5, 5, 5}, est, 5), 2);
  std::sort(est.begin(), est.end());
  EXPECT_EQ(est, (std::vector<int32_t>{5, 5, 5}));
  // Already feasible (an unknown runtime counts as 0): untouched, in its order.
  est = {3, 9, 1};
  EXPECT_EQ(raise_to_cover(std::vector<int32_t>{1, -1, 9}, est, 9), 0);
  EXPECT_EQ(est, (std::vector<int32_t>{3, 9, 1}));
  EXPECT_THROW(raise_to_cover(std::vector<int32_t>{11}, est = {5}, 10), ModelError);  // above T_max: not truncated
}

// Against an independent count: after the raise, the k-th largest estimate covers the k-th largest runtime for every
// k (the shuffle's condition), and no smaller number of raises of the smallest estimates would do.
TEST(RaiseToCover, IsTheFewestRaisesThatMakeTheShuffleFeasible) {
  base::Rng gen(11);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = 1 + gen.below(60);
    const int32_t t_max = 1000;
    std::vector<int32_t> rt(n), est(n);
    for (size_t i = 0; i < n; ++i) {
      rt[i] = static_cast<int32_t>(gen.below(t_max + 1));
      est[i] = static_cast<int32_t>(1 + gen.below(t_max));
    }
    const auto feasible = [&](std::vector<int32_t> e) {
      std::vector<int32_t> r(rt);
      std::sort(r.begin(), r.end(), std::greater<>());
      std::sort(e.begin(), e.end(), std::greater<>());
      for (size_t k = 0; k < n; ++k)
        if (e[k] < r[k]) return false;
      return true;
    };
    const auto raised = [&](int64_t d) {
      std::vector<int32_t> e(est);
      std::sort(e.begin(), e.end());
      std::fill(e.begin(), e.begin() + d, t_max);
      return e;
    };
    int64_t fewest = 0;
    while (!feasible(raised(fewest))) ++fewest;
    std::vector<int32_t> e(est);
    ASSERT_EQ(raise_to_cover(rt, e, t_max), fewest) << trial;
    EXPECT_TRUE(feasible(e)) << trial;
  }
}

}  // namespace
}  // namespace schedlab::model
