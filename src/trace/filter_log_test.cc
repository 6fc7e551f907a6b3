// Filtering a whole log: criteria, then flurries dropped from the kept jobs, with notes in the header.
#include "schedlab/trace/filter_log.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "test_util.h"

namespace schedlab::trace {
namespace {

// Week 0: user 1 submits 600 jobs (a flurry: > 3 x user 2's 10 and > 500), user 2 submits 10; all of size 4
// except user 2's, of size 1.
swf::Log flurry_log() {
  swf::Log log;
  int32_t n = 0;
  for (int i = 0; i < 600; ++i)
    log.records.push_back(testing::record({.job_number = ++n, .submit_time = i, .run_time = 10, .requested_procs = 4,
                                           .user_id = 1}));
  for (int i = 0; i < 10; ++i)
    log.records.push_back(testing::record({.job_number = ++n, .submit_time = 1000 + i, .run_time = 10,
                                           .requested_procs = 1, .user_id = 2}));
  return log;
}

TEST(FilterLog, CriteriaThenFlurriesWithNotes) {
  const swf::Log log = flurry_log();
  FilterSpec spec;
  spec.max_procs = 2;  // keeps only user 2's jobs
  FilteredLog f = filter_log(log, spec, std::nullopt);
  EXPECT_EQ(f.result.kept.size(), 10u);
  EXPECT_EQ(f.flurry_dropped, 0);
  EXPECT_FALSE(f.header.notes.empty());  // the filter's own note
  // Without criteria, dropping the flurry removes user 1's 600 jobs and says so in the header.
  f = filter_log(log, FilterSpec{}, FlurryOptions{});
  EXPECT_EQ(f.flurry_dropped, 600);
  EXPECT_EQ(f.result.kept.size(), 10u);
  bool noted = false;
  for (const auto& note : f.header.notes) noted = noted || note.find("flurr") != std::string::npos;
  EXPECT_TRUE(noted);
}

// A log read with its partial-execution lines (a preempted job's bursts, after its summary line): the criteria judge
// the jobs, and each kept job keeps its lines.
TEST(FilterLog, PartialExecutionLinesGoWithTheirJob) {
  swf::ReadOptions keep;
  keep.keep_partial_executions = true;
  const std::string text =
      "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"   // job 1 (user 1), two bursts
      "1 -1 10 40 4 -1 -1 4 200 -1 2 1 1 -1 -1 -1 -1 -1\n"
      "1 -1 20 60 4 -1 -1 4 200 -1 3 1 1 -1 -1 -1 -1 -1\n"
      "2 5 0 50 8 -1 -1 8 100 -1 1 2 1 -1 -1 -1 -1 -1\n"     // job 2 (user 2), one burst
      "2 -1 0 50 8 -1 -1 8 100 -1 3 2 1 -1 -1 -1 -1 -1\n"
      "3 9 0 50 8 -1 -1 8 100 -1 1 1 1 -1 -1 -1 -1 -1\n";    // job 3 (user 1)
  const swf::Log log = swf::parse_log(text, "<memory>", keep);
  ASSERT_EQ(log.records.size(), 6u);
  FilterSpec users;
  users.users = std::set<int32_t>{1};
  FilteredLog f = filter_log(log, users, std::nullopt);
  ASSERT_EQ(f.result.kept.size(), 4u);  // job 1 with both bursts, job 3
  EXPECT_EQ(f.result.kept[2].status, 3);
  EXPECT_EQ(f.result.kept[3].job_number, 3);
  EXPECT_EQ(f.partial_executions_kept, 2);
  EXPECT_EQ(f.result.excluded_total(), 1);  // job 2, one job
  // A date window judges the summary lines (the bursts have no submit time of their own).
  FilterSpec window;
  window.from = 1;
  f = filter_log(log, window, std::nullopt);
  ASSERT_EQ(f.result.kept.size(), 3u);
  EXPECT_EQ(f.result.kept[0].job_number, 2);
  EXPECT_EQ(f.result.kept[1].status, 3);
  EXPECT_EQ(f.partial_executions_kept, 1);
  EXPECT_EQ(f.result.excluded[static_cast<size_t>(FilterReason::kBeforeFrom)], 1);
  EXPECT_EQ(f.result.excluded[static_cast<size_t>(FilterReason::kUnknownSubmit)], 0);
  bool noted = false;
  for (const auto& note : f.header.notes) noted = noted || note.find("2 left out with theirs") != std::string::npos;
  EXPECT_TRUE(noted);
  // Without partial-execution lines, the records are judged as they are (the bursts were left out on reading).
  f = filter_log(swf::parse_log(text), users, std::nullopt);
  EXPECT_EQ(f.result.kept.size(), 2u);
  EXPECT_EQ(f.partial_executions_kept, 0);
}

}  // namespace
}  // namespace schedlab::trace
