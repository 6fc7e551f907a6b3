#include "schedlab/analysis/runs.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/base/random.h"
#include "test_util.h"

namespace schedlab::analysis {
namespace {

TEST(Runs, CountsRunsPerUserAcrossInterleaving) {
  // User 1: A A B A (runs 2,1,1); user 2: A A A (run 3), interleaved with user 1.
  const std::vector<swf::Record> log = {testing::record({.submit_time = 0, .run_time = 10, .requested_procs = 4,
                                                         .user_id = 1, .executable = 7}),
                                                         testing::record({.submit_time = 1, .run_time = 10,
                                                         .requested_procs = 4, .user_id = 2, .executable = 7}),
                                                         testing::record({.submit_time = 2, .run_time = 10,
                                                         .requested_procs = 4, .user_id = 1, .executable = 7}),
                                                         testing::record({.submit_time = 3, .run_time = 10,
                                                         .requested_procs = 4, .user_id = 2, .executable = 7}),
                                        testing::record({.submit_time = 4, .run_time = 10, .requested_procs = 4,
                                                         .user_id = 1, .executable = 8}),
                                                         testing::record({.submit_time = 5, .run_time = 10,
                                                         .requested_procs = 4, .user_id = 2, .executable = 7}),
                                                         testing::record({.submit_time = 6, .run_time = 10,
                                                         .requested_procs = 4, .user_id = 1, .executable = 7}),
                                                         testing::record({.submit_time = 7, .run_time = 10,
                                                         .requested_procs = 4, .user_id = 1}),
                                        testing::record({.submit_time = 8, .run_time = 10, .requested_procs = 4,
                                                         .executable = 7})};
  const RunsResult r = find_runs(log);
  EXPECT_EQ(r.jobs, 7);
  EXPECT_EQ(r.unknown_executable, 1);
  EXPECT_EQ(r.unknown_user, 1);
  EXPECT_EQ(r.runs, 4);
  EXPECT_EQ(r.histogram.at(1), 2);
  EXPECT_EQ(r.histogram.at(2), 1);
  EXPECT_EQ(r.histogram.at(3), 1);
  EXPECT_EQ(r.longest, 3);
  EXPECT_DOUBLE_EQ(r.jobs_in_repeated_share, 5.0 / 7);
  // Size only: user 1's four jobs (size 4) form one run; the job without an executable joins it.
  const RunsResult s = find_runs(log, false);
  EXPECT_EQ(s.runs, 2);
  EXPECT_EQ(s.histogram.at(5), 1);
}

TEST(Runs, SizeChangeBreaksARun) {
  const std::vector<swf::Record> log = {testing::record({.submit_time = 0, .run_time = 10, .requested_procs = 4,
                                                         .user_id = 1, .executable = 7}),
                                                         testing::record({.submit_time = 1, .run_time = 10,
                                                         .requested_procs = 8, .user_id = 1, .executable = 7}),
                                                         testing::record({.submit_time = 2, .run_time = 10,
                                                         .requested_procs = 8, .user_id = 1, .executable = 7})};
  const RunsResult r = find_runs(log);
  EXPECT_EQ(r.runs, 2);
  EXPECT_EQ(r.histogram.at(2), 1);
}

// Runs of lengths drawn from P(r) ~ r^-theta (1..1000), users interleaved, a new executable per run.
std::vector<swf::Record> planted_log(double theta, int runs, uint64_t seed) {
  std::vector<double> cdf(1000);
  double z = 0;
  for (int r = 1; r <= 1000; ++r) cdf[static_cast<size_t>(r - 1)] = (z += std::pow(r, -theta));
  base::Rng rng(seed);
  std::vector<swf::Record> log;
  std::vector<int32_t> next_time(8, 0);
  for (int k = 0; k < runs; ++k) {
    const double u = rng.uniform() * z;
    const auto len = static_cast<int>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin()) + 1;
    const auto user = static_cast<int32_t>(rng.below(8));
    for (int i = 0; i < len; ++i) {
      log.push_back(testing::record({.submit_time = next_time[static_cast<size_t>(user)] * 8 + user, .run_time = 10,
                                     .requested_procs = 1 + k % 3, .user_id = user, .executable = k}));
      ++next_time[static_cast<size_t>(user)];
    }
  }
  return log;
}

TEST(Runs, RecoversThePlantedExponent) {
  for (const double theta : {2.0, 2.5, 3.0}) {
    const RunsResult r = find_runs(planted_log(theta, 20000, 11));
    EXPECT_EQ(r.runs, 20000);
    EXPECT_NEAR(r.theta_mle, theta, 0.06) << theta;
    EXPECT_NEAR(r.theta_loglog, theta, 0.4) << theta;
  }
}

TEST(Runs, FitsAreNanWithoutDistinctLengths) {
  const RunsResult r = find_runs({testing::record({.submit_time = 0, .run_time = 10, .requested_procs = 1,
                                                   .user_id = 1, .executable = 1}), testing::record({.submit_time = 1,
                                                   .run_time = 10, .requested_procs = 1, .user_id = 1,
                                                   .executable = 2})});
  EXPECT_TRUE(std::isnan(r.theta_mle));
  EXPECT_TRUE(std::isnan(r.theta_loglog));
}

// Logarithmic groups of the histogram: lengths 1, 2-3, 4-7, ... up to the longest run.
TEST(Runs, LengthGroups) {
  RunsResult r;
  r.histogram = {{1, 10}, {2, 4}, {3, 1}, {6, 2}, {9, 1}};
  r.longest = 9;
  const auto g = run_length_groups(r);
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g[0].from, 1);
  EXPECT_EQ(g[0].runs, 10);
  EXPECT_EQ(g[1].to, 3);
  EXPECT_EQ(g[1].runs, 5);
  EXPECT_EQ(g[2].runs, 2);
  EXPECT_EQ(g[3].from, 8);
  EXPECT_EQ(g[3].to, 15);
  EXPECT_EQ(g[3].runs, 1);
}

}  // namespace
}  // namespace schedlab::analysis
