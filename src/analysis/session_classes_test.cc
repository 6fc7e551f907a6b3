#include "schedlab/analysis/session_classes.h"

#include <algorithm>
#include <cmath>
#include <string>
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

// Local times need a zone the system knows: an unknown name was read as UTC by the C library, in silence.
TEST(SessionTime, AnUnknownTimeZoneIsAnErrorNotUtc) {
  swf::Header h;
  h.unix_start_time = 842565631;
  h.time_zone_string = "Europe/Stockholm";
  EXPECT_EQ(utc_offsets(h, {0}), std::vector<int64_t>{7200});  // 1996-09-23: summer time
  h.time_zone_string = "Nowhere/City";
  try {
    utc_offsets(h, {0});
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("TimeZoneString 'Nowhere/City' is not in the time zone database"),
              std::string::npos)
        << e.what();
  }
  h.time_zone_string.reset();  // none: UTC, as the header says nothing
  EXPECT_EQ(utc_offsets(h, {0}), std::vector<int64_t>{0});
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
  try {
    session_variables(log, no_start, sessions.sessions, 256);
    ADD_FAILURE() << "no UnixStartTime was not refused";
  } catch (const std::invalid_argument& e) {  // the message says how to give the log its origin
    EXPECT_NE(std::string(e.what()).find("add the header line '; UnixStartTime: N'"), std::string::npos) << e.what();
  }
}

// UP / UR count a value as unique when it is more than 5% above the previous unique one: exactly 5% is not. On a
// 430-processor machine sizes 180 and 189 scale to 53.58... and 56.26...; compared in floating point the product
// 53.58... x 1.05 rounded below 56.26... and 189 counted apart (UP 2, and on 400 processors 340 and 357 too).
TEST(SessionVars, UniqueCountsAreExactAtFivePercent) {
  swf::Header h;
  h.add_line("; UnixStartTime: 345600");
  const auto unique = [&h](int64_t procs, std::vector<int32_t> sizes, std::vector<int32_t> runtimes) {
    std::vector<swf::Record> log(sizes.size());
    for (size_t i = 0; i < log.size(); ++i) {
      log[i].submit_time = static_cast<int32_t>(10 * i);
      log[i].wait_time = 0;
      log[i].run_time = runtimes[i];
      log[i].requested_procs = sizes[i];
      log[i].user_id = 1;
    }
    const auto sessions = trace::build_sessions(log);
    const SessionRow r = session_variables(log, h, sessions.sessions, procs).at(0);
    return std::pair{r[kUP], r[kUR]};
  };
  EXPECT_EQ(unique(430, {180, 189}, {20, 21}), (std::pair{1.0, 1.0}));
  EXPECT_EQ(unique(400, {340, 357}, {60, 63}), (std::pair{1.0, 1.0}));
  EXPECT_EQ(unique(430, {180, 190}, {20, 22}), (std::pair{2.0, 2.0}));  // just above
  EXPECT_EQ(unique(430, {0, 1, 180, 189, 199}, {0, 1, 2, 3, 4}), (std::pair{4.0, 5.0}));  // 0 then any: unique
}

TEST(UserVars, VariablesOfTwoUsersByHand) {
  swf::Header h;
  h.add_line("; UnixStartTime: 345600");  // Monday 1970-01-05 00:00 UTC
  // User 7: Monday 09:00 and 09:10 (one session), Saturday 20:00 (a second one), sizes 8, 16, 64 of 256.
  // User 3: one job, Tuesday 03:00 (night).
  const int64_t day = 86400;
  struct Job {
    int32_t user, submit, run, size;
  };
  const Job jobs[] = {{7, 9 * 3600, 100, 8},
                      {7, 9 * 3600 + 600, 300, 16},
                      {3, static_cast<int32_t>(day + 3 * 3600), 40, 2},
                      {7, static_cast<int32_t>(5 * day + 20 * 3600), 7000, 64}};
  std::vector<swf::Record> log;
  for (const Job& j : jobs) {
    swf::Record r;
    r.user_id = j.user;
    r.submit_time = j.submit;
    r.wait_time = 0;
    r.run_time = j.run;
    r.requested_procs = j.size;
    log.push_back(r);
  }
  const auto sessions = trace::build_sessions(log);
  ASSERT_EQ(sessions.sessions.size(), 3u);
  // Classes given per session (in build_sessions' order): user 7's weekend session is BHD.
  std::vector<int> cls;
  for (const auto& s : sessions.sessions)
    cls.push_back(static_cast<int>(s.user == 7 && s.start > day ? SessionClass::kBHD : SessionClass::kIWD));
  std::vector<int32_t> users;
  const auto rows = user_variables(log, h, sessions.sessions, cls, 256, users);
  ASSERT_EQ(users, (std::vector<int32_t>{3, 7}));
  const UserRow& u3 = rows[0];
  EXPECT_EQ(u3[0], 0);    // PD: 03:00 is night
  EXPECT_EQ(u3[1], 1);    // Pm: 2 of 256 -> 1 of 128
  EXPECT_EQ(u3[2], 40);   // Rm
  EXPECT_EQ(u3[3], 1);    // J
  EXPECT_EQ(u3[4], 1);    // PW: Tuesday
  EXPECT_EQ(u3[5], 0);    // Im: no gap
  EXPECT_DOUBLE_EQ(u3[6], 7.0);  // JW: one job over the one-day minimum span = 7 a week
  EXPECT_EQ(u3[7], 0);
  const UserRow& u7 = rows[1];
  EXPECT_DOUBLE_EQ(u7[0], 2.0 / 3);  // two of three jobs in daytime
  EXPECT_EQ(u7[1], 8);               // sizes 4, 8, 32 of 128: median 8
  EXPECT_EQ(u7[2], 300);             // runs 100, 300, 7000
  EXPECT_EQ(u7[3], 3);
  EXPECT_DOUBLE_EQ(u7[4], 2.0 / 3);  // Saturday is not a workday
  const double gap2 = 5 * day + 20 * 3600 - (9 * 3600 + 600);
  EXPECT_DOUBLE_EQ(u7[5], (600 + gap2) / 2);  // median of two gaps
  EXPECT_DOUBLE_EQ(u7[6], 3 / ((5 * day + 20 * 3600 - 9 * 3600) / (7.0 * day)));
  EXPECT_DOUBLE_EQ(u7[7], 0.5);  // one of two sessions BHD
  EXPECT_THROW(user_variables(log, h, sessions.sessions, {0}, 256, users), std::invalid_argument);
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
  // The progress hook sees every start and changes nothing.
  int starts = 0;
  ClassifyOptions watched;
  watched.restarts = 7;
  watched.after_restart = [&] { ++starts; };
  const Classification w = classify_sessions(rows, watched);
  EXPECT_EQ(starts, 7);
  EXPECT_EQ(w.labels, c.labels);
  ClassifyOptions unwatched;
  unwatched.restarts = 7;
  EXPECT_EQ(w.inertia, classify_sessions(rows, unwatched).inertia);
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
