#include "schedlab/analysis/runs.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/analysis/random.h"

namespace schedlab::analysis {
namespace {

swf::Record job(int32_t submit, int32_t user, int32_t exe, int32_t procs) {
  swf::Record r;
  r.submit_time = submit;
  r.user_id = user;
  r.executable = exe;
  r.requested_procs = procs;
  r.run_time = 10;
  return r;
}

TEST(Runs, CountsRunsPerUserAcrossInterleaving) {
  // User 1: A A B A (runs 2,1,1); user 2: A A A (run 3), interleaved with user 1.
  const std::vector<swf::Record> log = {job(0, 1, 7, 4), job(1, 2, 7, 4), job(2, 1, 7, 4), job(3, 2, 7, 4),
                                        job(4, 1, 8, 4), job(5, 2, 7, 4), job(6, 1, 7, 4), job(7, 1, -1, 4),
                                        job(8, -1, 7, 4)};
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
  const std::vector<swf::Record> log = {job(0, 1, 7, 4), job(1, 1, 7, 8), job(2, 1, 7, 8)};
  const RunsResult r = find_runs(log);
  EXPECT_EQ(r.runs, 2);
  EXPECT_EQ(r.histogram.at(2), 1);
}

// Runs of lengths drawn from P(r) ~ r^-theta (1..1000), users interleaved, a new executable per run.
std::vector<swf::Record> planted_log(double theta, int runs, uint64_t seed) {
  std::vector<double> cdf(1000);
  double z = 0;
  for (int r = 1; r <= 1000; ++r) cdf[static_cast<size_t>(r - 1)] = (z += std::pow(r, -theta));
  Rng rng(seed);
  std::vector<swf::Record> log;
  std::vector<int32_t> next_time(8, 0);
  for (int k = 0; k < runs; ++k) {
    const double u = rng.uniform() * z;
    const auto len = static_cast<int>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin()) + 1;
    const auto user = static_cast<int32_t>(rng.below(8));
    for (int i = 0; i < len; ++i) {
      log.push_back(job(next_time[static_cast<size_t>(user)] * 8 + user, user, k, 1 + k % 3));
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
  const RunsResult r = find_runs({job(0, 1, 1, 1), job(1, 1, 2, 1)});
  EXPECT_TRUE(std::isnan(r.theta_mle));
  EXPECT_TRUE(std::isnan(r.theta_loglog));
}

}  // namespace
}  // namespace schedlab::analysis
