// The `schedlab predict` command and the predictor options of `schedlab simulate`.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace schedlab {
namespace {
using schedlab::testing::run_cli;

// One user: job 1 runs 0..300 (estimate 1000); job 2 is submitted at 100, waits 300 (starts at 400), runs 500.
const char* kPredictLog =
    "; MaxProcs: 10\n"
    "1 0 0 300 1 -1 -1 1 1000 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "2 100 300 500 1 -1 -1 1 1000 -1 1 1 1 -1 -1 -1 -1 -1\n";

TEST(PredCliTest, PredictReplaysTheLogAndReportsAccuracy) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kPredictLog);
  const auto r = run_cli({"predict", log, "--predictor", "ruh:jobs=1;propagate=1", "--correction", "tsafrir",
                          "--json", "--jobs-out", dir.file("jobs.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  // The whole configuration (it said "ruh:correction=tsafrir", as for the default jobs=3 without propagation).
  EXPECT_EQ(doc["predictor"], "ruh:correction=tsafrir;jobs=1;propagate=1");
  // Parameters at their defaults are left out, however written: the same configuration prints alike.
  const auto defaults = run_cli({"predict", log, "--predictor", "ruh:jobs=3;propagate=no", "--json"});
  ASSERT_EQ(defaults.exit_code, 0) << defaults.err;
  EXPECT_EQ(nlohmann::json::parse(defaults.out)["predictor"], "ruh");
  EXPECT_EQ(doc["accuracy"]["jobs"], 2);
  EXPECT_EQ(doc["deadline_misses"], 1);
  // job 1: AA 700 (P = 1000 all along); job 2: (200 × 500 + 400 × 200 + 200 × 500) / 800 = 350
  EXPECT_DOUBLE_EQ(doc["accuracy"]["absolute_error"]["mean"].get<double>(), (700.0 + 350.0) / 2);
  EXPECT_DOUBLE_EQ(doc["accuracy"]["underestimated_share"].get<double>(), 0.5);
  const auto text = run_cli({"predict", log, "-p", "sbh"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("relative accuracy"), std::string::npos);
  // The per-job CSV on standard output is the whole output: the report (or the JSON) followed it there.
  const auto csv = run_cli({"predict", log, "--jobs-out", "-"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("job_id,user,submit,", 0), 0u) << csv.out;
  EXPECT_EQ(csv.out.find("relative accuracy"), std::string::npos) << csv.out;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 3);  // the header and two jobs
  const auto both = run_cli({"predict", log, "--json", "--jobs-out", "-"});
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_NE(both.err.find("--json and CSV to standard output ('-') cannot be combined"), std::string::npos)
      << both.err;
}

// A no-estimate SBH capped below a job's runtime: the replay warns of the job predicted one second at a time (on
// standard error and in the JSON), as simulate does.
TEST(PredCliTest, APredictionRaisedSecondBySecondIsWarnedOf) {
  const std::string kth = schedlab::testing::bundled_kth();
  const auto r = run_cli({"predict", kth, "-p", "sbh:noest=1;criteria=P,*;cap=216000", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["second_by_second_jobs"], 1);
  ASSERT_EQ(doc["warnings"].size(), 1u);
  EXPECT_NE(r.err.find("schedlab: warning: jobs ran past their predicted end and the predictor "
                       "(sbh:cap=216000;criteria=P,*;noest=1) raised their predictions by one second at a time, for "
                       "a minute or more (1 job)"),
            std::string::npos)
      << r.err;
  const auto plain = run_cli({"predict", kth, "-p", "sbh", "--json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_TRUE(nlohmann::json::parse(plain.out)["warnings"].empty());
  EXPECT_EQ(plain.err.find("warning"), std::string::npos) << plain.err;
}

// The JSON's parts, every one (a part dropped by a change fails here).
TEST(PredCliTest, TheJsonHasEveryPart) {
  const std::string kth = schedlab::testing::bundled_kth();
  const auto r = run_cli({"predict", kth, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(schedlab::testing::json_keys(doc), (std::set<std::string>{"accuracy", "deadline_misses", "jobs", "notes", "prediction_updates",
                                         "predictor", "second_by_second_jobs", "trace", "warmup_fraction",
                                         "warnings"}));
}

TEST(PredCliTest, ErrorsAreClear) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kPredictLog);
  auto r = run_cli({"predict", log, "-p", "ruh:depth=3"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no parameter 'depth'"), std::string::npos) << r.err;
  r = run_cli({"simulate", log, "-s", "easy++", "-p", "ruh"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("preset"), std::string::npos) << r.err;
  r = run_cli({"simulate", log, "-s", "easy", "--correction", "half"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unknown correction"), std::string::npos) << r.err;
  const std::string empty = dir.file("header-only.swf");
  schedlab::testing::write_file(empty, "; MaxProcs: 8\n");
  r = run_cli({"predict", empty});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("header-only.swf: no job to replay (the log has no job records)"), std::string::npos) << r.err;
}

// --next: the prediction for the user's next job after the whole log. user-last2: (300 + 500) / 2 = 400 s; the last
// job ends at 900, so the next arrives at 901.
TEST(PredCliTest, NextJobOfAUser) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kPredictLog);
  auto r = run_cli({"predict", log, "-p", "user-last2", "--next", "user=1,procs=2,estimate=1h,exe=4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("next job     user 1, 2 processors, estimate 1h (3600 s), executable 4\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("submitted    at 901 s, a second after the log's last job ended (2 jobs replayed)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("prediction   6m40s (400 s)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("on the user's 2 jobs in the log"), std::string::npos) << r.out;
  r = run_cli({"predict", log, "-p", "user-last2", "--next", "user=1,estimate=300", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["prediction"], 300);  // never above the estimate
  EXPECT_EQ(j["submit"], 901);
  EXPECT_EQ(j["user_jobs"], 2);
  EXPECT_EQ(j["trace"], log);
  r = run_cli({"predict", log, "--next", "user=2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("prediction   none: without the user's history the predictor falls back to the estimate"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("the user has no job in the log"), std::string::npos) << r.out;
  // Errors name the key or the value.
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--next", "procs=2"}, "--next: the user is required (user=U)"},
      {{"--next", "usr=1"}, "--next: unknown key 'usr'; did you mean 'user'?"},
      {{"--next", "user=1,estimate=soon"}, "--next: estimate 'soon' is not a positive duration"},
      {{"--next", "user=x"}, "--next user: 'x' is not a number, and the log's header names no users"},
      {{"--next", "user=1,procs=x"}, "--next: procs 'x' is not a whole number"},
      {{"--next", "user=1,procs"}, "--next: 'procs' is not KEY=VALUE"},
      {{"--next", "user=1,procs=2,user=2"}, "--next: user given twice"},
      {{"--next", "user=1,procs=11"}, "the next job's 11 processors are more than the machine's 10"},
      {{"--next", "user=1", "-p", "perfect"}, "perfect: its prediction depends on the job's runtime"}};
  r = run_cli({"predict", log, "--next", "user=1", "--jobs-out", dir.file("x.csv")});  // a usage error
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--jobs-out excludes --next"), std::string::npos) << r.err;
  for (const auto& [args, text] : bad) {
    std::vector<std::string> argv{"predict", log};
    argv.insert(argv.end(), args.begin(), args.end());
    r = run_cli(argv);
    EXPECT_EQ(r.exit_code, 1) << args[1];
    EXPECT_NE(r.err.find(text), std::string::npos) << r.err;
  }
}

// A log converted from sacct names its users in its header: --next takes the name.
TEST(PredCliTest, NextJobOfAUserByName) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("named.swf");
  schedlab::testing::write_file(log, std::string("; Note: users: 1=alice, 2=bob\n") + kPredictLog);
  const auto by_number = run_cli({"predict", log, "-p", "user-last2", "--next", "user=1,estimate=1h", "--json"});
  const auto by_name = run_cli({"predict", log, "-p", "user-last2", "--next", "user=alice,estimate=1h", "--json"});
  ASSERT_EQ(by_name.exit_code, 0) << by_name.err;
  EXPECT_EQ(by_name.out, by_number.out);
  EXPECT_EQ(nlohmann::json::parse(by_name.out)["prediction"], 400);
  const auto text = run_cli({"predict", log, "-p", "user-last2", "--next", "user=alice,estimate=1h"});
  EXPECT_NE(text.out.find("next job     user 1 (alice), 1 processor, estimate 1h (3600 s)\n"), std::string::npos)
      << text.out;
  const auto unknown = run_cli({"predict", log, "--next", "user=carol"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("--next user: 'carol' is neither a number nor one of the log's users (its header names: "
                             "1=alice, 2=bob)"),
            std::string::npos)
      << unknown.err;
}

TEST(PredCliTest, SimulateReportsAccuracyAndPresets) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kPredictLog);
  const auto r = run_cli({"simulate", log, "-s", "easy++", "--json", "--check", "--extend-estimates"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["scheduler"], "easy++");
  EXPECT_EQ(doc["predictor"], "user-last2:correction=tsafrir");
  EXPECT_TRUE(doc["accuracy"].contains("relative_accuracy"));
  EXPECT_EQ(doc["jobs"]["extended"], 0);
  const auto list = run_cli({"simulate", "--list"});
  for (const char* name : {"easy-pcor", "easy+", "easy++", "perfect++", "user-last2", "ruh", "sbh", "constant"}) {
    EXPECT_NE(list.out.find(name), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace schedlab
