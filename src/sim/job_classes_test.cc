#include "schedlab/sim/job_classes.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>

#include "schedlab/swf/reader.h"
#include "sim/sim_test_helpers.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

using schedlab::testing::J;

// EASY on 10 processors (EasyTest.BackfilledCounts...'s schedule): starts 0, 100, 150, 3, 4; J4 and J5 backfilled.
// Short: at most 100 s; narrow: at most 4 processors.
//   J1 100 s x 6, wait 0   short wide     J2 50 s x 8, wait 99    short wide
//   J3 200 s x 4, wait 148 long narrow    J4 500 s x 2, wait 0    long narrow (backfilled)
//   J5 90 s x 2, wait 0    short narrow (backfilled)
TEST(JobClassesTest, HandComputedBreakdown) {
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}, J{3, 2, 200, 4, 200},
                                        J{4, 3, 500, 2, 500}, J{5, 4, 90, 2, 90}});
  const SimResult r = testing::run(w, "easy");
  ASSERT_EQ(testing::starts(w, r), (std::vector<int64_t>{0, 100, 150, 3, 4}));
  const auto c = metrics_by_class(w, r, {.short_runtime = 100, .narrow_procs = 4});
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].name, "short narrow");
  EXPECT_EQ(c[0].jobs, 1);
  EXPECT_DOUBLE_EQ(c[0].share, 0.2);
  EXPECT_DOUBLE_EQ(c[0].work_share, 180.0 / 2980);
  EXPECT_DOUBLE_EQ(c[0].wait_mean, 0);
  EXPECT_DOUBLE_EQ(c[0].response_mean, 90);
  EXPECT_DOUBLE_EQ(c[0].bounded_slowdown_mean, 1);
  EXPECT_EQ(c[0].backfilled, 1);
  EXPECT_DOUBLE_EQ(c[0].backfilled_share, 1);
  EXPECT_EQ(c[1].name, "short wide");
  EXPECT_EQ(c[1].jobs, 2);
  EXPECT_DOUBLE_EQ(c[1].work_share, 1000.0 / 2980);
  EXPECT_DOUBLE_EQ(c[1].wait_mean, 49.5);
  EXPECT_DOUBLE_EQ(c[1].response_mean, 124.5);
  EXPECT_DOUBLE_EQ(c[1].slowdown_mean, (1 + 149.0 / 50) / 2);
  EXPECT_DOUBLE_EQ(c[1].bounded_slowdown_mean, (1 + 149.0 / 50) / 2);
  EXPECT_EQ(c[1].backfilled, 0);
  EXPECT_EQ(c[2].name, "long narrow");
  EXPECT_EQ(c[2].jobs, 2);
  EXPECT_DOUBLE_EQ(c[2].wait_mean, 74);
  EXPECT_DOUBLE_EQ(c[2].slowdown_mean, (348.0 / 200 + 1) / 2);
  EXPECT_EQ(c[2].backfilled, 1);
  EXPECT_DOUBLE_EQ(c[2].backfilled_share, 0.5);
  EXPECT_EQ(c[3].name, "long wide");
  EXPECT_EQ(c[3].jobs, 0);
  EXPECT_DOUBLE_EQ(c[3].share, 0);
  EXPECT_DOUBLE_EQ(c[3].wait_mean, 0);
  // The bounded slowdown's tau: J5's 90 s below a tau of 200 s gives max(1, 90 / 200) = 1; J2's 149 / 200 -> 1.
  const auto tau = metrics_by_class(w, r, {.short_runtime = 100, .narrow_procs = 4}, 200);
  EXPECT_DOUBLE_EQ(tau[1].bounded_slowdown_mean, 1);
  EXPECT_DOUBLE_EQ(tau[2].bounded_slowdown_mean, (348.0 / 200 + 1) / 2);
  // Warm-up: J5, the first to end, is left out (of the counts and the shares too).
  SimOptions o;
  o.warmup_fraction = 0.2;
  const SimResult warm = simulate(w, "easy", "estimate", o);
  const auto cw = metrics_by_class(w, warm, {.short_runtime = 100, .narrow_procs = 4});
  EXPECT_EQ(cw[0].jobs, 0);
  EXPECT_DOUBLE_EQ(cw[1].share, 0.5);
  EXPECT_DOUBLE_EQ(cw[1].work_share, 1000.0 / 2800);
}

