#include "schedlab/analysis/locality.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/base/memory.h"
#include "schedlab/base/random.h"

namespace schedlab::analysis {
namespace {

TEST(LocalityBins, DistinctValuesGiveEqualShares) {
  std::vector<double> v;
  for (int i = 48; i >= 1; --i) v.push_back(i);
  const Bins b = make_bins(v, 24);
  ASSERT_EQ(b.count(), 24);
  ASSERT_EQ(b.bounds.size(), 23u);
  EXPECT_EQ(b.bounds[0], 3);  // bin 0 = {1, 2}
  EXPECT_EQ(b.bounds[22], 47);
  for (double s : b.shares) EXPECT_DOUBLE_EQ(s, 2.0 / 48);
  EXPECT_EQ(b.bin_of(0), 0);
  EXPECT_EQ(b.bin_of(3), 1);  // a value equal to a boundary goes to the upper bin
  EXPECT_EQ(b.bin_of(100), 23);
}

TEST(LocalityBins, TiesMakeEmptyAndFatBinsWithActualShares) {
  std::vector<double> v(50, 0.0);  // half the values are 0
  for (int i = 1; i <= 50; ++i) v.push_back(i);
  const Bins b = make_bins(v, 4);
  // k = 1: cumulative weight of {0} is 50 > 25 -> boundary 0, so bin 0 (values < 0) is empty.
  EXPECT_EQ(b.bounds[0], 0);
  EXPECT_EQ(b.bounds[1], 1);  // k = 2: weight through 0 is exactly 50, not > 50 -> next value
  EXPECT_EQ(b.bounds[2], 26);
  EXPECT_DOUBLE_EQ(b.shares[0], 0.0);
  EXPECT_DOUBLE_EQ(b.shares[1], 0.5);
  EXPECT_DOUBLE_EQ(b.shares[2], 0.25);
  EXPECT_DOUBLE_EQ(b.shares[3], 0.25);
}

TEST(LocalityBins, WeightsShiftTheBoundaries) {
  const std::vector<double> v{1, 2, 3, 4};
  const std::vector<double> w{3, 1, 1, 1};  // value 1 holds half the weight
  const Bins b = make_bins(v, 2, w);
  EXPECT_EQ(b.bounds[0], 2);
  EXPECT_DOUBLE_EQ(b.shares[0], 0.5);
}

TEST(LocalityDeviation, ExtremesAreZeroAndOne) {
  std::vector<double> v;
  for (int i = 0; i < 24; ++i) v.push_back(i);
  const Bins b = make_bins(v, 24);
  std::vector<int64_t> even(24, 10);
  EXPECT_DOUBLE_EQ(max_deviation(even, 240, b, ExpectedCounts::kShare), 0.0);
  EXPECT_DOUBLE_EQ(max_deviation(even, 240, b, ExpectedCounts::kUniform), 0.0);
  std::vector<int64_t> all_in_one(24, 0);
  all_in_one[5] = 240;
  EXPECT_DOUBLE_EQ(max_deviation(all_in_one, 240, b, ExpectedCounts::kShare), 1.0);
  EXPECT_DOUBLE_EQ(max_deviation(all_in_one, 240, b, ExpectedCounts::kUniform), 1.0);
  // The paper's example: m = 0.419 means 44.3% of the jobs in one bin.
  std::vector<int64_t> top(24, 0);
  top[0] = 443;
  EXPECT_NEAR(max_deviation(top, 1000, b, ExpectedCounts::kUniform), 0.419, 0.001);
}

// A log of `days` days, `per_day` jobs a day at regular times, values from `draw`.
template <typename Draw>
void make_series(int days, int per_day, std::vector<int64_t>& times, std::vector<double>& values, Draw draw) {
  for (int d = 0; d < days; ++d)
    for (int k = 0; k < per_day; ++k) {
      times.push_back(int64_t{d} * 86400 + int64_t{k} * 86400 / per_day);
      values.push_back(draw(d));
    }
}

TEST(Locality, IidLogIsAtTheBaselineAndPlantedLocalityIsFarAbove) {
  LocalityOptions opt;
  opt.rounds = 200;
  opt.seed = 7;
  base::Rng rng(42);
  std::vector<int64_t> t1;
  std::vector<double> v1;
  make_series(300, 100, t1, v1, [&](int) { return rng.uniform(); });
  const LocalityResult iid = locality(t1, v1, opt);
  EXPECT_EQ(iid.usable_slices, 100);
  EXPECT_NEAR(iid.m_med_prime, iid.g_med, 0.004);
  EXPECT_LT(std::abs(iid.m_med), 0.004);
  // Not outside the range of the 200 random rounds (p is uniform under the null; it is 0 or 1 only beyond).
  EXPECT_GT(iid.p_med, 0.0);
  EXPECT_LT(iid.p_med, 1.0);

  // Planted: every 3-day slice draws 60% of its jobs from one narrow range chosen for the slice.
  std::vector<int64_t> t2;
  std::vector<double> v2;
  base::Rng rng2(43);
  std::vector<double> centre(100);
  for (double& c : centre) c = rng2.uniform() * 0.95;
  make_series(300, 100, t2, v2, [&](int day) {
    return rng2.uniform() < 0.6 ? centre[static_cast<size_t>(day / 3)] + 0.05 * rng2.uniform() : rng2.uniform();
  });
  const LocalityResult planted = locality(t2, v2, opt);
  EXPECT_GT(planted.m_med_prime, planted.g_med + 0.2);
  EXPECT_GT(planted.m_med, 0.2);
  EXPECT_EQ(planted.p_med, 0.0);
  EXPECT_GT(planted.m_max, planted.m_med);
}

// 60 days of 200 jobs with values drawn uniformly from 0..49: no locality, for the bootstrap's own tests.
class LocalityBootstrap : public ::testing::Test {
 protected:
  LocalityBootstrap() {
    base::Rng rng(1);
    make_series(60, 200, t, v, [&](int) { return std::floor(rng.uniform() * 50); });
  }
  std::vector<int64_t> t;
  std::vector<double> v;
};

TEST_F(LocalityBootstrap, DoesNotDependOnThreadsAndFollowsTheSeed) {
  LocalityOptions opt;
  opt.rounds = 64;
  opt.threads = 1;
  const LocalityResult a = locality(t, v, opt);
  opt.threads = 3;
  const LocalityResult b = locality(t, v, opt);
  EXPECT_EQ(a.boot_med, b.boot_med);
  EXPECT_EQ(a.boot_max, b.boot_max);
  opt.seed = 2;
  const LocalityResult c = locality(t, v, opt);
  EXPECT_NE(a.boot_med, c.boot_med);
}

TEST_F(LocalityBootstrap, ReportsItsProgressAndRefusesWhatMemoryCannotHold) {
  LocalityOptions opt;
  opt.rounds = 200;
  opt.threads = 3;
  std::mutex mu;
  std::vector<size_t> seen;
  opt.progress = [&](size_t done, size_t total) {
    std::lock_guard<std::mutex> lock(mu);
    EXPECT_EQ(total, 200u);
    seen.push_back(done);
  };
  const LocalityResult with_progress = locality(t, v, opt);
  // Every 64th round and the last, once each (in whatever order the threads report them).
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<size_t>{64, 128, 192, 200}));
  opt.progress = nullptr;
  EXPECT_EQ(locality(t, v, opt).boot_med, with_progress.boot_med);

