// Talby's user/session model: the meta-model, the published distributions and the generated workload's invariants
// (model/talby_model.h).
#include "schedlab/model/talby_model.h"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>

#include "schedlab/analysis/attribute.h"
#include "schedlab/analysis/locality.h"
#include "schedlab/analysis/session_vars.h"
#include "schedlab/analysis/temporal.h"
#include "schedlab/model/estimate_models.h"
#include "schedlab/swf/reader.h"
#include "schedlab/trace/sessions.h"
#include "test_util.h"

namespace schedlab::model {
namespace {

using analysis::SessionClass;
using analysis::UserClass;

const TalbyJobModel& talby_kth_model() {
  static const TalbyJobModel m =
      fit_talby_job_layer(swf::read_log(schedlab::testing::bundled_kth()), "KTH");
  return m;
}

std::string talby_error_of(const TalbyOptions& o) {
  try {
    resolve_talby_parameters(o);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(TalbyMetaModel, MachineSizeAloneUsesTable28) {
  TalbyOptions o;
  o.procs = 100;
  const TalbyParameters p = resolve_talby_parameters(o);
  EXPECT_NEAR(p.cpu_work, 750.137, 1e-3);     // 361860 x 100^-1.3417
  EXPECT_NEAR(p.jobs_per_day, 35.6298, 1e-4);  // 0.3694 x 100 - 1.3102
  EXPECT_NEAR(p.load, 0.721135, 1e-6);         // -0.09 ln 100 + 1.1356
  EXPECT_EQ(p.cpu_work_from, "Table 28");
  EXPECT_EQ(p.procs_from, "given");
}

TEST(TalbyMetaModel, CpuWorkWithJobsPerDayOrLoad) {
  TalbyOptions o;
  o.cpu_work = 300;
  o.jobs_per_day = 100;
  TalbyParameters p = resolve_talby_parameters(o);
  EXPECT_NEAR(p.load, 0.685640, 1e-6);  // Table 24: 2.2024 x 100^-0.2534
  EXPECT_EQ(p.procs, 274);               // Table 28 inverted: (100 + 1.3102) / 0.3694 = 274.26
  EXPECT_DOUBLE_EQ(p.cpu_work, 300);
  o.jobs_per_day.reset();
  o.load = 0.6;
  o.procs = 512;
  p = resolve_talby_parameters(o);
  EXPECT_NEAR(p.jobs_per_day, 177.841, 1e-3);  // Table 26: 39.309 x 0.6^-2.9549
  EXPECT_EQ(p.procs, 512);
  EXPECT_EQ(p.jobs_per_day_from, "Table 26");
}

TEST(TalbyMetaModel, BadInputNamesTheOption) {
  TalbyOptions o;
  EXPECT_NE(talby_error_of(o).find("give --procs"), std::string::npos);
  o.procs = 0;
  EXPECT_EQ(talby_error_of(o).rfind("--procs must be in 1..2147483647 (got 0)", 0), 0u);
  o.procs = int64_t{1} << 31;  // past the SWF's MaxProcs
  EXPECT_EQ(talby_error_of(o).rfind("--procs must be in 1..2147483647 (got 2147483648)", 0), 0u);
  o.procs = 128;
  o.weeks = 0;
  EXPECT_EQ(talby_error_of(o).rfind("--weeks must be in 1..1040", 0), 0u);
  o.weeks = 1041;
  EXPECT_EQ(talby_error_of(o).rfind("--weeks must be in 1..1040", 0), 0u);
  o.weeks = 52;
  o.load = 0;
  EXPECT_EQ(talby_error_of(o).rfind("--load must be", 0), 0u);
  o.load = 0.5;
  o.jobs_per_day = 100;
  EXPECT_EQ(talby_error_of(o).rfind("--jobs-per-day and --load", 0), 0u);
  o.load.reset();
  o.cpu_work = -1;
  EXPECT_EQ(talby_error_of(o).rfind("--cpu-work must be > 0", 0), 0u);
  o.cpu_work.reset();
  o.jobs_per_day.reset();
  o.procs = 1000000;  // Table 28's load is negative there
  EXPECT_NE(talby_error_of(o).find("give --jobs-per-day or --load"), std::string::npos);
  // A machine derived from the jobs per day that the SWF cannot hold (it wrote "MaxProcs: 2707092586").
  o.procs.reset();
  o.cpu_work = 100;
  o.jobs_per_day = 1e9;
  EXPECT_EQ(talby_error_of(o).rfind("1e+09 jobs per day: Table 28 gives a machine of 2.707e+09 processors, past the "
                                    "SWF's 32-bit MaxProcs; give --procs", 0),
            0u)
      << talby_error_of(o);
  o.jobs_per_day = 1e300;  // llround of the quotient was undefined
  EXPECT_NE(talby_error_of(o).find("past the SWF's 32-bit MaxProcs"), std::string::npos);
}

TEST(TalbyMetaModel, GuidelineWarningsNameTheParameter) {
  TalbyOptions o;
  o.procs = 128;  // Table 28: 46 jobs per day, below 80
  auto w = talby_guideline_warnings(o, resolve_talby_parameters(o));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rfind("--jobs-per-day (from Table 28) 46.0 is outside", 0), 0u);
  o.procs = 64;
  o.load = 0.9;
  o.weeks = 200;
  w = talby_guideline_warnings(o, resolve_talby_parameters(o));
  ASSERT_EQ(w.size(), 4u);  // procs, load, the jobs per day from the load (Table 26: 53.7), weeks
  EXPECT_EQ(w[0].rfind("--procs 64 is outside", 0), 0u);
  EXPECT_EQ(w[1].rfind("--load 0.900 is outside", 0), 0u);
  EXPECT_EQ(w[2].rfind("--jobs-per-day (from Table 26) 53.7 is outside", 0), 0u);
  EXPECT_EQ(w[3].rfind("--weeks 200 is beyond", 0), 0u);
  o.procs = 512;
  o.load = 0.6;
  o.weeks = 104;
  EXPECT_TRUE(talby_guideline_warnings(o, resolve_talby_parameters(o)).empty());
  // A given Cm beyond the 13-750 s of Table 28 over 100-2,048 processors (a derived one is --procs's warning).
  o.cpu_work = 750;
  EXPECT_TRUE(talby_guideline_warnings(o, resolve_talby_parameters(o)).empty());
  for (const double cm : {10000.0, 1e300, 12.0}) {
    o.cpu_work = cm;
    w = talby_guideline_warnings(o, resolve_talby_parameters(o));
    ASSERT_EQ(w.size(), 1u) << cm;
    EXPECT_EQ(w[0].rfind(fmt::format("--cpu-work {:.6g} s is outside the 13-750 s that Table 28 gives", cm), 0), 0u)
        << w[0];
  }
  o.cpu_work.reset();
  o.procs = 4096;  // Table 28's Cm for it is 6 s: said by the machine's warning alone
  EXPECT_EQ(talby_guideline_warnings(o, resolve_talby_parameters(o)).size(), 1u);
}

// The note on fields 17-18 counts the jobs that follow another: "1 job follows" (it said "1 jobs follow").
TEST(TalbyMetaModel, TheHeaderCountsTheFollowingJobsInTheSingularForOne) {
  TalbyOptions o;
  o.procs = 512;
  const TalbyParameters p = resolve_talby_parameters(o);
  TalbyStats st;
  const auto note = [&] { return talby_header(o, p, TalbyJobModel{}, st).notes.back(); };
  st.following = 1;
  EXPECT_EQ(note().rfind("fields 17-18: 1 job follows the end of", 0), 0u) << note();
  st.following = 499;
  EXPECT_EQ(note().rfind("fields 17-18: 499 jobs follow the end of", 0), 0u) << note();
}

// The generated log's rate and load against the meta-model's: a warning beyond a factor of two either way.
TEST(TalbyMetaModel, OutcomeWarningsBeyondAFactorOfTwo) {
  TalbyParameters p;
  p.jobs_per_day = 100;
  p.load = 0.6;
  TalbyStats st;
  st.jobs_per_day = 51;  // 0.51 and 2.0 times: within
  st.offered_load = 1.2;
  EXPECT_TRUE(talby_outcome_warnings(p, st).empty());
  st.jobs_per_day = 19.1;
  st.offered_load = 1.21;
  const auto w = talby_outcome_warnings(p, st);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].rfind("the generated log's number of jobs per day is 19.1, 0.19 times the meta-model's 100.0: ", 0), 0u)
      << w[0];
  EXPECT_EQ(w[1].rfind("the generated log's offered load is 1.210, 2 times the meta-model's 0.600: ", 0), 0u) << w[1];
  st.jobs = 0;  // an empty log (no jobs per day to speak of) is caught as a rate of 0
  st.jobs_per_day = 0;
  st.offered_load = 0.6;
  EXPECT_EQ(talby_outcome_warnings(p, st).size(), 1u);
}

TEST(TalbyDistributions, UserClassSharesAreTable30) {
  const auto s = talby_user_class_shares(847, 0.69);  // KTH's Cm and CL: the four fits add up to 1 already
  EXPECT_NEAR(s[0], 0.356836, 1e-5);                  // LTLU
  EXPECT_NEAR(s[1], 0.278448, 1e-5);                  // LTHU
  EXPECT_NEAR(s[2], 0.208224, 1e-5);                  // STWE
  EXPECT_NEAR(s[3], 0.156491, 1e-5);                  // STWD
  const auto clipped = talby_user_class_shares(5000, 0.3);  // LTLU's fit goes negative: clipped, renormalised
  EXPECT_DOUBLE_EQ(clipped[0], 0);
  EXPECT_NEAR(std::accumulate(clipped.begin(), clipped.end(), 0.0), 1.0, 1e-12);
}

TEST(TalbyDistributions, InactivityIsEquation24) {
  EXPECT_EQ(talby_inactivity(1, UserClass::kLTLU), 0);
  EXPECT_NEAR(talby_inactivity(2, UserClass::kLTLU), 0.0683 * std::log(2) + 0.5594 - 0.18, 1e-12);
  EXPECT_NEAR(talby_inactivity(4, UserClass::kSTWD), 0.0254 * std::log(4) + 0.8164 - 0.07, 1e-12);
  EXPECT_NEAR(talby_inactivity(100, UserClass::kLTHU), 0.0895 * std::log(100) + 0.4149, 1e-12);
  EXPECT_DOUBLE_EQ(talby_inactivity(1000, UserClass::kSTWE), 0.97);  // capped
}

TEST(TalbyDistributions, SessionsPerWeekAreTables33And34) {
  auto g = talby_sessions_per_week(1, UserClass::kSTWD);
  EXPECT_DOUBLE_EQ(g.k, 0.4661);
  EXPECT_DOUBLE_EQ(g.sigma, 1.2969);
  EXPECT_DOUBLE_EQ(g.mu, 0.6);
  g = talby_sessions_per_week(10, UserClass::kSTWD);
  EXPECT_NEAR(g.k, -0.0178 * 10 + 0.337, 1e-12);
  EXPECT_NEAR(g.sigma, -0.1030 * 10 + 2.897, 1e-12);
  EXPECT_DOUBLE_EQ(talby_sessions_per_week(40, UserClass::kSTWD).sigma, 0.1);  // the fit would be negative
  EXPECT_NEAR(talby_sessions_per_week(5, UserClass::kLTHU).k, 0.00076 * 5 + 0.013, 1e-12);
}

TEST(TalbyDistributions, SessionClassesFollowEquation18) {
  // The thesis's worked example (§12.5): a long-term light user in week 10 after an interactive weekend session
  // starts an interactive workday daytime session with probability -0.0022 x 10 + 0.5107 + (0.46 - 0.43).
  // The same sum gives BHD 0.0005 x 10 + 0.0113 + (0.01 - 0.03) = -0.0037: clipped to 0, so every share is
  // renormalised by 1.0037.
  const auto p = talby_session_class_distribution(10, UserClass::kLTLU, static_cast<int>(SessionClass::kIW));
  EXPECT_NEAR(p[static_cast<size_t>(SessionClass::kIWD)], 0.5187 / 1.0037, 1e-12);
  EXPECT_DOUBLE_EQ(p[static_cast<size_t>(SessionClass::kBHD)], 0.0);
  EXPECT_NEAR(std::accumulate(p.begin(), p.end(), 0.0), 1.0, 1e-12);
  // Batch sessions follow batch sessions: a heavy user's BHP after a BHP (Table 35c: 58%).
  const auto q = talby_session_class_distribution(10, UserClass::kLTHU, static_cast<int>(SessionClass::kBHP));
  EXPECT_NEAR(q[static_cast<size_t>(SessionClass::kBHP)], 0.0006 * 10 + 0.0182 + 0.58 - 0.04, 1e-12);
  // A first session uses P(SC | UC): each class's share between its rows' extremes.
  const auto f = talby_session_class_distribution(1, UserClass::kSTWE, -1);
  EXPECT_NEAR(std::accumulate(f.begin(), f.end(), 0.0), 1.0, 1e-12);
  for (double x : f) EXPECT_GE(x, 0.0);
}

TEST(TalbyDistributions, StartupWeeksFavourEarlyWeeks) {
  for (int c = 0; c < analysis::kUserClasses; ++c) {
    const auto p = talby_startup_week_distribution(static_cast<UserClass>(c));
    EXPECT_NEAR(std::accumulate(p.begin(), p.end(), 0.0), 1.0, 1e-12);
    EXPECT_GT(p[0], p[51]) << c;
    // Equation 46 by hand for week 1: 1 - prod_{x=1..12} P(S_x = 0), with P(S_1 = 0) = 0.
    EXPECT_GT(p[0], 0.0);
  }
}

struct Generated {
  std::vector<swf::Record> jobs;
  TalbyStats stats;
};

Generated generate(int64_t procs, int64_t weeks, uint64_t seed, int threads = 0) {
  TalbyOptions o;
  o.procs = procs;
  o.weeks = weeks;
  o.seed = seed;
  o.threads = threads;
  Generated g;
  g.jobs = generate_talby(o, talby_kth_model(), &g.stats);
  return g;
}

// A job layer whose estimate model cannot be applied to the generated jobs, even with every estimate at T_max
// (a fit log with one estimate value for every job): the error says which model, fitted on what (it was Tsafrir's
// bare "infeasible bins: ...").
TEST(TalbyModel, AnEstimateModelThatCannotFitIsNamed) {
  TalbyJobModel m = talby_kth_model();
  m.source = "one-value.swf";
  m.estimates = nlohmann::json{{"model", "tsafrir"}, {"tmax", 100}, {"tmax_share", 100.0}, {"bins", nlohmann::json::array()}};
  TalbyOptions o;
  o.procs = 128;
  o.weeks = 2;
  try {
    (void)generate_talby(o, m, nullptr);
    ADD_FAILURE() << "generated";
  } catch (const ModelError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("the job layer's estimates (Tsafrir's model fitted on one-value.swf) cannot be "
                                          "given to the ", 0),
              0u)
        << e.what();
  }
}

