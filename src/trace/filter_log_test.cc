// Filtering a whole log: criteria, then flurries dropped from the kept jobs, with notes in the header.
#include "schedlab/trace/filter_log.h"

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

}  // namespace
}  // namespace schedlab::trace
