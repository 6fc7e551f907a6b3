#include "schedlab/analysis/summary.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::analysis {
namespace {

// A small log on an 8-processor machine with known answers.
std::vector<swf::Record> summary_log() {
  std::vector<swf::Record> jobs = {
      testing::record({.submit_time = 0, .run_time = 100, .requested_procs = 4, .requested_time = 200, .user_id = 1}),
                           // valid
      testing::record({.submit_time = 86400, .run_time = 50, .requested_procs = 2, .requested_time = 100,
                       .user_id = 2}),  // valid, submitted 1 day later
      testing::record({.submit_time = 3600, .run_time = 300, .requested_procs = 8, .requested_time = 200,
                       .user_id = 2}),  // valid, runtime > estimate; out of submit order
      testing::record({.submit_time = 7200, .requested_procs = 1, .requested_time = 100, .user_id = 3}),
                         // negative runtime
      testing::record({.submit_time = 7200, .run_time = 10, .requested_procs = 16, .requested_time = 100,
                       .user_id = 3}),  // larger than machine
      testing::record({.submit_time = 7300, .run_time = 10}),  // no size (allocated -1 too), no estimate, unknown user
  };
  jobs[0].wait_time = 10;
  jobs[1].wait_time = 30;
  jobs[2].group_id = 5;
  jobs[2].queue = 2;
  jobs[3].partition = 1;
  jobs[4].executable = 0;
  return jobs;
}

TEST(Summary, CountsAndExclusions) {
  swf::Header h;
  h.max_procs = 8;
  const Summary s = summarize(h, summary_log());
  EXPECT_EQ(s.records, 6);
  EXPECT_EQ(s.machine.procs, 8);
  EXPECT_EQ(s.machine.source, trace::MachineSizeSource::kMaxProcs);
  EXPECT_EQ(s.valid_jobs, 3);
  EXPECT_EQ(s.excluded[static_cast<int>(trace::Exclusion::kNone)], 3);
  EXPECT_EQ(s.excluded[static_cast<int>(trace::Exclusion::kNegativeRuntime)], 1);
  EXPECT_EQ(s.excluded[static_cast<int>(trace::Exclusion::kLargerThanMachine)], 1);
  EXPECT_EQ(s.excluded[static_cast<int>(trace::Exclusion::kNonPositiveSize)], 1);
  EXPECT_EQ(s.without_estimate, 1);
  EXPECT_EQ(s.users, 3);  // 1, 2, 3; -1 ignored
  EXPECT_EQ(s.groups, 1);
  EXPECT_EQ(s.queues, 1);
  EXPECT_EQ(s.partitions, 1);
  EXPECT_EQ(s.executables, 1);  // 0 is a real value
}

// Fields 17-18: the jobs naming a preceding job, those whose job comes earlier in (submit, job number) order (the
// links simulate --feedback follows), and those giving a think time.
TEST(Summary, DependenciesAreCounted) {
  std::vector<swf::Record> jobs = summary_log();
  for (size_t i = 0; i < jobs.size(); ++i) jobs[i].job_number = static_cast<int32_t>(i + 1);
  swf::Header h;
  h.max_procs = 8;
  EXPECT_EQ(summarize(h, jobs).dependent, 0);
  jobs[1].preceding_job = 3;  // job 2 (day 1) follows job 3 (hour 1): earlier
  jobs[1].think_time = 60;
  jobs[2].preceding_job = 2;  // job 3 follows job 2, which comes later
  jobs[4].preceding_job = 4;  // job 5 follows job 4, submitted in the same second with a lower number: earlier
  jobs[4].think_time = 0;
  jobs[5].preceding_job = 9;  // no such job
  const Summary s = summarize(h, jobs);
  EXPECT_EQ(s.dependent, 4);
  EXPECT_EQ(s.preceding_earlier, 2);
  EXPECT_EQ(s.think_given, 2);
}

TEST(Summary, ProcsOptionChangesExclusions) {
  swf::Header h;
  h.max_procs = 8;
  const Summary s = summarize(h, summary_log(), 4);
  EXPECT_EQ(s.machine.procs, 4);
  EXPECT_EQ(s.machine.source, trace::MachineSizeSource::kOption);
  EXPECT_EQ(s.excluded[static_cast<int>(trace::Exclusion::kLargerThanMachine)], 2);  // 8 and 16
  EXPECT_EQ(s.valid_jobs, 2);
}

TEST(Summary, TimeSpanAndOfferedLoad) {
  swf::Header h;
  h.max_procs = 8;
  const Summary s = summarize(h, summary_log());
  EXPECT_EQ(s.first_submit, 0);
  EXPECT_EQ(s.last_submit, 86400);
  EXPECT_DOUBLE_EQ(s.span_days, 1.0);
  EXPECT_DOUBLE_EQ(s.jobs_per_day, 6.0);
  // valid jobs: 4*100 + 2*50 + 8*300 = 2900 processor-seconds over 8 x 86400
  EXPECT_DOUBLE_EQ(s.offered_load, 2900.0 / (8.0 * 86400.0));
  // sorted submits 0, 3600, 7200, 7200, 7300, 86400 -> gaps 3600, 3600, 0, 100, 79100
  EXPECT_EQ(s.interarrival.count, 5);
  EXPECT_DOUBLE_EQ(s.interarrival.min, 0);
  EXPECT_DOUBLE_EQ(s.interarrival.median, 3600);
  EXPECT_DOUBLE_EQ(s.interarrival.max, 79100);
  // Without a valid job (no runtime anywhere) the load is unknown, not 0.
  std::vector<swf::Record> unknown = summary_log();
  for (auto& r : unknown) r.run_time = -1;
  EXPECT_TRUE(std::isnan(summarize(h, unknown).offered_load));
}

TEST(Summary, DistributionsSkipUnknownValues) {
  swf::Header h;
  h.max_procs = 8;
  const Summary s = summarize(h, summary_log());
  // runtimes known: 100, 50, 300, 10, 10 (the -1 is left out)
  EXPECT_EQ(s.runtime.count, 5);
  EXPECT_DOUBLE_EQ(s.runtime.median, 50);
  EXPECT_DOUBLE_EQ(s.runtime.mean, 94);
  // sizes known: 4, 2, 8, 1, 16
  EXPECT_EQ(s.size.count, 5);
  EXPECT_DOUBLE_EQ(s.size.max, 16);
  EXPECT_DOUBLE_EQ(s.power_of_two_share, 1.0);
  // estimates: 200, 100, 200, 100, 100
  EXPECT_EQ(s.estimate.count, 5);
  EXPECT_DOUBLE_EQ(s.estimate.median, 100);
  // waits: 10, 30 only
  EXPECT_EQ(s.wait.count, 2);
  EXPECT_DOUBLE_EQ(s.wait.mean, 20);
  // accuracy over jobs with runtime >= 0 and an estimate: 0.5, 0.5, 1.5, 0.1
  EXPECT_EQ(s.accuracy.count, 4);
  EXPECT_DOUBLE_EQ(s.accuracy.median, 0.5);
  EXPECT_DOUBLE_EQ(s.runtime_over_estimate_share, 0.25);
}

TEST(Summary, EstimatePopularity) {
  std::vector<swf::Record> jobs;
  // 60 jobs with estimate 3600, 25 with 600, 10 with 60, 5 with 7200
  for (int i = 0; i < 60; ++i)
    jobs.push_back(testing::record({.submit_time = i, .run_time = 1, .requested_procs = 1, .requested_time = 3600,
                                    .user_id = 1}));
  for (int i = 0; i < 25; ++i)
    jobs.push_back(testing::record({.submit_time = i, .run_time = 1, .requested_procs = 3, .requested_time = 600,
                                    .user_id = 1}));
  for (int i = 0; i < 10; ++i)
    jobs.push_back(testing::record({.submit_time = i, .run_time = 1, .requested_procs = 1, .requested_time = 60,
                                    .user_id = 1}));
  for (int i = 0; i < 5; ++i)
    jobs.push_back(testing::record({.submit_time = i, .run_time = 1, .requested_procs = 1, .requested_time = 7200,
                                    .user_id = 1}));
  const Summary s = summarize(swf::Header{}, jobs);
  EXPECT_EQ(s.distinct_estimates, 4);
  EXPECT_EQ(s.estimates_for_50, 1);  // 60% >= 50%
  EXPECT_EQ(s.estimates_for_90, 3);  // 60 + 25 = 85% < 90%, + 10 = 95%
  EXPECT_DOUBLE_EQ(s.power_of_two_share, 0.75);  // 25 jobs of size 3
  EXPECT_EQ(s.machine.procs, 3);  // largest job
}

TEST(Summary, EmptyLogHasNoFigures) {
  const Summary s = summarize(swf::Header{}, {});
  EXPECT_EQ(s.records, 0);
  EXPECT_EQ(s.first_submit, -1);
  EXPECT_TRUE(std::isnan(s.jobs_per_day));
  EXPECT_TRUE(std::isnan(s.offered_load));
  EXPECT_TRUE(std::isnan(s.power_of_two_share));
  EXPECT_EQ(s.runtime.count, 0);
}

// The real KTH log, checked against straightforward independent computations.
TEST(Summary, KthAgainstIndependentFigures) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const swf::Log log = swf::read_log(testing::trace_path("KTH-SP2-1996-2.swf.gz"));
  const Summary s = summarize(log);
  EXPECT_EQ(s.records, 28489);
  EXPECT_EQ(s.machine.procs, 100);
  EXPECT_EQ(s.read.records, 28489);

