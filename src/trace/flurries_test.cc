#include "schedlab/trace/flurries.h"

#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace schedlab::trace {
namespace {

void add_jobs(std::vector<swf::Record>& log, int32_t user, int64_t week, int n) {
  for (int i = 0; i < n; ++i) {
    swf::Record r;
    r.submit_time = static_cast<int32_t>(week * 7 * 86400 + 100 + i);
    r.user_id = user;
    log.push_back(r);
  }
}

TEST(Flurries, RuleNeedsBothTheRatioAndTheMinimum) {
  std::vector<swf::Record> log;
  add_jobs(log, 1, 0, 100);   // week 0 (also sets the origin at 100 s)
  add_jobs(log, 2, 0, 301);   // > 3 x 100 but not > 500
  add_jobs(log, 1, 1, 200);
  add_jobs(log, 3, 1, 601);   // > 3 x 200 and > 500: flurry
  add_jobs(log, 1, 2, 200);
  add_jobs(log, 3, 2, 600);   // exactly 3 x 200: not a flurry
  add_jobs(log, 4, 3, 900);   // alone in the week: flurry, ratio = jobs / 1
  const auto f = find_flurries(log);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].user, 3);
  EXPECT_EQ(f[0].week, 1);
  EXPECT_EQ(f[0].jobs, 601);
  EXPECT_EQ(f[0].runner_up, 1);
  EXPECT_EQ(f[0].runner_up_jobs, 200);
  EXPECT_DOUBLE_EQ(f[0].ratio, 601.0 / 200);
  EXPECT_EQ(f[1].user, 4);
  EXPECT_DOUBLE_EQ(f[1].ratio, 900);
  FlurryOptions lower;
  lower.min_jobs = 300;
  EXPECT_EQ(find_flurries(log, lower).size(), 3u);  // user 2 in week 0 now counts

  const auto kept = drop_flurries(log, f, first_submit_time(log), 7 * 86400);
  EXPECT_EQ(kept.size(), log.size() - 601 - 900);
  const auto notes = flurry_notes(f, {}, 1501);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_NE(notes[0].find("1501"), std::string::npos);
}

TEST(Flurries, UnknownUsersAndTimesAreNeverFlurries) {
  std::vector<swf::Record> log;
  add_jobs(log, -1, 0, 1000);
  add_jobs(log, 1, 0, 10);
  swf::Record unknown_time;
  unknown_time.user_id = 1;
  log.push_back(unknown_time);
  EXPECT_TRUE(find_flurries(log).empty());
  EXPECT_EQ(unattributed_jobs(log), 1001);  // said by the command, so that they are not lost from sight
  FlurryOptions bad;
  bad.factor = 0.5;
  EXPECT_THROW(find_flurries(log, bad), std::invalid_argument);
}

}  // namespace
}  // namespace schedlab::trace