int64_t share_of_jobs(const Generated& g, double share) {
  return static_cast<int64_t>(share * static_cast<double>(g.stats.jobs));
}

TEST(TalbyModel, SameSeedSameJobsWhateverTheThreads) {
  const Generated a = generate(256, 30, 5, 1), b = generate(256, 30, 5, 2), c = generate(256, 30, 6, 2);
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  EXPECT_EQ(0, std::memcmp(a.jobs.data(), b.jobs.data(), a.jobs.size() * sizeof(swf::Record)));
  EXPECT_NE(a.jobs.size(), c.jobs.size());
}

TEST(TalbyModel, GeneratedLogKeepsTheModelsInvariants) {
  const Generated g = generate(512, 52, 2);
  const TalbyStats& st = g.stats;
  ASSERT_GT(st.jobs, 10000);
  EXPECT_EQ(static_cast<int64_t>(g.jobs.size()), st.jobs);
  int64_t users = 0;
  for (int64_t n : st.users_by_class) users += n;
  EXPECT_EQ(users, st.users_at_start + st.new_users);
  EXPECT_EQ(std::accumulate(st.sessions_by_class.begin(), st.sessions_by_class.end(), int64_t{0}), st.sessions);
  std::set<int32_t> seen_users;
  for (size_t i = 0; i < g.jobs.size(); ++i) {
    const swf::Record& r = g.jobs[i];
    ASSERT_EQ(r.job_number, static_cast<int32_t>(i + 1));
    ASSERT_GE(r.submit_time, 0);
    ASSERT_LT(r.submit_time, 52 * 7 * 86400);
    if (i > 0) {
      ASSERT_GE(r.submit_time, g.jobs[i - 1].submit_time);
    }
    ASSERT_GE(r.requested_procs, 1);
    ASSERT_LE(r.requested_procs, 512);
    ASSERT_GE(r.requested_time, 1);
    ASSERT_GE(r.user_id, 1);
    ASSERT_LE(r.user_id, users);
    seen_users.insert(r.user_id);
  }
  // No two sessions of a user collide (Listing 5) and every session's jobs stay within 20 minutes of each other:
  // the thesis's session rule finds exactly the sessions generated (none lost past the end: a session starts
  // before it).
  EXPECT_EQ(static_cast<int64_t>(trace::build_sessions(g.jobs).sessions.size()), st.sessions);
  EXPECT_LE(static_cast<int64_t>(seen_users.size()), users);
}

