#include "schedlab/trace/sessions.h"

#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace schedlab::trace {
namespace {

swf::Record job(int32_t submit, int32_t wait, int32_t run, int32_t user) {
  swf::Record r;
  r.submit_time = submit;
  r.wait_time = wait;
  r.run_time = run;
  r.user_id = user;
  return r;
}

TEST(Sessions, ThinkTimeFromThePreviousTerminationSplitsSessions) {
  const std::vector<swf::Record> log = {
      job(0, 0, 100, 1),     // ends 100
      job(50, 0, 10, 2),     // user 2
      job(1299, 0, 10, 1),   // think 1199 < 1200: same session, ends 1309
      job(2509, 0, 10, 1),   // think exactly 1200: new session
      job(2510, -1, -1, 1),  // negative think time: same session
      job(100, 0, 10, -1),   // unknown user
  };
  const Sessions s = build_sessions(log);
  EXPECT_EQ(s.unattributed, 1);
  ASSERT_EQ(s.sessions.size(), 3u);
  EXPECT_EQ(s.sessions[0].user, 1);
  EXPECT_EQ(s.sessions[0].jobs, (std::vector<size_t>{0, 2}));
  EXPECT_EQ(s.sessions[0].end, 1309);
  EXPECT_EQ(s.sessions[1].user, 2);
  EXPECT_EQ(s.sessions[2].jobs, (std::vector<size_t>{3, 4}));
  EXPECT_EQ(s.sessions[2].start, 2509);
  EXPECT_EQ(s.sessions[2].end, 2519);
  EXPECT_EQ(build_sessions(log, 100000).sessions.size(), 2u);
  EXPECT_THROW(build_sessions(log, 0), std::invalid_argument);
  EXPECT_TRUE(starts_new_session(100, 1300));
  EXPECT_FALSE(starts_new_session(100, 1299));
}

}  // namespace
}  // namespace schedlab::trace