  std::vector<int32_t> runtimes;
  std::set<int32_t> users;
  int32_t first = INT32_MAX, last = INT32_MIN;
  double area = 0;
  int64_t over = 0, pow2 = 0;
  for (const auto& r : log.records) {
    if (r.run_time >= 0) runtimes.push_back(r.run_time);
    if (r.user_id != -1) users.insert(r.user_id);
    first = std::min(first, r.submit_time);
    last = std::max(last, r.submit_time);
    const int32_t size = r.requested_procs > 0 ? r.requested_procs : r.allocated_procs;
    if (r.run_time >= 0 && size > 0 && size <= 100) area += double(size) * r.run_time;
    if (r.requested_time > 0 && r.run_time > r.requested_time) ++over;
    if (size == 1 || size == 2 || size == 4 || size == 8 || size == 16 || size == 32 || size == 64) ++pow2;
  }
  std::sort(runtimes.begin(), runtimes.end());
  ASSERT_EQ(runtimes.size() % 2, 1u);
  EXPECT_DOUBLE_EQ(s.runtime.median, runtimes[runtimes.size() / 2]);
  EXPECT_DOUBLE_EQ(s.runtime.max, runtimes.back());
  EXPECT_EQ(s.users, static_cast<int64_t>(users.size()));
  EXPECT_EQ(s.first_submit, first);
  EXPECT_EQ(s.last_submit, last);
  EXPECT_NEAR(s.offered_load, area / (100.0 * (last - first)), 1e-12);
  EXPECT_NEAR(s.runtime_over_estimate_share, double(over) / 28489.0, 1e-12);
  EXPECT_NEAR(s.power_of_two_share, double(pow2) / 28489.0, 1e-12);
  EXPECT_EQ(s.read.warning(swf::Warning::kEstimateBelowRuntime).count, over);
}

}  // namespace
}  // namespace schedlab::analysis