// Fields 17-18: a job submitted after the end of its session's previous job names that job and the think time, so
// that submit = the preceding job's submit + runtime + think time, for the same user and within the session
// boundary (20 minutes); a job that starts a session, or was submitted while the previous one ran, names none.
TEST(TalbyModel, FollowersNameTheJobTheyFollowAndTheirThinkTime) {
  const Generated g = generate(512, 52, 2);
  int64_t following = 0, overlapping = 0;
  for (const swf::Record& r : g.jobs) {
    if (r.preceding_job < 0) {
      ASSERT_EQ(r.think_time, -1) << r.job_number;
      continue;
    }
    ++following;
    ASSERT_GE(r.preceding_job, 1);
    ASSERT_LT(r.preceding_job, r.job_number);
    const swf::Record& p = g.jobs[static_cast<size_t>(r.preceding_job - 1)];
    ASSERT_EQ(p.user_id, r.user_id) << r.job_number;
    ASSERT_GE(r.think_time, 0);
    ASSERT_LT(r.think_time, trace::kDefaultThinkThreshold);
    ASSERT_EQ(r.submit_time, p.submit_time + p.run_time + r.think_time) << r.job_number;
  }
  for (size_t i = 1; i < g.jobs.size(); ++i) overlapping += g.jobs[i].preceding_job < 0 ? 1 : 0;
  EXPECT_EQ(following, g.stats.following);
  // About a fifth of the jobs follow one (6,456 of 30,560 here); the sessions' first jobs and the many submitted
  // while the previous job ran (KTH's think times are mostly negative: batches of jobs) do not.
  EXPECT_GT(following, share_of_jobs(g, 0.15));
  EXPECT_GT(overlapping, g.stats.sessions);
}

