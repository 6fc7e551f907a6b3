#include "schedlab/trace/sessions.h"
#include "test_util.h"

#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace schedlab::trace {
namespace {

TEST(Sessions, ThinkTimeFromThePreviousTerminationSplitsSessions) {
  const std::vector<swf::Record> log = {
      testing::record({.submit_time = 0, .wait_time = 0, .run_time = 100, .user_id = 1}),     // ends 100
      testing::record({.submit_time = 50, .wait_time = 0, .run_time = 10, .user_id = 2}),     // user 2
      testing::record({.submit_time = 1299, .wait_time = 0, .run_time = 10, .user_id = 1}),
                         // think 1199 < 1200: same session, ends 1309
      testing::record({.submit_time = 2509, .wait_time = 0, .run_time = 10, .user_id = 1}),
                         // think exactly 1200: new session
      testing::record({.submit_time = 2510, .user_id = 1}),  // negative think time: same session
      testing::record({.submit_time = 100, .wait_time = 0, .run_time = 10}),   // unknown user
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
