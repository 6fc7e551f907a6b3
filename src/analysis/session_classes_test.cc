#include "schedlab/analysis/session_classes.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/base/random.h"

namespace schedlab::analysis {
namespace {

TEST(SessionTime, DaytimeAndWorkdayShares) {
  // 1970-01-05 was a Monday.
  const int64_t monday = 4 * 86400;
  EXPECT_TRUE(is_workday(monday));
  EXPECT_FALSE(is_workday(monday - 1));  // Sunday 23:59:59
  EXPECT_TRUE(is_daytime(monday + 7 * 3600 + 1800));
  EXPECT_FALSE(is_daytime(monday + 17 * 3600 + 1800));
  EXPECT_DOUBLE_EQ(daytime_share(monday, monday + 86400), 10.0 / 24);
  EXPECT_DOUBLE_EQ(workday_share(monday - 86400, monday + 86400), 0.5);
  EXPECT_DOUBLE_EQ(daytime_share(monday + 8 * 3600, monday + 8 * 3600), 1.0);
}

TEST(SessionVars, VariablesOfOneSession) {
  swf::Header h;
  h.add_line("; UnixStartTime: 345600");  // Monday 1970-01-05 00:00 UTC
  std::vector<swf::Record> log(3);
  const int32_t submit[] = {9 * 3600, 9 * 3600 + 100, 9 * 3600 + 400};
  const int32_t run[] = {50, 200, 60};
  const int32_t size[] = {8, 16, 8};
  for (size_t i = 0; i < 3; ++i) {
    log[i].submit_time = submit[i];
    log[i].wait_time = 0;
    log[i].run_time = run[i];
    log[i].requested_procs = size[i];
    log[i].user_id = 1;
  }
  const auto sessions = trace::build_sessions(log);
  ASSERT_EQ(sessions.sessions.size(), 1u);
  const auto rows = session_variables(log, h, sessions.sessions, 256);
  const SessionRow& r = rows.at(0);
  EXPECT_EQ(r[kJ], 3);
  EXPECT_EQ(r[kD], 460);
  EXPECT_EQ(r[kRm], 60);
  EXPECT_EQ(r[kPm], 4);  // 8 of 256 -> 4 of 128
  EXPECT_EQ(r[kIm], 200);
  EXPECT_EQ(r[kTm], 75);  // think times 50 and 100
  EXPECT_EQ(r[kUP], 2);
  EXPECT_EQ(r[kUR], 3);
  EXPECT_EQ(r[kSD], 1);
  EXPECT_EQ(r[kPD], 1);
  EXPECT_EQ(r[kSW], 1);
  swf::Header no_start;
  EXPECT_THROW(session_variables(log, no_start, sessions.sessions, 256), std::invalid_argument);
}

TEST(KMeans, SeparatedBlobsAreFoundAndNamed) {
  // Five planted session groups with the thesis's distinguishing traits (columns of SessionRow).
  base::Rng rng(3);
  std::vector<SessionRow> rows;
  std::vector<int> truth;
  const auto add = [&](int cls, double d, double pd, double pw, double pm) {
    SessionRow r{};
    r[kD] = d * (1 + 0.1 * rng.normal());
    r[kTi] = 100 * (1 + 0.1 * rng.normal());
    r[kPD] = std::clamp(pd + 0.05 * rng.normal(), 0.0, 1.0);
    r[kPW] = std::clamp(pw + 0.05 * rng.normal(), 0.0, 1.0);
    r[kUP] = 1;
    r[kPm] = pm * (1 + 0.1 * rng.normal());
    r[kRm] = 1000;
    rows.push_back(r);
    truth.push_back(cls);
  };
  for (int i = 0; i < 200; ++i) {
    add(static_cast<int>(SessionClass::kIWD), 5000, 0.95, 1.0, 4);
    add(static_cast<int>(SessionClass::kIWN), 5000, 0.1, 1.0, 4);
    add(static_cast<int>(SessionClass::kIW), 5000, 0.5, 0.0, 4);
    add(static_cast<int>(SessionClass::kBHP), 5000, 0.5, 0.7, 64);
    add(static_cast<int>(SessionClass::kBHD), 400000, 0.5, 0.7, 8);
  }
  const Classification c = classify_sessions(rows, {});
  for (size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(c.labels[i], truth[i]) << i;
  for (const int64_t n : c.counts) EXPECT_EQ(n, 200);
  ClassifyOptions other;
  other.seed = 99;
  EXPECT_EQ(classify_sessions(rows, other).labels, c.labels);  // well separated: any seed agrees
}

TEST(Pca, ExplainedVarianceOfCorrelatedColumns) {
  base::Rng rng(4);
  Matrix m;
  for (int i = 0; i < 2000; ++i) {
    const double a = rng.normal();
    m.push_back({a, a + 0.01 * rng.normal(), rng.normal()});
  }
  const PcaResult p = pca(m);
  ASSERT_EQ(p.explained.size(), 3u);
  EXPECT_NEAR(p.explained[0], 2.0 / 3, 0.03);  // two nearly identical columns share one component
  EXPECT_NEAR(p.explained[1], 1.0 / 3, 0.03);
  EXPECT_LT(p.explained[2], 0.01);
}

TEST(OnlineClassifier, Rules) {
  swf::Record r;
  r.requested_time = 100;
  r.requested_procs = 4;
  const int64_t monday_10am = 4 * 86400 + 10 * 3600;
  EXPECT_EQ(online_session_class(r, monday_10am, 128, 3600), SessionClass::kIWD);
  EXPECT_EQ(online_session_class(r, monday_10am + 10 * 3600, 128, 3600), SessionClass::kIWN);
  EXPECT_EQ(online_session_class(r, monday_10am - 86400, 128, 3600), SessionClass::kIW);  // Sunday
  r.requested_procs = 100;
  EXPECT_EQ(online_session_class(r, monday_10am, 128, 3600), SessionClass::kBHP);
  r.requested_time = 2000;
  EXPECT_EQ(online_session_class(r, monday_10am, 128, 3600), SessionClass::kBHD);
}

}  // namespace
}  // namespace schedlab::analysis