TEST(TalbyModel, UserClassesFollowTable30OverManyUsers) {
  const Generated g = generate(512, 1040, 3);  // about 4,000 users
  const TalbyStats& st = g.stats;
  const int64_t users = st.users_at_start + st.new_users;
  ASSERT_GT(users, 3000);
  for (size_t c = 0; c < 4; ++c) {
    // 90% from Table 30, 10% the previous user's class: the shares are Table 30's in expectation.
    EXPECT_NEAR(static_cast<double>(st.users_by_class[c]) / static_cast<double>(users), st.user_class_shares[c], 0.03)
        << c;
  }
  // New users per week: the log-logistic's median e^1.25 = 3.49.
  EXPECT_NEAR(static_cast<double>(st.new_users) / 1040.0, 3.6, 0.3);
}

TEST(TalbyModel, WorkdayDaytimeSessionsMakeDailyAndWeeklyCycles) {
  const Generated g = generate(128, 52, 4);
  int64_t day = 0, workday = 0;
  for (const swf::Record& r : g.jobs) {
    const int64_t local = kTalbyUnixStart + r.submit_time;
    day += analysis::is_daytime(local);
    workday += analysis::is_workday(local);
  }
  const double n = static_cast<double>(g.jobs.size());
  // Daytime is 10 of 24 hours and workdays 5 of 7 days; the model puts most jobs there.
  EXPECT_GT(static_cast<double>(day) / n, 0.55);
  EXPECT_GT(static_cast<double>(workday) / n, 0.8);
}


TEST(TalbyModel, LocalityOfSamplingAndCyclesAsSchedlabMeasuresThem) {
  const Generated g = generate(128, 104, 1);  // two years, as in docs/generate.md
  const analysis::AttributeSeries rt = analysis::attribute_series(g.jobs, analysis::Attribute::kRuntime);
  analysis::LocalityOptions lo;
  lo.rounds = 50;
  const analysis::LocalityResult loc = analysis::locality(rt.times, rt.values, lo);
  // Sessions repeat jobs: M'_med (docs: 0.051) clearly above its random-sampling baseline (0.030).
  EXPECT_GT(loc.m_med_prime, loc.boot_med_p95 + 0.01);
  const analysis::TemporalResult t = analysis::temporal(g.jobs, false);
  const auto& jobs = t.rows[static_cast<size_t>(analysis::TemporalSeries::kJobs)];
  EXPECT_GT(jobs.daily_24h, 0.4);   // daily cycle (docs: 0.59; KTH 0.57)
  EXPECT_LT(jobs.daily_12h, 0.0);   // day against night
  EXPECT_GT(jobs.weekly_7d, 0.25);  // weekly cycle (docs: 0.58; KTH 0.39)
}

}  // namespace
}  // namespace schedlab::model
