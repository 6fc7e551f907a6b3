// The sessions study on the project's own KTH log: pooling, classes looked up by variable name, CSV, JSON,
// and errors naming the log.
#include "schedlab/experiments/session_study.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include "test_util.h"

namespace schedlab::experiments {
namespace {

const swf::Log& study_kth() {
  static const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  return log;
}

TEST(SessionStudy, PoolingALogWithItselfDoublesTheSessionsAndKeepsTheMedians) {
  SessionStudyOptions o;
  const SessionStudy one = run_session_study({{"a/kth.swf", study_kth()}}, o);
  const SessionStudy two = run_session_study({{"a/kth.swf", study_kth()}, {"b/kth.swf", study_kth()}}, o);
  ASSERT_GT(one.sessions, 1000);
  EXPECT_EQ(two.sessions, 2 * one.sessions);
  for (size_t v = 0; v < analysis::kSessionVars; ++v)
    EXPECT_DOUBLE_EQ(two.variables[v].median, one.variables[v].median);
  EXPECT_EQ(one.logs[0].label, "kth.swf");
  const std::string csv = session_study_csv(two);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), two.sessions + 1);
  EXPECT_EQ(csv.rfind("kth.swf,", csv.find('\n') + 1), csv.find('\n') + 1);
}

TEST(SessionStudy, ClassMeansByNameAreTheClassificationsColumns) {
  SessionStudyOptions o;
  o.classify = true;
  o.online = true;
  o.classify_options.restarts = 2;
  const SessionStudy st = run_session_study({{"kth", study_kth()}}, o);
  const auto& sc = st.session_classes;
  ASSERT_EQ(sc.variables.size(), 7u);
  for (int c = 0; c < analysis::kSessionClasses; ++c)
    for (size_t v = 0; v < sc.variables.size(); ++v)
      EXPECT_EQ(class_mean(sc, c, sc.variables[v]), sc.class_means[static_cast<size_t>(c)][v]);
  EXPECT_THROW(class_mean(sc, 0, "no-such-variable"), std::out_of_range);
  int64_t online = 0;
  for (const int64_t n : st.online_counts) online += n;
  EXPECT_EQ(online, st.sessions);
  ASSERT_TRUE(st.online_agreement.has_value());
  // One row per user, in the classification's order: the class column counts as the classes do, and the
  // job counts add up to the jobs in sessions.
  const std::string users = user_study_csv(st);
  ASSERT_EQ(users.substr(0, users.find('\n')), "log,user,PD,Pm,Rm,J,PW,Im,JW,pBHD,class");
  EXPECT_EQ(std::count(users.begin(), users.end(), '\n'), st.users + 1);
  for (int c = 0; c < analysis::kUserClasses; ++c) {
    const std::string name(analysis::user_class_name(static_cast<analysis::UserClass>(c)));
    int64_t rows = 0;
    for (size_t at = users.find("," + name + "\n"); at != std::string::npos; at = users.find("," + name + "\n", at + 1))
      ++rows;
    EXPECT_EQ(rows, st.user_classes.counts[static_cast<size_t>(c)]) << name;
  }
  double jobs = 0;
  for (const auto& r : st.logs[0].user_rows) jobs += r[3];
  int64_t in_sessions = 0;
  for (const auto& s : st.logs[0].sessions.sessions) in_sessions += static_cast<int64_t>(s.jobs.size());
  EXPECT_EQ(jobs, static_cast<double>(in_sessions));
  const auto j = to_json(st);
  EXPECT_EQ(j["sessions"], st.sessions);
  EXPECT_EQ(j["users"], st.users);
  EXPECT_TRUE(j.contains("online_agreement_with_kmeans"));
}

TEST(SessionStudy, UserRowsNeedTheClasses) {
  const SessionStudy st = run_session_study({{"kth", study_kth()}}, {});
  EXPECT_TRUE(st.logs[0].user_rows.empty());
  EXPECT_THROW(user_study_csv(st), std::invalid_argument);
}

TEST(SessionStudy, ErrorsNameTheLog) {
  swf::Log no_start = study_kth();
  no_start.header.unix_start_time.reset();
  SessionStudyOptions o;
  o.online = true;
  try {
    run_session_study({{"nostart.swf", no_start}}, o);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("nostart.swf"), std::string::npos) << e.what();
  }
  swf::Log empty = study_kth();
  empty.records.clear();
  EXPECT_THROW(run_session_study({{"empty.swf", empty}}, {}), std::invalid_argument);
  EXPECT_THROW(run_session_study({}, {}), std::invalid_argument);  // no log: not an empty study
  // Two users' jobs, one session each: two logs pool four sessions, too few for five classes; both are named.
  swf::Log few = study_kth();
  few.records.resize(2);
  SessionStudyOptions classify;
  classify.classify = true;
  try {
    run_session_study({{"a.swf", few}, {"b.swf", few}}, classify);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "a.swf, b.swf: classifying sessions needs at least 5 sessions (got 4)");
  }
}

}  // namespace
}  // namespace schedlab::experiments