  // 2^31 - 1 rounds hold 32 GB of results: refused before the log is looked at wherever less may be used
  // (on a larger machine this part cannot run; base/memory_test.cc checks the refusal itself).
  if (base::usable_memory_bytes() < (32ull << 30)) {
    EXPECT_THROW(check_bins_and_rounds(24, std::numeric_limits<int>::max()), std::invalid_argument);
    opt.rounds = std::numeric_limits<int>::max();
    EXPECT_THROW(locality(t, v, opt), std::invalid_argument);
  }
}

TEST(Locality, SlicesShiftAndUsability) {
  std::vector<int64_t> t;
  std::vector<double> v;
  for (int i = 0; i < 240; ++i) {  // 120 jobs on day 0, 119 on day 3, 1 on day 6
    t.push_back(i < 120 ? i : (i < 239 ? 3 * 86400 + i : 6 * 86400));
    v.push_back(i % 24);
  }
  LocalityOptions opt;
  opt.rounds = 0;
  const LocalityResult r = locality(t, v, opt);
  ASSERT_EQ(r.slices.size(), 3u);
  EXPECT_TRUE(r.slices[0].usable);
  EXPECT_FALSE(r.slices[1].usable);  // 119 < 5 x 24
  EXPECT_EQ(r.usable_slices, 1);
  opt.shift = 86400;  // slice -1 = day 0, slice 0 = days 1-3, slice 1 = days 4-6
  const LocalityResult s = locality(t, v, opt);
  ASSERT_EQ(s.slices.size(), 3u);
  EXPECT_EQ(s.slices[0].index, -1);
  EXPECT_EQ(s.slices[0].jobs, 120);
  EXPECT_EQ(s.slices[2].start, 4 * 86400);
  opt.bins = 48;
  EXPECT_THROW(locality(t, v, opt), std::invalid_argument);  // no slice has 240 jobs
  // One slice holding every job is the log itself: M' would be 0 whatever the log, p 1 ("no locality").
  opt.bins = 24;
  opt.shift = 0;
  opt.slice_seconds = 7 * 86400;
  try {
    locality(t, v, opt);
    ADD_FAILURE() << "one slice of the whole log measured";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "one slice holds all 240 jobs (slices of 604800 s; the log spans 518400 s): locality of "
                           "sampling compares slices with the whole log, so it needs more than one; give a shorter "
                           "--slice");
  }
}

TEST(Locality, EmptySlicesAreCountedNotStored) {
  // 10 jobs in the first 10 s and 10 jobs 10^9 s later: 10^8 + 1 slices of 10 s, two of them holding jobs.
  // Each slice was stored (4.8 GB here; 1 s slices of KTH took 1.6 GB to say that none is usable).
  std::vector<int64_t> t;
  std::vector<double> v;
  for (int i = 0; i < 20; ++i) {
    t.push_back(i < 10 ? i : 1000000000 + i);
    v.push_back(i % 2);
  }
  LocalityOptions opt;
  opt.rounds = 0;
  opt.bins = 2;
  opt.slice_seconds = 10;
  const LocalityResult r = locality(t, v, opt);
  EXPECT_EQ(r.slice_count, 100000002);  // slice 0 and slice 100000001 (the second ten start at 10^9 + 10)
  ASSERT_EQ(r.slices.size(), 2u);
  EXPECT_EQ(r.slices[1].index, 100000001);
  EXPECT_EQ(r.slices[1].start, 1000000010);
  EXPECT_EQ(r.usable_slices, 2);
}

}  // namespace
}  // namespace schedlab::analysis
