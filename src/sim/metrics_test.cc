#include "schedlab/sim/metrics.h"

#include <gtest/gtest.h>

#include "sim/sim_test_helpers.h"

namespace schedlab::sim {
namespace {

TEST(MetricsTest, HandComputed) {
  // submit, start, end, procs — in termination order. Machine 4 processors.
  const std::vector<JobTimes> jobs = {{0, 0, 5, 2}, {0, 10, 30, 4}, {10, 40, 100, 1}};
  const Metrics m = compute_metrics(jobs, 4, 10, 0.0);
  EXPECT_EQ(m.jobs, 3);
  EXPECT_DOUBLE_EQ(m.wait.mean, (0 + 10 + 30) / 3.0);
  EXPECT_DOUBLE_EQ(m.wait.median, 10);
  EXPECT_DOUBLE_EQ(m.wait.p90, 10 + 0.8 * 20);
  EXPECT_DOUBLE_EQ(m.wait.max, 30);
  EXPECT_DOUBLE_EQ(m.response.mean, (5 + 30 + 90) / 3.0);
  // slowdowns 1, 1.5, 1.5; bounded: max(1, 5/10) = 1, 30/20, 90/60
  EXPECT_DOUBLE_EQ(m.slowdown.mean, 4.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.bounded_slowdown.mean, (1 + 1.5 + 1.5) / 3.0);
  EXPECT_EQ(m.makespan, 100);
  EXPECT_DOUBLE_EQ(m.utilization, (2 * 5 + 4 * 20 + 1 * 60) / (4.0 * 100));
}

TEST(MetricsTest, ZeroRuntimeSlowdownUsesOneSecond) {
  const Metrics m = compute_metrics({{0, 7, 7, 1}}, 1, 10, 0.0);
  EXPECT_DOUBLE_EQ(m.slowdown.mean, 7.0);          // 7 / max(0, 1)
  EXPECT_DOUBLE_EQ(m.bounded_slowdown.mean, 1.0);  // max(1, 7 / 10)
  const Metrics tau1 = compute_metrics({{0, 7, 7, 1}}, 1, 1, 0.0);
  EXPECT_DOUBLE_EQ(tau1.bounded_slowdown.mean, 7.0);
}

TEST(MetricsTest, SlowdownIsNeverBelowOne) {
  // A job that neither waits nor runs: response 0 over 1 s would be 0, a slowdown no schedule can have.
  const Metrics m = compute_metrics({{5, 5, 5, 1}, {0, 0, 10, 1}}, 1, 10, 0.0);
  EXPECT_DOUBLE_EQ(m.slowdown.mean, 1.0);
  EXPECT_DOUBLE_EQ(m.slowdown.median, 1.0);
  EXPECT_DOUBLE_EQ(m.slowdown.max, 1.0);
}

TEST(MetricsTest, WarmupExcludesFirstTerminatedJobs) {
  // 10 jobs; warm-up 0.25 -> floor(2.5) = 2 first in termination order left out of the averages only.
  std::vector<JobTimes> jobs;
  for (int k = 0; k < 10; ++k) jobs.push_back({0, k == 0 ? 1000 : 0, (k == 0 ? 1000 : 0) + 10, 1});
  const Metrics m = compute_metrics(jobs, 1, 10, 0.25);
  EXPECT_EQ(m.warmup_excluded, 2);
  EXPECT_EQ(m.jobs, 8);
  EXPECT_DOUBLE_EQ(m.wait.mean, 0);
  EXPECT_EQ(m.makespan, 1010);  // utilization and makespan keep every job
  EXPECT_DOUBLE_EQ(m.utilization, 100.0 / 1010.0);
}

TEST(MetricsTest, EmptyAndSummaries) {
  const Metrics m = compute_metrics({}, 4);
  EXPECT_EQ(m.jobs, 0);
  EXPECT_EQ(m.makespan, 0);
  std::vector<double> v = {4, 1, 3, 2};
  const Summary s = summarize(v);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.p90, 3.7);
  EXPECT_DOUBLE_EQ(s.max, 4);
}

TEST(MetricsTest, SimulationUsesWarmupInTerminationOrder) {
  using testing::J;
  // The first job to terminate is J2 (short), not J1.
  const auto w = testing::workload(10, {J{1, 0, 100, 5, 100}, J{2, 0, 10, 5, 10}, J{3, 5, 10, 10, 10}});
  SimOptions o;
  o.check = true;
  o.warmup_fraction = 0.34;  // floor(1.02) = 1 job
  const SimResult r = simulate(w, "fcfs", "estimate", o);
  ASSERT_EQ(r.termination_order.front(), 1);
  EXPECT_EQ(r.metrics.warmup_excluded, 1);
  EXPECT_DOUBLE_EQ(r.metrics.wait.mean, (0 + 95) / 2.0);
}

}  // namespace
}  // namespace schedlab::sim