TEST(JobClassesTest, LimitsAreParsedAsWritten) {
  const JobClassLimits d = parse_job_class_limits("1h,8");
  EXPECT_EQ(d.short_runtime, 3600);
  EXPECT_EQ(d.narrow_procs, 8);
  EXPECT_EQ(job_class_limits_text(d), "1h,8");
  EXPECT_EQ(job_class_limits_text(JobClassLimits{}), "1h,8");  // the defaults
  EXPECT_EQ(parse_job_class_limits("90,32").short_runtime, 90);
  EXPECT_EQ(job_class_limits_text(parse_job_class_limits("1h30m,32")), "1:30,32");  // h:mm
  for (const char* bad : {"", "1h", "1h,", ",8", "0,8", "-5m,8", "1x,8", "1h,0", "1h,-2", "1h,8p", "1h,8,2"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_job_class_limits(bad), std::invalid_argument);
  }
  try {
    parse_job_class_limits("1h,wide");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "job class limits '1h,wide': 'wide' is not a positive whole number of processors (RUNTIME,PROCS, e.g. 1h,8)");
  }
}

TEST(JobClassesTest, BadLimitsAndAForeignResultAreRefused) {
  const auto w = testing::workload(10, {J{1, 0, 100, 6, 100}, J{2, 1, 50, 8, 50}});
  const SimResult r = testing::run(w, "easy");
  EXPECT_THROW(metrics_by_class(w, r, {.short_runtime = 0, .narrow_procs = 4}), std::invalid_argument);
  EXPECT_THROW(metrics_by_class(w, r, {.short_runtime = 60, .narrow_procs = 0}), std::invalid_argument);
  const auto other = testing::workload(10, {J{1, 0, 100, 6, 100}});
  EXPECT_THROW(metrics_by_class(other, r), std::invalid_argument);
}

// Over a whole real log: the classes partition the jobs of the averages (counts, shares, backfilled jobs, work), their
// means weighted by their shares give the run's, and one class holding every job has the run's means exactly.
TEST(JobClassesTest, ClassesPartitionARealRun) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  const Workload w = build_workload(log.header, log.records, {});
  SimOptions o;
  o.warmup_fraction = 0.01;
  for (const char* scheduler : {"easy", "conservative", "easy-sjbf"}) {
    SCOPED_TRACE(scheduler);
    const SimResult r = simulate(w, scheduler, "estimate", o);
    const auto c = metrics_by_class(w, r);
    int64_t jobs = 0, backfilled = 0;
    double share = 0, work = 0, wait = 0, bsld = 0;
    for (const JobClassMetrics& m : c) {
      EXPECT_GT(m.jobs, 0) << m.name;
      jobs += m.jobs, backfilled += m.backfilled, share += m.share, work += m.work_share;
      wait += m.share * m.wait_mean, bsld += m.share * m.bounded_slowdown_mean;
    }
    EXPECT_EQ(jobs, r.metrics.jobs);
    EXPECT_EQ(backfilled, r.backfilled);
    EXPECT_NEAR(share, 1, 1e-12);
    EXPECT_NEAR(work, 1, 1e-12);
    EXPECT_NEAR(wait, r.metrics.wait.mean, 1e-9 * r.metrics.wait.mean);
    EXPECT_NEAR(bsld, r.metrics.bounded_slowdown.mean, 1e-9 * r.metrics.bounded_slowdown.mean);
    const auto one = metrics_by_class(w, r, {.short_runtime = std::numeric_limits<int64_t>::max(),
                                             .narrow_procs = std::numeric_limits<int64_t>::max()});
    EXPECT_EQ(one[0].jobs, r.metrics.jobs);
    EXPECT_EQ(one[0].wait_mean, r.metrics.wait.mean);  // the same sums in the same order
    EXPECT_EQ(one[0].response_mean, r.metrics.response.mean);
    EXPECT_EQ(one[0].slowdown_mean, r.metrics.slowdown.mean);
    EXPECT_EQ(one[0].bounded_slowdown_mean, r.metrics.bounded_slowdown.mean);
    EXPECT_DOUBLE_EQ(one[0].backfilled_share, r.backfilled_share());
  }
}

}  // namespace
}  // namespace schedlab::sim
